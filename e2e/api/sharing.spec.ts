import { expect, test } from "@playwright/test";
import { bearer, createUser, type TestUser } from "../support/users";
import { collect, connect, nextEvent } from "../support/sockets";

type Project = { id: string; name: string; ownerId: string; isPublic: boolean; role?: string; settings?: object; createdAt: number; updatedAt: number };
type ErrorBody = { message: string; code: string; data?: { issues?: { path: string }[] } };
type SharedEvent = { type: string; projectId: string; data: { action: string; userId: string; role: string; project: { id: string } } };

async function newProject(u: TestUser, data: Record<string, unknown> = { name: "Shared" }): Promise<Project> {
  const res = await u.session.post("/api/v1/projects", { headers: bearer(u.apiKey), data });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as Project;
}

function share(owner: TestUser, projectId: string, data: unknown) {
  return owner.session.post(`/api/v1/projects/${projectId}/share`, { headers: bearer(owner.apiKey), data });
}

function issuePaths(body: ErrorBody): string[] {
  return (body.data?.issues ?? []).map((i) => i.path);
}

test("owner shares by email (case-insensitive), editor by default: the sharee lists, reads and writes it", async ({}, info) => {
  const [owner, editor] = await Promise.all([createUser(info, "owner"), createUser(info, "editor")]);
  const p = await newProject(owner);
  const res = await share(owner, p.id, { email: `  ${editor.email.toUpperCase()} ` });
  expect(res.status(), await res.text()).toBe(200);
  const shared = (await res.json()) as Project;
  // The plain Project: no role, no settings.
  expect(shared).toEqual({ id: p.id, name: "Shared", description: "", isPublic: false, ownerId: owner.userId, createdAt: p.createdAt, updatedAt: p.updatedAt });

  const h = bearer(editor.apiKey);
  const list = (await (await editor.session.get("/api/v1/projects", { headers: h })).json()) as Project[];
  expect(list.map((x) => [x.id, x.role])).toEqual([[p.id, "editor"]]);
  expect(((await (await editor.session.get(`/api/v1/projects/${p.id}`, { headers: h })).json()) as Project).role).toBe("editor");
  expect((await editor.session.put(`/api/v1/projects/${p.id}`, { headers: h, data: { name: "Edited by the editor" } })).status()).toBe(200);
  expect((await editor.session.put(`/cookie/v1/projects/${p.id}`, { data: { description: "through the cookie base" } })).status()).toBe(200);
  const after = (await (await owner.session.get(`/api/v1/projects/${p.id}`, { headers: bearer(owner.apiKey) })).json()) as Project;
  expect(after).toMatchObject({ name: "Edited by the editor", description: "through the cookie base" });

  // Owner-only actions stay the owner's.
  const del = await editor.session.delete(`/api/v1/projects/${p.id}`, { headers: h });
  expect(del.status()).toBe(403);
  expect(((await del.json()) as ErrorBody).code).toBe("FORBIDDEN");
  expect((await share(editor, p.id, { email: owner.email })).status()).toBe(403);
});

test("a viewer reads only; sharing again changes the role", async ({}, info) => {
  const [owner, viewer] = await Promise.all([createUser(info, "owner"), createUser(info, "viewer")]);
  const p = await newProject(owner);
  expect((await share(owner, p.id, { email: viewer.email, role: "viewer" })).status()).toBe(200);
  const h = bearer(viewer.apiKey);
  const got = await viewer.session.get(`/api/v1/projects/${p.id}`, { headers: h });
  expect(got.status()).toBe(200);
  expect(((await got.json()) as Project).role).toBe("viewer");
  const write = await viewer.session.put(`/api/v1/projects/${p.id}`, { headers: h, data: { name: "Nope" } });
  expect(write.status()).toBe(403);
  expect(((await write.json()) as ErrorBody).code).toBe("FORBIDDEN");
  expect((await share(viewer, p.id, { email: owner.email, role: "viewer" })).status()).toBe(403);

  // Upgrade to editor, then back to viewer: one share, the latest role.
  expect((await share(owner, p.id, { email: viewer.email, role: "editor" })).status()).toBe(200);
  expect((await viewer.session.put(`/api/v1/projects/${p.id}`, { headers: h, data: { name: "Now I may" } })).status()).toBe(200);
  expect((await share(owner, p.id, { email: viewer.email, role: "viewer" })).status()).toBe(200);
  expect((await viewer.session.put(`/api/v1/projects/${p.id}`, { headers: h, data: { name: "Not any more" } })).status()).toBe(403);
  const list = (await (await viewer.session.get("/api/v1/projects", { headers: h })).json()) as Project[];
  expect(list.map((x) => [x.id, x.role])).toEqual([[p.id, "viewer"]]);
});

