import { spawn } from "node:child_process";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { bearer, createUser, type TestUser } from "../support/users";
import { connect, nextEvent } from "../support/sockets";
import { createProject, createTodo, expectError, expectNull, okJson } from "../support/todos";

// Issue 14: device-code login (RFC 8628 cases), enroll-self, the token exchange, mayfly tokens,
// devices and edges, presence over a real socket, and what an attacker gets (others' devices,
// reused codes, revoked tokens).

type Init = { code: string; userCode: string; url: string; expiresIn: number; interval: number };
type Poll = { status: string; apiKey?: string; edgeId?: string; device?: { id: string; secret: string }; apiToken?: string; expiresAt?: number };
type Device = { id: string; name: string; kind: string; online: boolean; workspacePaths: string[] };

async function init(request: APIRequestContext, clientName: string, name?: string): Promise<Init> {
  return okJson<Init>(await request.post("/api/v1/cli/login/init", { data: { clientName, ...(name ? { name } : {}) } }));
}

const poll = (request: APIRequestContext, code: string) => request.get(`/api/v1/cli/login/poll?code=${encodeURIComponent(code)}`);

/** The protocol's own pause: a poll sooner than `interval` is 429 by design (RFC 8628 §3.5). */
const waitInterval = (seconds: number) => new Promise((r) => setTimeout(r, seconds * 1000 + 50));

const approve = (u: TestUser, userCode: string) => u.session.post("/cookie/v1/cli/login/approve", { data: { userCode } });

test("cli login: init, pending, 429 slow_down with Retry-After, approve, complete once with a working key, then 409", async ({ request, baseURL }, info) => {
  const u = await createUser(info, "cli-login");
  const start = await init(request, "cli", "laptop");
  expect(start.code).not.toContain(start.userCode);
  expect(start.userCode).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
  expect(start.url).toBe(`${baseURL}/device?code=${start.userCode}`);
  expect(start.expiresIn).toBe(600);
  expect(start.interval).toBe(5);

  expect(await okJson<Poll>(await poll(request, start.code))).toEqual({ status: "pending" });
  const fast = await poll(request, start.code);
  const body = await expectError(fast, 429, "TOO_MANY_REQUESTS");
  expect(body.data?.error).toBe("slow_down");
  expect(Number(fast.headers()["retry-after"])).toBeGreaterThanOrEqual(1);

  const shown = await okJson<{ clientName: string; name: string; status: string }>(await u.session.get(`/cookie/v1/cli/login/request?userCode=${start.userCode}`));
  expect(shown).toMatchObject({ clientName: "cli", name: "laptop", status: "pending" });
  // Lower case and without the dash is the same code.
  expect((await okJson<{ status: string }>(await approve(u, start.userCode.replace("-", "").toLowerCase()))).status).toBe("approved");
  await expectError(await approve(u, start.userCode), 409, "CONFLICT");

  await waitInterval(start.interval);
  const done = await okJson<Poll>(await poll(request, start.code));
  expect(done.status).toBe("complete");
  expect(done.apiKey).toMatch(/^tsk_[0-9A-Za-z]{40}$/);
  const profile = await okJson<{ id: string }>(await request.get("/api/v1/users/profile", { headers: bearer(done.apiKey!) }));
  expect(profile.id).toBe(u.userId);

  await waitInterval(start.interval);
  await expectError(await poll(request, start.code), 409, "CONFLICT");
  await expectError(await poll(request, "dc_nosuchcode"), 404, "NOT_FOUND");
});

