import { createHash, randomBytes, randomUUID } from "node:crypto";
import pg from "pg";

/**
 * Mints a mayfly (todo-scoped) `dst_` token straight into the database, stored as the server
 * stores device tokens (server/auth/tokens.ts: only the SHA-256 of the token). A stand-in until
 * the CLI issue adds `POST /cli/mayfly/token`; needs the PostgreSQL project's database.
 */
export async function mintMayflyToken(databaseUrl: string, userId: string, todoId: string, ttlMs = 15 * 60_000): Promise<string> {
  const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  const token = "dst_" + [...randomBytes(40)].map((b) => alphabet[b % 62]).join("");
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(
      `INSERT INTO "DeviceToken" ("id", "userId", "kind", "tokenHash", "todoId", "expiresAt") VALUES ($1, $2, 'mayfly', $3, $4, $5)`,
      [`cmayfly${randomUUID().replace(/-/g, "").slice(0, 18)}`, userId, createHash("sha256").update(token).digest("hex"), todoId, new Date(Date.now() + ttlMs)],
    );
  } finally {
    await client.end();
  }
  return token;
}
