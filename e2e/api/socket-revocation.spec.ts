import { expect, test, type APIRequestContext } from "@playwright/test";
import type { Socket } from "socket.io-client";
import { bearer, createUser, type TestUser } from "../support/users";
import { collect, connect, nextEvent } from "../support/sockets";

// A connection is only as good as the credential it was opened with, and joins only the rooms
// its own user may read.

type Envelope = { type: string; projectId?: string; data: { action: string } };

async function project(u: TestUser, name: string): Promise<string> {
  const res = await u.session.post("/api/v1/projects", { headers: bearer(u.apiKey), data: { name } });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { id: string }).id;
}

async function subscribe(u: TestUser, projectId: string, socket: Socket): Promise<void> {
  const res = await u.session.post(`/api/v1/projects/${projectId}/subscribe`, { headers: { ...bearer(u.apiKey), "x-socket-id": socket.id! } });
  expect(res.status(), await res.text()).toBe(200);
}

async function newKey(u: TestUser, name: string): Promise<string> {
  const res = await u.session.post("/api/v1/apikeys", { headers: bearer(u.apiKey), data: { name } });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { key: string }).key;
}

function disconnected(socket: Socket): Promise<string> {
  return new Promise((resolve, reject) => {
    if (!socket.connected) return resolve("already");
    const timer = setTimeout(() => reject(new Error("still connected 10 s after the revocation")), 10_000);
    socket.once("disconnect", (reason) => {
      clearTimeout(timer);
      resolve(reason);
    });
  });
}

async function cookieOf(session: APIRequestContext): Promise<string> {
  return (await session.storageState()).cookies.map((c) => `${c.name}=${c.value}`).join("; ");
}

async function revokesKeySocket(info: Parameters<Parameters<typeof test>[2]>[1], socketUrl: (u: TestUser) => string) {
  const u = await createUser(info);
  const p = await project(u, "Revoked");
  const doomedKey = await newKey(u, "doomed");
  const doomed = await connect(socketUrl(u), { token: doomedKey });
  const kept = await connect(socketUrl(u), { token: u.apiKey });
  try {
    await subscribe(u, p, doomed);
    await subscribe(u, p, kept);
    const gone = disconnected(doomed);
    const leaked = collect(doomed, "project.updated", 1500);
    const del = await u.session.delete("/api/v1/apikeys/doomed", { headers: bearer(u.apiKey) });
    expect(del.status(), await del.text()).toBe(200);
    expect(await gone).toBe("io server disconnect");
    // Events after the deletion reach the other key's connection, never the revoked one's.
    const seen = nextEvent<Envelope>(kept, "project.updated", (e) => e.projectId === p);
    expect((await u.session.put(`/api/v1/projects/${p}`, { headers: bearer(u.apiKey), data: { name: "After" } })).status()).toBe(200);
    expect((await seen).projectId).toBe(p);
    expect(await leaked).toEqual([]);
    expect(kept.connected).toBe(true);
    // And the deleted key cannot open a new one.
    await expect(connect(socketUrl(u), { token: doomedKey })).rejects.toThrow(/credential/i);
  } finally {
    doomed.disconnect();
    kept.disconnect();
  }
}

test("deleting an API key disconnects its open connections at once; other keys' stay", async ({}, info) => {
  await revokesKeySocket(info, (u) => u.baseURL);
});

test("with Redis, deleting a key through one process disconnects its connection on another", async ({}, info) => {
  const peerUrl = info.project.metadata?.peerUrl as string | undefined;
  test.skip(!peerUrl, "this project runs a single server process");
  await revokesKeySocket(info, () => peerUrl!);
});

test("signing out closes the session's connections, not the user's other ones", async ({}, info) => {
  const u = await createUser(info);
  const p = await project(u, "Signed out");
  const cookie = await cookieOf(u.session);
  const browser = await connect(u.baseURL, { cookie });
  const script = await connect(u.baseURL, { token: u.apiKey });
  try {
    await subscribe(u, p, script);
    const gone = disconnected(browser);
    const { csrfToken } = (await (await u.session.get("/api/auth/csrf")).json()) as { csrfToken: string };
    const out = await u.session.post("/api/auth/signout", { form: { csrfToken, callbackUrl: u.baseURL } });
    expect(out.status(), await out.text()).toBeLessThan(400);
    expect(await gone).toBe("io server disconnect");
    expect(script.connected).toBe(true);
    await expect(connect(u.baseURL, { cookie })).rejects.toThrow(/credential/i);
  } finally {
    browser.disconnect();
    script.disconnect();
  }
});

test("X-Socket-Id must be a connection's id: a room name is refused and joins nobody", async ({}, info) => {
  const owner = await createUser(info, "owner");
  const caller = await createUser(info, "caller");
  const shared = await project(owner, "Shared");
  const share = await owner.session.post(`/api/v1/projects/${shared}/share`, { headers: bearer(owner.apiKey), data: { email: caller.email, role: "viewer" } });
  expect(share.status(), await share.text()).toBe(200);
  const callersOwn = await project(caller, "Caller's own");
  const ownerSocket = await connect(owner.baseURL, { token: owner.apiKey });
  const callerSocket = await connect(caller.baseURL, { token: caller.apiKey });
  try {
    await subscribe(owner, shared, ownerSocket);
    await subscribe(caller, shared, callerSocket);
    for (const room of [`project:${shared}`, `user:${owner.userId}`]) {
      const res = await caller.session.post(`/api/v1/projects/${callersOwn}/subscribe`, { headers: { ...bearer(caller.apiKey), "x-socket-id": room } });
      expect(res.status(), `${room}: ${await res.text()}`).toBe(400);
      expect(((await res.json()) as { data: { issues: { path: string }[] } }).data.issues[0]!.path).toBe("header.x-socket-id");
    }
    const leaked = collect(ownerSocket, "project.updated", 1500);
    const changed = nextEvent<Envelope>(callerSocket, "project.updated", (e) => e.projectId === shared);
    expect((await caller.session.put(`/api/v1/projects/${callersOwn}`, { headers: bearer(caller.apiKey), data: { name: "Private change" } })).status()).toBe(200);
    // A control: the owner's connection does hear its own project.
    expect((await owner.session.put(`/api/v1/projects/${shared}`, { headers: bearer(owner.apiKey), data: { name: "Shared 2" } })).status()).toBe(200);
    await changed;
    const ownerSaw = ((await leaked) as Envelope[]).map((e) => e.projectId);
    expect(ownerSaw).not.toContain(callersOwn);
    expect(ownerSaw).toContain(shared);
  } finally {
    ownerSocket.disconnect();
    callerSocket.disconnect();
  }
});

test("a session-cookie handshake from another site's page is refused; the app's own and token handshakes are not", async ({}, info) => {
  const u = await createUser(info);
  const cookie = await cookieOf(u.session);
  await expect(connect(u.baseURL, { cookie, origin: "https://evil.example" })).rejects.toThrow(/cross-site/i);
  const own = await connect(u.baseURL, { cookie, origin: u.baseURL });
  const scripted = await connect(u.baseURL, { token: u.apiKey, origin: "https://elsewhere.example" });
  try {
    expect(own.connected && scripted.connected).toBe(true);
  } finally {
    own.disconnect();
    scripted.disconnect();
  }
});