test("denied and unknown codes; approval needs a signed-in browser on the same origin", async ({ request }, info) => {
  const u = await createUser(info, "cli-deny");
  const start = await init(request, "cli");
  // Not with an API key, not from another origin.
  expect((await request.post("/api/v1/cli/login/approve", { headers: bearer(u.apiKey), data: { userCode: start.userCode } })).status()).toBe(404);
  await expectError(await u.session.post("/cookie/v1/cli/login/approve", { data: { userCode: start.userCode }, headers: { origin: "https://evil.example" } }), 403, "FORBIDDEN");
  await expectError(await u.session.post("/cookie/v1/cli/login/approve", { data: { userCode: "BBBB-BBBB" } }), 404, "NOT_FOUND");
  await expectError(await u.session.post("/cookie/v1/cli/login/approve", { data: { userCode: "nope" } }), 400, "BAD_REQUEST");
  expect((await okJson<{ status: string }>(await u.session.post("/cookie/v1/cli/login/deny", { data: { userCode: start.userCode } }))).status).toBe("denied");
  expect(await okJson<Poll>(await poll(request, start.code))).toEqual({ status: "denied" });
  await expectError(await approve(u, start.userCode), 409, "CONFLICT");
});

test("bridge login: device credentials and a dst_ token; online over a real socket; exchange; delete revokes all at once", async ({ request, baseURL }, info) => {
  const u = await createUser(info, "bridge");
  const start = await init(request, "bridge", "build-box");
  await okJson(await approve(u, start.userCode));
  const done = await okJson<Poll>(await poll(request, start.code));
  expect(done.status).toBe("complete");
  expect(done.device?.secret).toMatch(/^dsk_/);
  expect(done.apiToken).toMatch(/^dst_[0-9A-Za-z]{40}$/);
  expect(done.expiresAt! - Date.now()).toBeGreaterThan(55 * 60_000);
  const deviceId = done.device!.id;

  const list = () => request.get("/api/v1/devices", { headers: bearer(u.apiKey) }).then((r) => okJson<Device[]>(r));
  expect(await list()).toEqual([expect.objectContaining({ id: deviceId, name: "build-box", kind: "bridge", online: false, workspacePaths: [] })]);

  const watcher = await connect(baseURL!, { token: u.apiKey });
  const online = nextEvent<{ data: { deviceId: string } }>(watcher, "device.online", (e) => e.data.deviceId === deviceId);
  const bridge = await connect(baseURL!, { token: done.apiToken! });
  await online;
  expect((await list())[0]!.online).toBe(true);

  // The device reports its workspace roots with its own token; normalised; `/` and `..` refused.
  const dst = bearer(done.apiToken!);
  const set = await okJson<Device>(await request.put(`/dst/v1/devices/${deviceId}/workspacepaths`, { headers: dst, data: ["/home/ada/src/", "/srv//app"] }));
  expect(set.workspacePaths).toEqual(["/home/ada/src", "/srv/app"]);
  await expectError(await request.put(`/dst/v1/devices/${deviceId}/workspacepaths`, { headers: dst, data: ["/"] }), 400, "BAD_REQUEST");
  await expectError(await request.put(`/dst/v1/devices/${deviceId}/workspacepaths`, { headers: dst, data: ["/home/../etc"] }), 400, "BAD_REQUEST");
  await expectError(await request.put(`/dst/v1/devices/${deviceId}/workspacepaths`, { headers: dst, data: "relative" }), 400, "BAD_REQUEST");
  expect((await list())[0]!.workspacePaths).toEqual(["/home/ada/src", "/srv/app"]);

  // Token exchange: the right secret gives a fresh working token; a wrong one is 401.
  const fresh = await okJson<{ apiToken: string }>(await request.post("/api/v1/cli/device/token", { data: { deviceId, deviceSecret: done.device!.secret } }));
  expect((await request.get("/dst/v1/devices", { headers: bearer(fresh.apiToken) })).status()).toBe(200);
  await expectError(await request.post("/api/v1/cli/device/token", { data: { deviceId, deviceSecret: `dsk_${"x".repeat(40)}` } }), 401, "UNAUTHORIZED");

  // Delete: the socket is closed, every token and the secret stop working, presence goes offline.
  const offline = nextEvent<{ data: { deviceId: string } }>(watcher, "device.offline", (e) => e.data.deviceId === deviceId);
  const closed = new Promise<void>((r) => bridge.once("disconnect", () => r()));
  await expectNull(await request.delete(`/api/v1/devices/${deviceId}`, { headers: bearer(u.apiKey), data: { id: deviceId } }));
  await closed;
  await offline;
  await expectError(await request.get("/dst/v1/devices", { headers: dst }), 401, "UNAUTHORIZED");
  await expectError(await request.get("/dst/v1/devices", { headers: bearer(fresh.apiToken) }), 401, "UNAUTHORIZED");
  await expectError(await request.post("/api/v1/cli/device/token", { data: { deviceId, deviceSecret: done.device!.secret } }), 401, "UNAUTHORIZED");
  await expect(connect(baseURL!, { token: done.apiToken! })).rejects.toThrow();
  expect(await list()).toEqual([]);
  watcher.disconnect();
});

