import { expect, test } from "@playwright/test";
import { bearer, createUser } from "../support/users";
import { collect, connect, nextEvent } from "../support/sockets";

type Envelope = { type: string; id: string; at: number; projectId?: string; data: { action: string; project: { name: string } } };

test("a subscribed connection receives project.updated for a change made by another request", async ({}, info) => {
  const u = await createUser(info);
  const h = bearer(u.apiKey);
  const p = (await (await u.session.post("/api/v1/projects", { headers: h, data: { name: "Live" } })).json()) as { id: string };
  const socket = await connect(u.baseURL, { token: u.apiKey });
  try {
    const sub = await u.session.post(`/api/v1/projects/${p.id}/subscribe`, { headers: { ...h, "x-socket-id": socket.id! } });
    expect(sub.status(), await sub.text()).toBe(200);
    expect(await sub.text()).toBe("null");
    const event = nextEvent<Envelope>(socket, "project.updated", (e) => e.projectId === p.id);
    // The change comes through the other base and credential.
    expect((await u.session.put(`/cookie/v1/projects/${p.id}`, { data: { name: "Live 2" } })).status()).toBe(200);
    const e = await event;
    expect(e).toMatchObject({ type: "project.updated", projectId: p.id, data: { action: "updated", project: { name: "Live 2" } } });
    expect(typeof e.id).toBe("string");
    expect(Number.isInteger(e.at)).toBe(true);
  } finally {
    socket.disconnect();
  }
});

test("the socket id may come in the body; a session-cookie socket works too", async ({}, info) => {
  const u = await createUser(info);
  const p = (await (await u.session.post("/cookie/v1/projects", { data: { name: "Cookie live" } })).json()) as { id: string };
  const state = await u.session.storageState();
  const cookie = state.cookies.map((c) => `${c.name}=${c.value}`).join("; ");
  const socket = await connect(u.baseURL, { cookie });
  try {
    const sub = await u.session.post(`/cookie/v1/projects/${p.id}/subscribe`, { data: { projectId: p.id, socketId: socket.id } });
    expect(sub.status(), await sub.text()).toBe(200);
    const event = nextEvent<Envelope>(socket, "project.updated", (e) => e.projectId === p.id);
    await u.session.put(`/api/v1/projects/${p.id}`, { headers: bearer(u.apiKey), data: { isPublic: true } });
    expect((await event).projectId).toBe(p.id);
  } finally {
    socket.disconnect();
  }
});

test("subscribe is refused for strangers, for others' sockets, and without a socket", async ({}, info) => {
  const owner = await createUser(info, "owner");
  const stranger = await createUser(info, "stranger");
  const p = (await (await owner.session.post("/api/v1/projects", { headers: bearer(owner.apiKey), data: { name: "Secret" } })).json()) as { id: string };
  const strangerSocket = await connect(stranger.baseURL, { token: stranger.apiKey });
  const ownerSocket = await connect(owner.baseURL, { token: owner.apiKey });
  try {
    const refused = await stranger.session.post(`/api/v1/projects/${p.id}/subscribe`, { headers: { ...bearer(stranger.apiKey), "x-socket-id": strangerSocket.id! } });
    expect(refused.status()).toBe(404);
    // The owner cannot attach the stranger's connection either.
    const foreignSocket = await owner.session.post(`/api/v1/projects/${p.id}/subscribe`, { headers: { ...bearer(owner.apiKey), "x-socket-id": strangerSocket.id! } });
    expect(foreignSocket.status()).toBe(400);
    const none = await owner.session.post(`/api/v1/projects/${p.id}/subscribe`, { headers: bearer(owner.apiKey) });
    expect(none.status()).toBe(400);
    expect(((await none.json()) as { data: { issues: { path: string }[] } }).data.issues[0]!.path).toBe("header.x-socket-id");

    const leaked = collect(strangerSocket, "project.updated", 1500);
    await owner.session.put(`/api/v1/projects/${p.id}`, { headers: bearer(owner.apiKey), data: { name: "Still secret" } });
    expect(await leaked).toEqual([]);
  } finally {
    strangerSocket.disconnect();
    ownerSocket.disconnect();
  }
});

test("a socket handshake with a bad credential is refused", async ({ baseURL }) => {
  await expect(connect(baseURL!, { token: "tsk_" + "Z".repeat(40) })).rejects.toThrow(/invalid|credential/i);
  await expect(connect(baseURL!, {})).rejects.toThrow(/invalid|credential/i);
});

test("with Redis, an update through one server process reaches a client on another", async ({}, info) => {
  const peerUrl = info.project.metadata?.peerUrl as string | undefined;
  test.skip(!peerUrl, "this project runs a single server process");
  const u = await createUser(info);
  const h = bearer(u.apiKey);
  const p = (await (await u.session.post("/api/v1/projects", { headers: h, data: { name: "Across" } })).json()) as { id: string };
  const socket = await connect(peerUrl!, { token: u.apiKey });
  try {
    // Subscribe through the first process while the connection lives on the second.
    const sub = await u.session.post(`/api/v1/projects/${p.id}/subscribe`, { headers: { ...h, "x-socket-id": socket.id! } });
    expect(sub.status(), await sub.text()).toBe(200);
    const event = nextEvent<Envelope>(socket, "project.updated", (e) => e.projectId === p.id);
    expect((await u.session.put(`/api/v1/projects/${p.id}`, { headers: h, data: { name: "Across 2" } })).status()).toBe(200);
    expect((await event).data.project.name).toBe("Across 2");
  } finally {
    socket.disconnect();
  }
});
