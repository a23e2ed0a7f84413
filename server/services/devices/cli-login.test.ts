import { test } from "node:test";
import assert from "node:assert/strict";
import type { Caller } from "../../auth/caller.ts";
import { resolveApiKey, resolveDeviceToken } from "../../auth/resolve.ts";
import { sha256 } from "../../auth/tokens.ts";
import { ApiError } from "../../http/errors.ts";
import { createTestUser, suiteTestRuntime } from "../../testing/runtime.ts";
import { decideLogin, initLogin, pollLogin } from "./cli-login.ts";

const t = suiteTestRuntime();

const as = (userId: string): Caller => ({ credential: "session", userId, email: "", name: null, isAdmin: false });
const code = (err: unknown) => (err instanceof ApiError ? `${err.status} ${err.code}` : String(err));

/** The poll interval has passed (instead of waiting 5 s): the last poll is moved into the past. */
async function intervalPassed(deviceCode: string) {
  await t.prisma.cliLogin.update({ where: { codeHash: sha256(deviceCode) }, data: { lastPolledAt: new Date(Date.now() - 60_000) } });
}

test("a code is stored only as its hash; the credential is minted by the completing poll and never stored", async () => {
  const user = await createTestUser(t.prisma);
  const start = await initLogin("cli", "laptop");
  const row = await t.prisma.cliLogin.findUniqueOrThrow({ where: { codeHash: sha256(start.code) } });
  assert.equal(row.userCode, start.userCode.replace("-", ""));
  assert.ok(!JSON.stringify(row).includes(start.code));
  await decideLogin(as(user.id), row.userCode, "approved");
  const done = await pollLogin(start.code);
  assert.equal(done.status, "complete");
  assert.equal((await resolveApiKey(done.apiKey!))?.userId, user.id);
  const after = await t.prisma.cliLogin.findUniqueOrThrow({ where: { id: row.id } });
  assert.ok(!JSON.stringify(after).includes(done.apiKey!));
  await intervalPassed(start.code);
  await assert.rejects(pollLogin(start.code), (e) => code(e) === "409 CONFLICT");
});

test("an expired code polls as expired and can no longer be approved", async () => {
  const user = await createTestUser(t.prisma);
  const start = await initLogin("bridge", undefined);
  await t.prisma.cliLogin.update({ where: { codeHash: sha256(start.code) }, data: { expiresAt: new Date(Date.now() - 1) } });
  assert.deepEqual(await pollLogin(start.code), { status: "expired" });
  await assert.rejects(decideLogin(as(user.id), start.userCode.replace("-", ""), "approved"), (e) => code(e) === "409 CONFLICT");
});

test("two polls at once after approval: one gets the device credentials, the other 429 (never two devices)", async () => {
  const user = await createTestUser(t.prisma);
  const start = await initLogin("bridge", "box");
  await decideLogin(as(user.id), start.userCode.replace("-", ""), "approved");
  const results = await Promise.allSettled([pollLogin(start.code), pollLogin(start.code)]);
  const ok = results.filter((r) => r.status === "fulfilled").map((r) => (r as PromiseFulfilledResult<Awaited<ReturnType<typeof pollLogin>>>).value);
  assert.equal(ok.length, 1);
  assert.equal(ok[0]!.status, "complete");
  assert.equal((await resolveDeviceToken(ok[0]!.apiToken!))?.deviceId, ok[0]!.device!.id);
  assert.equal(await t.prisma.device.count({ where: { userId: user.id } }), 1);
});
