import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { expect, test, type TestInfo } from "@playwright/test";
import { bearer, dataDirOf, randomEmail } from "../support/users";

const run = promisify(execFile);

/** Runs `npm run user:create` the way the README does, against this project's server's data. */
function userCreate(info: TestInfo, args: string[]) {
  const databaseUrl = info.project.metadata?.databaseUrl as string | undefined;
  const env = { ...process.env, LOG_LEVEL: "warn", DATA_DIR: dataDirOf(info), DATABASE_URL: databaseUrl ?? "" };
  return run(process.execPath, ["--import", "tsx", "scripts/user-create.ts", ...args], { env, timeout: 60_000 });
}

test("user:create prints one JSON line with a working API key, while the server runs", async ({ request }, info) => {
  const email = randomEmail("cli");
  const { stdout } = await userCreate(info, ["--email", email.toUpperCase(), "--name", "Cli User"]);
  const lines = stdout.trim().split("\n");
  expect(lines).toHaveLength(1);
  const out = JSON.parse(lines[0]!) as { userId: string; email: string; apiKey: string };
  expect(out.email).toBe(email);
  expect(out.apiKey).toMatch(/^tsk_[0-9A-Za-z]{40}$/);
  const profile = await request.get("/api/v1/users/profile", { headers: bearer(out.apiKey) });
  expect(await profile.json()).toMatchObject({ id: out.userId, email, name: "Cli User", isAdmin: false });

  // Again for the same email: the same user, a second key; --admin promotes.
  const again = JSON.parse((await userCreate(info, ["--email", email, "--admin"])).stdout) as { userId: string; apiKey: string };
  expect(again.userId).toBe(out.userId);
  expect(again.apiKey).not.toBe(out.apiKey);
  const promoted = await request.get("/api/v1/users/profile", { headers: bearer(again.apiKey) });
  expect(await promoted.json()).toMatchObject({ isAdmin: true, name: "Cli User" });
  const keys = (await (await request.get("/api/v1/apikeys", { headers: bearer(out.apiKey) })).json()) as unknown[];
  expect(keys).toHaveLength(2);
});

test("user:create refuses a bad email with a message and exit code 2", async ({}, info) => {
  const err = await userCreate(info, ["--email", "nope"]).then(
    () => null,
    (e: { code: number; stderr: string }) => e,
  );
  expect(err?.code).toBe(2);
  expect(err?.stderr).toContain("--email must be an email address");
});

test("user:create works with no server running, on a fresh embedded database", async ({}, info) => {
  test.skip(info.project.name !== "api-embedded", "the embedded-database case");
  const dataDir = info.outputPath("stopped-data");
  const email = randomEmail("offline");
  const env = { ...process.env, LOG_LEVEL: "warn", DATA_DIR: dataDir, DATABASE_URL: "" };
  const { stdout } = await run(process.execPath, ["--import", "tsx", "scripts/user-create.ts", "--email", email], { env, timeout: 60_000 });
  const out = JSON.parse(stdout) as { email: string; apiKey: string };
  expect(out.email).toBe(email);
  expect(out.apiKey).toMatch(/^tsk_[0-9A-Za-z]{40}$/);
  // A second run opens the same (now existing) database and finds the same user.
  const second = JSON.parse((await run(process.execPath, ["--import", "tsx", "scripts/user-create.ts", "--email", email], { env, timeout: 60_000 })).stdout) as { userId: string };
  expect(second.userId).toBe((out as unknown as { userId: string }).userId);
});
