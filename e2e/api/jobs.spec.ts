import { execFile, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { expect, test } from "@playwright/test";
import { randomEmail, readOutbox } from "../support/users";
import { ownPort, startOwnServer, waitUp } from "../support/own-server";

// Background jobs in a real server of this test's own (embedded database, docs/jobs.md): jobs a
// killed process left waiting or running are run by the next one at its start, and SIGTERM stops
// the backend cleanly. Runs once, in the api-embedded project (its own data and port).
const run = promisify(execFile);
const PORT = ownPort(23);
const BASE = `http://localhost:${PORT}`;

test.describe.configure({ timeout: 180_000 });

/** Runs `body` (JS with `prisma` in scope) against the embedded database in `dataDir`, printing its JSON result. */
async function withDatabase(dataDir: string, body: string): Promise<unknown> {
  const code = `(async () => {
    const { openDatabase } = await import("./server/db/open.ts");
    const db = await openDatabase({ dataDir: ${JSON.stringify(path.join(dataDir, "pglite"))} });
    const prisma = db.prisma;
    try { const out = await (async () => { ${body} })(); process.stdout.write(JSON.stringify(out ?? null)); } finally { await db.close(); }
  })().catch((e) => { console.error(e); process.exit(1); });`;
  const { stdout } = await run(process.execPath, ["--import", "tsx", "-e", code], { env: { ...process.env, DATABASE_URL: "" } });
  return JSON.parse(stdout);
}

function startServer(dataDir: string): ChildProcess {
  return startOwnServer(PORT, dataDir, { AUTH_SECRET: "jobs-test-secret-0123456789abcdef" });
}

test("jobs left waiting or running by a dead process run when the server starts; SIGTERM stops it cleanly", async ({}, info) => {
  test.skip(info.project.name !== "api-embedded", "one run is enough: the server here is the test's own");
  const dataDir = await mkdtemp(path.join(tmpdir(), "todo-e2e-jobs-"));
  let server: ChildProcess | undefined;
  try {
    const waiting = randomEmail("job-waiting");
    const running = randomEmail("job-running");
    // What a killed process leaves: one job not yet started, one mid-run under that process's lock.
    await withDatabase(
      dataDir,
      `await prisma.job.create({ data: { name: "mail.send", data: { to: ${JSON.stringify(waiting)}, subject: "Waiting", text: "w" }, maxAttempts: 8 } });
       await prisma.job.create({ data: { name: "mail.send", data: { to: ${JSON.stringify(running)}, subject: "Running", text: "r" }, maxAttempts: 8, attempts: 1,
         state: "RUNNING", lockedBy: "a-process-that-died", lockedUntil: new Date(Date.now() + 3600000) } });`,
    );
    server = startServer(dataDir);
    await waitUp(BASE);
    expect((await readOutbox(dataDir, waiting)).subject).toBe("Waiting");
    expect((await readOutbox(dataDir, running)).subject).toBe("Running");

    const exited = new Promise<number | null>((r) => server!.once("exit", (code) => r(code)));
    server.kill("SIGTERM");
    expect(await exited).toBe(0);
    server = undefined;
    const after = (await withDatabase(dataDir, `return { jobs: await prisma.job.count(), effects: await prisma.jobEffect.count() };`)) as { jobs: number; effects: number };
    expect(after).toEqual({ jobs: 0, effects: 2 });
  } finally {
    if (server && server.exitCode === null) {
      const exited = new Promise((r) => server!.once("exit", r));
      server.kill("SIGKILL");
      await exited;
    }
    await rm(dataDir, { recursive: true, force: true });
  }
});