test("another user's devices and edges are 404; a device token cannot manage devices or touch another device", async ({ request }, info) => {
  const [a, b] = await Promise.all([createUser(info, "dev-a"), createUser(info, "dev-b")]);
  const enrolled = await okJson<Poll>(await request.post("/api/v1/cli/device/enroll-self", { headers: bearer(a.apiKey), data: { name: "a-box", workspacePaths: ["/work"] } }));
  const other = await okJson<Poll>(await request.post("/api/v1/cli/device/enroll-self", { headers: bearer(a.apiKey), data: { name: "a-other" } }));
  const id = enrolled.device!.id;
  const bKey = bearer(b.apiKey);
  await expectError(await request.delete(`/api/v1/devices/${id}`, { headers: bKey, data: { id } }), 404, "NOT_FOUND");
  await expectError(await request.put(`/api/v1/devices/${id}/workspacepaths`, { headers: bKey, data: ["/x"] }), 404, "NOT_FOUND");
  expect(await okJson<Device[]>(await request.get("/api/v1/devices", { headers: bKey }))).toEqual([]);
  // A's device token: not another of A's devices, and no deleting at all (device_delete is not served on /dst/v1).
  const dst = bearer(enrolled.apiToken!);
  await expectError(await request.put(`/dst/v1/devices/${other.device!.id}/workspacepaths`, { headers: dst, data: ["/x"] }), 403, "FORBIDDEN");
  await expectError(await request.delete(`/dst/v1/devices/${id}`, { headers: dst, data: { id } }), 404, "NOT_FOUND");
  // The exchange does not accept A's device id with B's idea of a secret, nor an unknown id.
  await expectError(await request.post("/api/v1/cli/device/token", { data: { deviceId: "cnosuchdevice0000000000000", deviceSecret: enrolled.device!.secret } }), 401, "UNAUTHORIZED");
  await expectError(await request.get("/api/v1/edges/cnosuchedge", { headers: bKey }), 404, "NOT_FOUND");
});

test("edge login creates the edge at approval; list, get, update with edge.updated, subscribe, delete revokes its key", async ({ request, baseURL }, info) => {
  const [u, stranger] = await Promise.all([createUser(info, "edge"), createUser(info, "edge-stranger")]);
  const start = await init(request, "edge", "pi");
  await okJson(await approve(u, start.userCode));
  const done = await okJson<Poll>(await poll(request, start.code));
  expect(done).toMatchObject({ status: "complete", edgeId: expect.any(String), apiKey: expect.stringMatching(/^tsk_/) });
  const edgeId = done.edgeId!;
  const h = bearer(u.apiKey);
  expect(await okJson<{ id: string; name: string }[]>(await request.get("/api/v1/edges", { headers: h }))).toEqual([expect.objectContaining({ id: edgeId, name: "pi" })]);
  await expectError(await request.get(`/api/v1/edges/${edgeId}`, { headers: bearer(stranger.apiKey) }), 404, "NOT_FOUND");
  await expectError(await request.patch(`/api/v1/edges/${edgeId}`, { headers: bearer(stranger.apiKey), data: { name: "mine" } }), 404, "NOT_FOUND");

  const socket = await connect(baseURL!, { token: u.apiKey });
  const strangerSocket = await connect(baseURL!, { token: stranger.apiKey });
  await expectError(await request.post(`/api/v1/edges/${edgeId}/subscribe`, { headers: { ...bearer(stranger.apiKey), "x-socket-id": strangerSocket.id! } }), 404, "NOT_FOUND");
  await expectNull(await request.post(`/api/v1/edges/${edgeId}/subscribe`, { headers: { ...h, "x-socket-id": socket.id! } }));
  const updated = nextEvent<{ edgeId: string; data: { name: string } }>(socket, "edge.updated", (e) => e.edgeId === edgeId);
  await expectNull(await request.patch(`/api/v1/edges/${edgeId}`, { headers: h, data: { name: "garage pi", metadata: { arch: "arm64" } } }));
  expect((await updated).data.name).toBe("garage pi");
  expect(await okJson(await request.get(`/api/v1/edges/${edgeId}`, { headers: h }))).toMatchObject({ name: "garage pi", metadata: { arch: "arm64" } });
  await expectError(await request.patch(`/api/v1/edges/${edgeId}`, { headers: h, data: {} }), 400, "BAD_REQUEST");

  await expectNull(await request.delete(`/api/v1/edges/${edgeId}`, { headers: h, data: { edgeId } }));
  await expectError(await request.get("/api/v1/users/profile", { headers: bearer(done.apiKey!) }), 401, "UNAUTHORIZED");
  await expectError(await request.get(`/api/v1/edges/${edgeId}`, { headers: h }), 404, "NOT_FOUND");
  socket.disconnect();
  strangerSocket.disconnect();
});

