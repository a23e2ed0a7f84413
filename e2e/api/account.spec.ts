import { expect, test, type APIRequestContext } from "@playwright/test";
import type { Socket } from "socket.io-client";
import { ZAccountDataExport } from "../../lib/schemas/account";
import { bearer, createUser, dataDirOf, signIn } from "../support/users";
import { connect, nextEvent } from "../support/sockets";
import { createProject, createTodo, expectError } from "../support/todos";

// Issue 15 over HTTP and Socket.IO on the real server: the export streams as a download, and
// account deletion closes every open connection of the account (key, browser, device), takes the
// shared project away from its reader, refuses every credential, and the same email starts empty.

function disconnected(socket: Socket): Promise<string> {
  return new Promise((resolve, reject) => {
    if (!socket.connected) return resolve("already");
    const timer = setTimeout(() => reject(new Error("still connected 10 s after the deletion")), 10_000);
    socket.once("disconnect", (reason) => {
      clearTimeout(timer);
      resolve(reason);
    });
  });
}

async function cookieOf(session: APIRequestContext): Promise<string> {
  return (await session.storageState()).cookies.map((c) => `${c.name}=${c.value}`).join("; ");
}

test("export: a streamed JSON download of the account, without its keys", async ({}, info) => {
  const u = await createUser(info, "export");
  const p = await createProject(u, "Streamed");
  await createTodo(u, p.id, "exported todo");
  const res = await u.session.get("/api/v1/users/export", { headers: bearer(u.apiKey) });
  expect(res.status(), await res.text()).toBe(200);
  expect(res.headers()["content-type"]).toBe("application/json; charset=utf-8");
  expect(res.headers()["content-disposition"]).toMatch(/^attachment; filename="todo-service-export-/);
  expect(res.headers()["transfer-encoding"]).toBe("chunked");
  const text = await res.text();
  expect(text).not.toContain(u.apiKey);
  const body = ZAccountDataExport.parse(JSON.parse(text));
  expect(body.todos.map((t) => t.content)).toEqual(["exported todo"]);
  await expectError(await u.session.get("/api/v1/users/export"), 401, "UNAUTHORIZED");
});

test("deletion: every socket of the account closes, the reader loses the project, credentials are 401, the email starts empty", async ({}, info) => {
  const [u, reader] = [await createUser(info, "leaving"), await createUser(info, "reader")];
  const p = await createProject(u, "Shared then gone");
  const todo = await createTodo(u, p.id, "soon gone");
  expect((await u.session.post(`/api/v1/projects/${p.id}/share`, { headers: bearer(u.apiKey), data: { email: reader.email, role: "viewer" } })).status()).toBe(200);
  const enroll = await u.session.post("/api/v1/cli/device/enroll-self", { headers: bearer(u.apiKey), data: { name: "bridge" } });
  expect(enroll.status(), await enroll.text()).toBe(200);
  const device = (await enroll.json()) as { device: { id: string; secret: string }; apiToken: string };

  const keySocket = await connect(u.baseURL, { token: u.apiKey });
  const browserSocket = await connect(u.baseURL, { cookie: await cookieOf(u.session) });
  const deviceSocket = await connect(u.baseURL, { token: device.apiToken });
  const readerSocket = await connect(reader.baseURL, { token: reader.apiKey });
  try {
    const sub = await reader.session.post(`/api/v1/projects/${p.id}/subscribe`, { headers: { ...bearer(reader.apiKey), "x-socket-id": readerSocket.id! } });
    expect(sub.status(), await sub.text()).toBe(200);
    const gone = [disconnected(keySocket), disconnected(browserSocket), disconnected(deviceSocket)];
    const deletedEvent = nextEvent<{ type: string; projectId?: string }>(readerSocket, "project.deleted", (e) => e.projectId === p.id);

    await expectError(await u.session.delete("/cookie/v1/users/account", { data: { confirm: reader.email } }), 422, "UNPROCESSABLE_CONTENT");
    const del = await u.session.delete("/cookie/v1/users/account", { data: { confirm: u.email } });
    expect(del.status(), await del.text()).toBe(200);
    expect(await del.json()).toEqual({ success: true });
    expect(await Promise.all(gone)).toEqual(["io server disconnect", "io server disconnect", "io server disconnect"]);
    expect((await deletedEvent).projectId).toBe(p.id);
    expect(readerSocket.connected).toBe(true);

    await expectError(await reader.session.get(`/api/v1/projects/${p.id}`, { headers: bearer(reader.apiKey) }), 404, "NOT_FOUND");
    await expectError(await reader.session.get(`/api/v1/todos/${todo.id}`, { headers: bearer(reader.apiKey) }), 404, "NOT_FOUND");
    await expectError(await u.session.get("/api/v1/users/profile", { headers: bearer(u.apiKey) }), 401, "UNAUTHORIZED");
    await expectError(await u.session.get("/cookie/v1/users/profile"), 401, "UNAUTHORIZED");
    await expectError(await u.session.get("/dst/v1/devices", { headers: bearer(device.apiToken) }), 401, "UNAUTHORIZED");
    await expectError(await u.session.post("/api/v1/cli/device/token", { data: { deviceId: device.device.id, deviceSecret: device.device.secret } }), 401, "UNAUTHORIZED");
    await expect(connect(u.baseURL, { token: u.apiKey })).rejects.toThrow(/credential/i);

    // Signing up again with the same email: a new, empty account.
    const again = await signIn(u.baseURL, dataDirOf(info), u.email);
    const profile = (await (await again.get("/cookie/v1/users/profile")).json()) as { id: string; email: string };
    expect(profile.email).toBe(u.email);
    expect(profile.id).not.toBe(u.userId);
    const projects = (await (await again.get("/cookie/v1/projects")).json()) as unknown[];
    expect(projects).toEqual([]);
  } finally {
    for (const s of [keySocket, browserSocket, deviceSocket, readerSocket]) s.disconnect();
  }
});