test("share errors: unknown email 404, own email 400, invalid body 400, stranger 404, anonymous 401", async ({ request }, info) => {
  const [owner, stranger] = await Promise.all([createUser(info, "owner"), createUser(info, "stranger")]);
  const p = await newProject(owner);

  const unknown = await share(owner, p.id, { email: `nobody-${Date.now()}@e2e.example.com` });
  expect(unknown.status()).toBe(404);
  expect(await unknown.json()).toEqual({ message: "No user with that email", code: "NOT_FOUND" });

  const self = await share(owner, p.id, { email: owner.email.toUpperCase() });
  expect(self.status()).toBe(400);
  expect(issuePaths((await self.json()) as ErrorBody)).toEqual(["body.email"]);

  for (const [data, path] of [
    [{ email: "not-an-email" }, "body.email"],
    [{}, "body.email"],
    [{ email: stranger.email, role: "owner" }, "body.role"],
  ] as const) {
    const bad = await share(owner, p.id, data);
    expect(bad.status(), JSON.stringify(data)).toBe(400);
    expect(issuePaths((await bad.json()) as ErrorBody)).toEqual([path]);
  }

  // A stranger learns nothing: the same 404 as a missing project, whatever the email.
  const foreign = await share(stranger, p.id, { email: owner.email });
  const missing = await share(stranger, "cmissingproject0000000000", { email: owner.email });
  expect(foreign.status()).toBe(404);
  expect(await foreign.json()).toEqual(await missing.json());
  expect((await request.post(`/api/v1/projects/${p.id}/share`, { data: { email: stranger.email } })).status()).toBe(401);

  // None of it shared anything.
  expect(await (await stranger.session.get("/api/v1/projects", { headers: bearer(stranger.apiKey) })).json()).toEqual([]);
});

test("sharing publishes project.updated {action: shared} to the project's room and to the sharee", async ({}, info) => {
  const [owner, sharee, outsider] = await Promise.all([createUser(info, "owner"), createUser(info, "sharee"), createUser(info, "outsider")]);
  const p = await newProject(owner);
  const ownerSocket = await connect(owner.baseURL, { token: owner.apiKey });
  const shareeSocket = await connect(sharee.baseURL, { token: sharee.apiKey });
  const outsiderSocket = await connect(outsider.baseURL, { token: outsider.apiKey });
  try {
    const sub = await owner.session.post(`/api/v1/projects/${p.id}/subscribe`, { headers: { ...bearer(owner.apiKey), "x-socket-id": ownerSocket.id! } });
    expect(sub.status()).toBe(200);
    const toOwner = nextEvent<SharedEvent>(ownerSocket, "project.updated", (e) => e.projectId === p.id);
    // The sharee has not subscribed (cannot yet): the event reaches their own connections anyway.
    const toSharee = nextEvent<SharedEvent>(shareeSocket, "project.updated", (e) => e.projectId === p.id);
    const leaked = collect(outsiderSocket, "project.updated", 1500);
    expect((await share(owner, p.id, { email: sharee.email, role: "viewer" })).status()).toBe(200);
    for (const e of [await toOwner, await toSharee]) {
      expect(e).toMatchObject({ type: "project.updated", projectId: p.id, data: { action: "shared", userId: sharee.userId, role: "viewer", project: { id: p.id } } });
    }
    expect(await leaked).toEqual([]);
  } finally {
    ownerSocket.disconnect();
    shareeSocket.disconnect();
    outsiderSocket.disconnect();
  }
});