test("mayfly token: its todo only (403 elsewhere), 404 for another user's todo, not renewable by itself", async ({ request }, info) => {
  const [u, other] = await Promise.all([createUser(info, "mayfly-issue"), createUser(info, "mayfly-other")]);
  const p = await createProject(u, "Scoped");
  const mine = await createTodo(u, p.id, { content: "mine", startProcessing: false });
  const second = await createTodo(u, p.id, { content: "second", startProcessing: false });
  const op = await createProject(other, "Theirs");
  const theirs = await createTodo(other, op.id, { content: "theirs", startProcessing: false });

  await expectError(await request.post("/api/v1/cli/mayfly/token", { headers: bearer(u.apiKey), data: { todoId: theirs.id } }), 404, "NOT_FOUND");
  const issued = await okJson<{ apiToken: string; todoId: string; expiresAt: number }>(
    await request.post("/api/v1/cli/mayfly/token", { headers: bearer(u.apiKey), data: { todoId: mine.id } }),
  );
  expect(issued.todoId).toBe(mine.id);
  expect(issued.expiresAt - Date.now()).toBeLessThanOrEqual(15 * 60_000);
  const m = bearer(issued.apiToken);
  expect((await request.get(`/dst/v1/todos/${mine.id}`, { headers: m })).status()).toBe(200);
  await expectError(await request.get(`/dst/v1/todos/${second.id}`, { headers: m }), 403, "FORBIDDEN");
  await expectError(await request.get(`/dst/v1/todos/${theirs.id}`, { headers: m }), 403, "FORBIDDEN");
  await expectError(await request.get("/dst/v1/devices", { headers: m }), 403, "FORBIDDEN");
  await expectError(await request.post("/dst/v1/cli/mayfly/token", { headers: m, data: { todoId: mine.id } }), 403, "FORBIDDEN");
});

type CloudDevice = Device & { cloud?: { tier: string; size: string; vcpus: number; memoryMb: number; diskGb: number } };

/** The user's cloud device rows, as the account export lists them (device_cloud shows only an alive one). */
async function cloudRows(u: TestUser): Promise<{ id: string }[]> {
  const data = await okJson<{ devices: { id: string; kind: string }[] }>(await u.session.get("/api/v1/users/export", { headers: bearer(u.apiKey) }));
  return data.devices.filter((d) => d.kind === "cloud");
}

async function subscribe(u: TestUser, tier: "pro" | "max"): Promise<void> {
  const h = bearer(u.apiKey);
  await okJson(await u.session.post("/api/v1/billing/setup-payment-method", { headers: h, data: { paymentMethodId: "pm_card_visa" } }));
  await okJson(await u.session.post("/api/v1/billing/subscription", { headers: h, data: { tier } }));
}

