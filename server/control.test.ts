import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { resolveApiKey } from "./auth/resolve.ts";
import { API_KEY_PATTERN } from "./auth/tokens.ts";
import { controlFilePath, handleControl, readControlFile, writeControlFile } from "./control.ts";
import { uniqueEmail, suiteTestRuntime } from "./testing/runtime.ts";
import { readResponse, type Json } from "./testing/http.ts";

const TOKEN = "a".repeat(32) + "0123456789abcdef0123456789abcdef"; // 64 hex-ish chars, like writeControlFile's

const t = suiteTestRuntime({ setup, teardown });
let server: Server;
let base: string;

async function setup() {
  server = createServer((req, res) => {
    if (!handleControl(req, res, TOKEN)) {
      res.writeHead(418, { "content-type": "text/plain" });
      res.end("not a control path");
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
async function teardown() {
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

async function post(pathname: string, body: unknown, token: string | null = TOKEN, method = "POST") {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (token !== null) headers["x-control-token"] = token;
  const res = await fetch(`${base}${pathname}`, { method, headers, body: method === "GET" ? undefined : typeof body === "string" ? body : JSON.stringify(body) });
  return readResponse(res);
}

/** Runs handleControl on a hand-made request from `remoteAddress`; resolves with what it answered. */
function callFrom(remoteAddress: string, init: { url: string; method?: string; token?: string; body?: string }) {
  return new Promise<{ handled: boolean; status?: number; body?: Json }>((resolve) => {
    const req = Readable.from(init.body ? [Buffer.from(init.body)] : []) as unknown as IncomingMessage;
    Object.assign(req, {
      url: init.url,
      method: init.method ?? "POST",
      headers: init.token === undefined ? {} : { "x-control-token": init.token },
      socket: { remoteAddress },
    });
    let status: number | undefined;
    const res = {
      writeHead(s: number) {
        status = s;
        return res;
      },
      end(chunk?: string) {
        resolve({ handled: true, status, body: chunk ? JSON.parse(chunk) : undefined });
        return res;
      },
    } as unknown as ServerResponse;
    const handled = handleControl(req, res, TOKEN);
    if (!handled) resolve({ handled: false });
  });
}

describe("handleControl: refusals", () => {
  test("other paths are not handled (returns false)", async () => {
    for (const url of ["/", "/api/v1/users/profile", "/_control", "/_controlx/user-create", "/x/_control/user-create"]) {
      const r = await callFrom("127.0.0.1", { url, token: TOKEN, body: "{}" });
      assert.deepEqual(r, { handled: false }, url);
    }
    const real = await post("/api/v1/anything", {});
    assert.equal(real.status, 418);
  });

  test("a missing or wrong token → 404, and nothing is created", async () => {
    const email = uniqueEmail("refused");
    for (const token of [null, "", "wrong", TOKEN.slice(0, -1), TOKEN + "0", TOKEN.slice(0, -1) + "X", TOKEN.toUpperCase()]) {
      const r = await post("/_control/user-create", { email }, token);
      assert.equal(r.status, 404, `token ${JSON.stringify(token)}`);
      assert.deepEqual(r.json, { message: "Not found", code: "NOT_FOUND" });
    }
    assert.equal(await t.prisma.user.count({ where: { email } }), 0);
  });

  test("a non-loopback address → 404 even with the right token, and nothing is created", async () => {
    const email = uniqueEmail("remote");
    for (const remote of ["10.0.0.5", "192.168.1.20", "::ffff:10.0.0.5", "2001:db8::1", "", "127.0.0.1.evil"]) {
      const r = await callFrom(remote, { url: "/_control/user-create", token: TOKEN, body: JSON.stringify({ email }) });
      assert.deepEqual(r, { handled: true, status: 404, body: { message: "Not found", code: "NOT_FOUND" } }, remote);
    }
    assert.equal(await t.prisma.user.count({ where: { email } }), 0);
  });

  test("the right token on an unknown control path or method → 404", async () => {
    assert.equal((await post("/_control/other", {})).status, 404);
    assert.equal((await post("/_control/user-create", null, TOKEN, "GET")).status, 404);
    assert.equal((await post("/_control/user-create?x=1", { email: uniqueEmail() })).status, 404);
  });

  test("malformed JSON or invalid input → 400 BAD_REQUEST", async () => {
    const bad = await post("/_control/user-create", "{not json");
    assert.equal(bad.status, 400);
    assert.equal(bad.json.code, "BAD_REQUEST");
    for (const body of [{}, { email: "not-an-email" }, { email: uniqueEmail(), admin: "yes" }, { email: uniqueEmail(), name: "" }]) {
      const r = await post("/_control/user-create", body);
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.equal(r.json.code, "BAD_REQUEST");
    }
  });
});

describe("handleControl: the API's error shape", () => {
  test("invalid input lists each problem in data.issues, as the API's 400 does", async () => {
    const r = await post("/_control/user-create", { email: "not-an-email", admin: "yes" });
    assert.equal(r.status, 400);
    assert.equal(r.json.code, "BAD_REQUEST");
    assert.match(r.json.message, /^Invalid body: /);
    assert.deepEqual(r.json.data.issues.map((i: Json) => i.path).sort(), ["body.admin", "body.email"]);
    for (const issue of r.json.data.issues) assert.equal(typeof issue.message, "string");
    const malformed = await post("/_control/user-create", "{not json");
    assert.deepEqual(malformed.json, { message: "Malformed JSON body", code: "BAD_REQUEST", data: { issues: [{ path: "body", message: "not valid JSON", code: "invalid_json" }] } });
  });

  test("a body over 1 MiB → 413 PAYLOAD_TOO_LARGE, and nothing is created", async () => {
    const email = uniqueEmail("big");
    const r = await post("/_control/user-create", { email, name: "x".repeat(1024 * 1024 + 10) });
    assert.equal(r.status, 413);
    assert.deepEqual(r.json, { message: "Body exceeds 1048576 bytes", code: "PAYLOAD_TOO_LARGE" });
    assert.equal(await t.prisma.user.count({ where: { email } }), 0);
  });

  test("errors carry the API's JSON headers (charset, no-store)", async () => {
    const res = await fetch(`${base}/_control/other`, { method: "POST", headers: { "x-control-token": TOKEN } });
    assert.equal(res.status, 404);
    assert.equal(res.headers.get("content-type"), "application/json; charset=utf-8");
    assert.equal(res.headers.get("cache-control"), "no-store");
    assert.deepEqual(await res.json(), { message: "Not found", code: "NOT_FOUND" });
  });
});

describe("handleControl: user-create with the right token from loopback", () => {
  test("creates the user and a working API key", async () => {
    const email = uniqueEmail("ctl");
    const r = await post("/_control/user-create", { email: email.toUpperCase(), name: "Control User" });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.email, email, "email is normalised to lower case");
    assert.equal(r.json.isAdmin, false);
    assert.match(r.json.apiKey, API_KEY_PATTERN);
    const user = await t.prisma.user.findUnique({ where: { email } });
    assert.equal(user?.id, r.json.userId);
    assert.equal(user?.name, "Control User");
    const keys = await t.prisma.apiKey.findMany({ where: { userId: r.json.userId } });
    assert.equal(keys.length, 1);
    assert.equal(keys[0]!.isDefault, true);
    const caller = await resolveApiKey(r.json.apiKey);
    assert.equal(caller?.userId, r.json.userId);
  });

  test("admin: true makes an administrator; calling again reuses the user with a fresh key", async () => {
    const email = uniqueEmail("admin");
    const first = await post("/_control/user-create", { email, admin: true });
    assert.equal(first.status, 200, first.text);
    assert.equal(first.json.isAdmin, true);
    const second = await post("/_control/user-create", { email });
    assert.equal(second.status, 200, second.text);
    assert.equal(second.json.userId, first.json.userId);
    assert.equal(second.json.isAdmin, true, "a later call without admin does not demote");
    assert.notEqual(second.json.apiKey, first.json.apiKey);
    assert.equal(await t.prisma.apiKey.count({ where: { userId: first.json.userId } }), 2);
    assert.equal((await resolveApiKey(first.json.apiKey))?.isAdmin, true);
  });

  test("IPv4-mapped and IPv6 loopback addresses are local", async () => {
    for (const remote of ["::1", "::ffff:127.0.0.1"]) {
      const email = uniqueEmail("v6");
      const r = await callFrom(remote, { url: "/_control/user-create", token: TOKEN, body: JSON.stringify({ email }) });
      assert.equal(r.status, 200, `${remote}: ${JSON.stringify(r.body)}`);
      assert.equal(r.body.email, email);
    }
  });
});

describe("control file", () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "control-test-"));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test("writeControlFile writes pid, port and a random token readable only by the owner; remove() deletes it", async () => {
    const dataDir = path.join(dir, "data");
    const a = writeControlFile(dataDir, 4321);
    assert.match(a.token, /^[0-9a-f]{64}$/);
    const file = controlFilePath(dataDir);
    assert.equal(file, path.join(dataDir, "server.json"));
    assert.deepEqual(JSON.parse(await readFile(file, "utf8")), { pid: process.pid, port: 4321, token: a.token });
    if (process.platform !== "win32") assert.equal((await stat(file)).mode & 0o777, 0o600);
    assert.deepEqual(readControlFile(dataDir), { pid: process.pid, port: 4321, token: a.token });
    const b = writeControlFile(dataDir, 4322);
    assert.notEqual(b.token, a.token);
    b.remove();
    assert.equal(readControlFile(dataDir), null);
  });

  test("readControlFile ignores a file whose server process is gone", async () => {
    const dataDir = path.join(dir, "stale");
    writeControlFile(dataDir, 1);
    const file = controlFilePath(dataDir);
    const content = JSON.parse(await readFile(file, "utf8"));
    // A pid far above any default pid_max.
    await writeFile(file, JSON.stringify({ ...content, pid: 2 ** 30 }));
    assert.equal(readControlFile(dataDir), null);
    assert.equal(readControlFile(path.join(dir, "missing")), null);
  });
});