test("a rename or delete reaches every member's own connections without subscribing, and no one else", async ({}, info) => {
  const [owner, sharee, outsider] = await Promise.all([createUser(info, "owner"), createUser(info, "sharee"), createUser(info, "outsider")]);
  const p = await newProject(owner);
  expect((await share(owner, p.id, { email: sharee.email, role: "viewer" })).status()).toBe(200);
  const shareeSocket = await connect(sharee.baseURL, { token: sharee.apiKey });
  const outsiderSocket = await connect(outsider.baseURL, { token: outsider.apiKey });
  try {
    const leaked = collect(outsiderSocket, "project.updated", 1500);
    const renamed = nextEvent<{ projectId: string; data: { action: string; project: { name: string } } }>(shareeSocket, "project.updated", (e) => e.projectId === p.id);
    expect((await owner.session.put(`/api/v1/projects/${p.id}`, { headers: bearer(owner.apiKey), data: { name: "Renamed" } })).status()).toBe(200);
    const e = await renamed;
    expect(e).toMatchObject({ type: "project.updated", projectId: p.id, data: { action: "updated", project: { name: "Renamed" } } });
    expect(Object.keys(e)).not.toContain("audience");
    expect(await leaked).toEqual([]);

    const deleted = nextEvent<{ projectId: string }>(shareeSocket, "project.deleted", (ev) => ev.projectId === p.id);
    expect((await owner.session.delete(`/api/v1/projects/${p.id}`, { headers: bearer(owner.apiKey) })).status()).toBe(200);
    expect(await deleted).toMatchObject({ type: "project.deleted", projectId: p.id, data: { projectId: p.id } });
  } finally {
    shareeSocket.disconnect();
    outsiderSocket.disconnect();
  }
});

test("brand: public projects to anyone on every base, private ones to readers only, others 404 like a missing project", async ({ request }, info) => {
  const [owner, viewer, stranger] = await Promise.all([createUser(info, "owner"), createUser(info, "viewer"), createUser(info, "stranger")]);
  const p = await newProject(owner, { name: "Branded" });
  expect((await share(owner, p.id, { email: viewer.email, role: "viewer" })).status()).toBe(200);

  const empty = await owner.session.get(`/api/v1/projects/${p.id}/brand`, { headers: bearer(owner.apiKey) });
  expect(empty.status()).toBe(200);
  expect(await empty.json()).toEqual({ projectId: p.id, markdown: "" });

  const set = await owner.session.put(`/api/v1/settings/projects/${p.id}`, { headers: bearer(owner.apiKey), data: { brandMarkdown: "# Branded\n\nWelcome." } });
  expect(set.status(), await set.text()).toBe(200);
  const expected = { projectId: p.id, markdown: "# Branded\n\nWelcome." };
  expect(await (await owner.session.get(`/cookie/v1/projects/${p.id}/brand`)).json()).toEqual(expected);
  expect(await (await viewer.session.get(`/api/v1/projects/${p.id}/brand`, { headers: bearer(viewer.apiKey) })).json()).toEqual(expected);

  // Private: no credential, a bad credential, or a stranger — all exactly the 404 of a missing project.
  const missing = await request.get(`/api/v1/projects/cmissingproject0000000000/brand`);
  expect(missing.status()).toBe(404);
  const missingBody = await missing.json();
  for (const res of [
    await request.get(`/api/v1/projects/${p.id}/brand`),
    await request.get(`/api/v1/projects/${p.id}/brand`, { headers: bearer("tsk_" + "Z".repeat(40)) }),
    await request.get(`/dst/v1/projects/${p.id}/brand`),
    await stranger.session.get(`/api/v1/projects/${p.id}/brand`, { headers: bearer(stranger.apiKey) }),
  ]) {
    expect(res.status()).toBe(404);
    expect(await res.json()).toEqual(missingBody);
  }

  expect((await owner.session.put(`/api/v1/projects/${p.id}`, { headers: bearer(owner.apiKey), data: { isPublic: true } })).status()).toBe(200);
  for (const base of ["/api/v1", "/cookie/v1", "/dst/v1"]) {
    const res = await request.get(`${base}/projects/${p.id}/brand`);
    expect(res.status(), base).toBe(200);
    expect(await res.json()).toEqual(expected);
  }
  expect(await (await stranger.session.get(`/api/v1/projects/${p.id}/brand`, { headers: bearer(stranger.apiKey) })).json()).toEqual(expected);
  // Public brand does not open the project itself.
  expect((await stranger.session.get(`/api/v1/projects/${p.id}`, { headers: bearer(stranger.apiKey) })).status()).toBe(404);
});