const resync = (request: APIRequestContext, u: TestUser) => request.post("/api/v1/devices/cloud/resync", { headers: bearer(u.apiKey), data: {} });

/** Polls device_cloud until a device is alive; returns it. */
async function aliveCloud(request: APIRequestContext, u: TestUser): Promise<CloudDevice> {
  let device: CloudDevice | null = null;
  await expect
    .poll(async () => (device = await okJson<CloudDevice | null>(await request.get("/api/v1/devices/cloud", { headers: bearer(u.apiKey) })))?.online ?? null, { timeout: 15_000 })
    .toBe(true);
  return device!;
}

test("cloud device on the free plan: none; resync is 402 with the tier and boots nothing", async ({ request }, info) => {
  const u = await createUser(info, "cloud-free");
  await expectNull(await request.get("/api/v1/devices/cloud", { headers: bearer(u.apiKey) }));
  const err = await expectError(await resync(request, u), 402, "PAYMENT_REQUIRED");
  expect(err.data).toEqual({ tier: "free" });
  expect(await cloudRows(u)).toEqual([]);
  await expectNull(await request.get("/api/v1/devices/cloud", { headers: bearer(u.apiKey) }));
});

test("cloud device follows the plan: Pro boots a small one (null while booting, one device for concurrent resyncs), Max replaces it with a large one, cancelling removes it", async ({ request }, info) => {
  const u = await createUser(info, "cloud-plan");
  const h = bearer(u.apiKey);
  await subscribe(u, "pro");
  // None alive: resync boots one and answers null while it boots.
  await expectNull(await resync(request, u));
  // Booting: more resyncs, at once, boot nothing more.
  const again = await Promise.all([resync(request, u), resync(request, u), resync(request, u)]);
  for (const res of again) expect(res.status()).toBe(200);
  expect(await cloudRows(u)).toHaveLength(1);
  const [{ id: bootedId }] = await cloudRows(u);
  for (const res of again) {
    const body = (await res.json()) as CloudDevice | null;
    if (body !== null) expect(body.id).toBe(bootedId);
  }
  // Alive: device_cloud and resync answer it, sized by the plan.
  const small = await aliveCloud(request, u);
  expect(small).toMatchObject({ id: bootedId, kind: "cloud", online: true, cloud: { tier: "pro", size: "small", vcpus: 2, memoryMb: 4096, diskGb: 20 } });
  expect(await okJson<CloudDevice>(await resync(request, u))).toEqual(small);
  // The cloud device is not a bridge: device_list leaves it out.
  expect(await okJson<Device[]>(await request.get("/api/v1/devices", { headers: h }))).toEqual([]);

  // Upgrade: the small device no longer fits the plan; resync replaces it with a large one.
  await okJson(await u.session.patch("/api/v1/billing/subscription", { headers: h, data: { tier: "max" } }));
  await expectNull(await request.get("/api/v1/devices/cloud", { headers: h }));
  await expectNull(await resync(request, u));
  const rows = await cloudRows(u);
  expect(rows).toHaveLength(1);
  expect(rows[0]!.id).not.toBe(bootedId);
  const large = await aliveCloud(request, u);
  expect(large).toMatchObject({ id: rows[0]!.id, cloud: { tier: "max", size: "large", vcpus: 4, memoryMb: 8192, diskGb: 50 } });

  // Downgrade to free (cancel now): device_cloud stops answering it at once; resync removes it (402).
  await okJson(await u.session.delete("/api/v1/billing/subscription", { headers: h, data: { atPeriodEnd: false } }));
  await expectNull(await request.get("/api/v1/devices/cloud", { headers: h }));
  expect(await cloudRows(u)).toHaveLength(1);
  expect((await expectError(await resync(request, u), 402, "PAYMENT_REQUIRED")).data).toEqual({ tier: "free" });
  expect(await cloudRows(u)).toEqual([]);
  await expectNull(await request.get("/api/v1/devices/cloud", { headers: h }));
  // The removed device is gone for every device operation too.
  await expectError(await request.delete(`/api/v1/devices/${large.id}`, { headers: h, data: {} }), 404, "NOT_FOUND");
});

