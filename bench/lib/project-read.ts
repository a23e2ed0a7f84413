// project_get's database work and nothing else, for the baselines of bench/project-get.ts: the
// raw node:http server (bench/raw-server.ts) and the bare Next app's catch-all route
// (bench/next-bare). Same database layer (openDatabase: PGlite or PostgreSQL through Prisma), same
// queries as the app's hot path — keep them in step with:
//   server/auth/resolve.ts      resolveApiKey       key by sha256 hash (+ lastUsedAt once a minute),
//                                                   kept CREDENTIAL_TTL_MS in memory as the server's
//                                                   credential cache does (server/auth/credential-cache.ts)
//   server/services/access.ts   getProjectOrThrow   project row + the caller's share and team seat (accessInclude)
//   server/services/projects    getProject          toProjectFull, then JSON
// Not here, by design: the operation pipeline, zod, the rate limiter, the front door.
import { API_KEY_PATTERN, newApiKey, sha256 } from "../../server/auth/tokens.ts";
import { openDatabase } from "../../server/db/open.ts";
import { CREDENTIAL_TTL_MS } from "../../server/auth/credential-cache.ts";
import { accessInclude, roleFor } from "../../server/services/access.ts";
import type { Caller } from "../../server/auth/caller.ts";
import { toProjectFull } from "../../server/services/projects/serialize.ts";

export type ProjectRead = {
  /** The seeded user's API key and project. */
  apiKey: string;
  projectId: string;
  /** project_get's statements for `key` (the x-api-key header) and `projectId`: status and body. */
  projectGet(key: string, projectId: string): Promise<{ status: number; body: unknown }>;
  close(): Promise<void>;
};

/**
 * Opens `databaseUrl` (PostgreSQL) or the PGlite directory `dataDir` and seeds one user, API key
 * and project (in a shared PostgreSQL database they sit beside the app's own).
 */
export async function openProjectRead(o: { databaseUrl?: string; dataDir?: string; label: string }): Promise<ProjectRead> {
  const database = await openDatabase({ databaseUrl: o.databaseUrl || undefined, dataDir: o.dataDir || "memory://" });
  const prisma = database.prisma;
  const apiKey = newApiKey();
  const user = await prisma.user.create({ data: { email: `${o.label}-${Date.now()}-${process.pid}@bench.invalid`, name: "Baseline" } });
  await prisma.apiKey.create({ data: { userId: user.id, name: "bench", keyHash: sha256(apiKey), last4: apiKey.slice(-4), isDefault: true } });
  const seeded = await prisma.project.create({ data: { ownerId: user.id, name: "Bench project", description: "baseline" } });

  const LAST_USED_EVERY_MS = 60_000;
  const keys = new Map<string, { caller: Caller; until: number }>();

  async function resolveKey(key: string): Promise<Caller | null> {
    if (!API_KEY_PATTERN.test(key)) return null;
    const hash = sha256(key);
    const hit = keys.get(hash);
    if (hit && hit.until > Date.now()) return hit.caller;
    const row = await prisma.apiKey.findUnique({
      where: { keyHash: hash },
      select: { id: true, lastUsedAt: true, user: { select: { id: true, email: true, name: true, isAdmin: true } } },
    });
    if (!row) return null;
    if (!row.lastUsedAt || Date.now() - row.lastUsedAt.getTime() > LAST_USED_EVERY_MS) {
      void prisma.apiKey.update({ where: { id: row.id }, data: { lastUsedAt: new Date() } }).catch(() => undefined);
    }
    const caller: Caller = { userId: row.user.id, email: row.user.email, name: row.user.name, isAdmin: row.user.isAdmin, credential: "apiKey", apiKeyId: row.id };
    keys.set(hash, { caller, until: Date.now() + CREDENTIAL_TTL_MS });
    return caller;
  }

  return {
    apiKey,
    projectId: seeded.id,
    async projectGet(key, projectId) {
      const caller = await resolveKey(key);
      if (!caller) return { status: 401, body: { code: "UNAUTHORIZED" } };
      // getProjectOrThrow
      const project = await prisma.project.findUnique({ where: { id: projectId }, include: accessInclude(caller) });
      const role = project ? roleFor(caller, project) : null;
      if (!project || !role) return { status: 404, body: { code: "NOT_FOUND" } };
      return { status: 200, body: toProjectFull(project, role) };
    },
    close: () => database.close(),
  };
}