test("two server processes with Redis: a bridge on one is online on the other, its events cross, and deleting it there closes its socket", async ({ request, baseURL }, info) => {
  const peerUrl = info.project.metadata?.peerUrl as string | undefined;
  test.skip(!peerUrl, "needs the second server process (the PostgreSQL project, with Redis)");
  const u = await createUser(info, "two-procs");
  const enrolled = await okJson<Poll>(await request.post("/api/v1/cli/device/enroll-self", { headers: bearer(u.apiKey), data: { name: "far-box" } }));
  const deviceId = enrolled.device!.id;
  const watcher = await connect(baseURL!, { token: u.apiKey });
  try {
    const online = nextEvent<{ data: { deviceId: string } }>(watcher, "device.online", (e) => e.data.deviceId === deviceId);
    const bridge = await connect(peerUrl!, { token: enrolled.apiToken! });
    await online;
    const list = () => request.get("/api/v1/devices", { headers: bearer(u.apiKey) }).then((r) => okJson<Device[]>(r));
    expect((await list())[0]).toMatchObject({ id: deviceId, online: true });
    const closed = new Promise<void>((r) => bridge.once("disconnect", () => r()));
    const offline = nextEvent<{ data: { deviceId: string } }>(watcher, "device.offline", (e) => e.data.deviceId === deviceId);
    await expectNull(await request.delete(`/api/v1/devices/${deviceId}`, { headers: bearer(u.apiKey), data: { id: deviceId } }));
    await closed;
    await offline;
  } finally {
    watcher.disconnect();
  }
});

test("a server process that crashes: its devices go offline (device.offline from a surviving process) within seconds", async ({ request, baseURL }, info) => {
  test.setTimeout(180_000);
  const databaseUrl = info.project.metadata?.databaseUrl as string | undefined;
  test.skip(!databaseUrl, "needs PostgreSQL and Redis shared by several processes (the PostgreSQL project)");
  const runId = process.env.E2E_RUN_ID!;
  const port = Number(new URL(baseURL!).port) + 11;
  const url = `http://localhost:${port}`;
  // A third process of the same deployment (same database, Redis and prefix), killed below.
  const doomed = spawn(process.execPath, ["--import", "tsx", "scripts/test-server.ts"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      APP_URL: url,
      DATABASE_URL: databaseUrl!,
      REDIS_URL: process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379",
      REDIS_PREFIX: `todo-e2e-${runId.replace(/\D/g, "-")}`,
      DATA_DIR: await mkdtemp(path.join(tmpdir(), "todo-doomed-")),
      AUTH_SECRET: "e2e-secret-not-for-production-0123456789",
      LOG_LEVEL: "warn",
    },
    stdio: "ignore",
  });
  try {
    await expect.poll(async () => (await request.get(`${url}/api/v1/openapi.json`).catch(() => null))?.status() ?? 0, { timeout: 120_000 }).toBe(200);
    const u = await createUser(info, "crash");
    const enrolled = await okJson<Poll>(await request.post("/api/v1/cli/device/enroll-self", { headers: bearer(u.apiKey), data: { name: "doomed-box" } }));
    const deviceId = enrolled.device!.id;
    const watcher = await connect(baseURL!, { token: u.apiKey });
    try {
      const online = nextEvent<{ data: { deviceId: string } }>(watcher, "device.online", (e) => e.data.deviceId === deviceId);
      await connect(url, { token: enrolled.apiToken! });
      await online;
      const offline = nextEvent<{ data: { deviceId: string } }>(watcher, "device.offline", (e) => e.data.deviceId === deviceId, 15_000);
      doomed.kill("SIGKILL");
      await offline;
      const list = await okJson<Device[]>(await request.get("/api/v1/devices", { headers: bearer(u.apiKey) }));
      expect(list[0]).toMatchObject({ id: deviceId, online: false });
    } finally {
      watcher.disconnect();
    }
  } finally {
    doomed.kill("SIGKILL");
  }
});
