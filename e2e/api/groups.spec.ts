import { expect, test } from "@playwright/test";
import { bearer, createUser, type TestUser } from "../support/users";
import { connect, nextEvent } from "../support/sockets";

type Group = { id: string; projectId: string; slug: string; name: string; position: number; todoCount: number; createdAt: number; updatedAt: number };
type ErrorBody = { message: string; code: string; data?: { issues?: { path: string }[] } };

async function newProject(u: TestUser): Promise<string> {
  const res = await u.session.post("/api/v1/projects", { headers: bearer(u.apiKey), data: { name: "Grouped" } });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { id: string }).id;
}

function upsert(u: TestUser, projectId: string, slug: string, data: unknown) {
  return u.session.put(`/api/v1/projects/${projectId}/groups/${slug}`, { headers: bearer(u.apiKey), data });
}

async function groups(u: TestUser, projectId: string): Promise<Group[]> {
  const res = await u.session.get(`/api/v1/projects/${projectId}/groups`, { headers: bearer(u.apiKey) });
  expect(res.status()).toBe(200);
  return (await res.json()) as Group[];
}

async function shareWith(owner: TestUser, projectId: string, who: TestUser, role: "editor" | "viewer") {
  const res = await owner.session.post(`/api/v1/projects/${projectId}/share`, { headers: bearer(owner.apiKey), data: { email: who.email, role } });
  expect(res.status(), await res.text()).toBe(200);
}

test("groups: create, rename by slug, list empty groups in position order", async ({}, info) => {
  const u = await createUser(info);
  const pid = await newProject(u);
  expect(await groups(u, pid)).toEqual([]);

  const res = await upsert(u, pid, "backlog", { name: "  Backlog " });
  expect(res.status(), await res.text()).toBe(200);
  const backlog = (await res.json()) as Group;
  expect(backlog).toMatchObject({ projectId: pid, slug: "backlog", name: "Backlog", position: 0, todoCount: 0 });
  expect(Number.isInteger(backlog.createdAt) && Number.isInteger(backlog.updatedAt)).toBe(true);

  const doing = (await (await upsert(u, pid, "doing", { name: "Doing" })).json()) as Group;
  expect(doing.position).toBe(1); // after the last group
  const top = (await (await upsert(u, pid, "top-1", { name: "Top", position: 0 })).json()) as Group;
  expect(top.position).toBe(0);

  const renamed = (await (await upsert(u, pid, "backlog", { name: "Later" })).json()) as Group;
  expect(renamed).toMatchObject({ id: backlog.id, name: "Later", position: 0, createdAt: backlog.createdAt });
  expect(renamed.updatedAt).toBeGreaterThanOrEqual(backlog.updatedAt);

  const moved = (await (await upsert(u, pid, "doing", { name: "Doing", position: 7 })).json()) as Group;
  expect(moved).toMatchObject({ id: doing.id, position: 7 });

  const list = await groups(u, pid);
  expect(list.map((g) => [g.slug, g.name, g.position])).toEqual([
    ["backlog", "Later", 0],
    ["top-1", "Top", 0],
    ["doing", "Doing", 7],
  ]);
  expect(list.every((g) => g.todoCount === 0)).toBe(true);
});

test("group validation: slug shape, name and position → 400 with the field's path", async ({}, info) => {
  const u = await createUser(info);
  const pid = await newProject(u);
  for (const slug of ["Backlog", "-lead", "has_underscore", "a".repeat(65), "sp%20ace"]) {
    const res = await upsert(u, pid, slug, { name: "X" });
    expect(res.status(), slug).toBe(400);
    const body = (await res.json()) as ErrorBody;
    expect(body.code).toBe("BAD_REQUEST");
    expect(body.data!.issues!.map((i) => i.path)).toEqual(["path.slug"]);
  }
  expect((await upsert(u, pid, "a".repeat(64), { name: "Longest" })).status()).toBe(200);
  for (const [data, path] of [
    [{}, "body.name"],
    [{ name: "  " }, "body.name"],
    [{ name: "X", position: -1 }, "body.position"],
    [{ name: "X", position: 1.5 }, "body.position"],
    [{ name: "X", position: "1" }, "body.position"],
  ] as const) {
    const res = await upsert(u, pid, "ok", data);
    expect(res.status(), JSON.stringify(data)).toBe(400);
    expect(((await res.json()) as ErrorBody).data!.issues!.map((i) => i.path)).toEqual([path]);
  }
  expect((await groups(u, pid)).map((g) => g.slug)).toEqual(["a".repeat(64)]);
});

test("group access: owner and editor write, viewer reads (403 on write), stranger 404, anonymous 401", async ({ request }, info) => {
  const [owner, editor, viewer, stranger] = await Promise.all(["owner", "editor", "viewer", "stranger"].map((tag) => createUser(info, tag)));
  const pid = await newProject(owner);
  await shareWith(owner, pid, editor, "editor");
  await shareWith(owner, pid, viewer, "viewer");

  expect((await upsert(owner, pid, "by-owner", { name: "Owner's" })).status()).toBe(200);
  expect((await upsert(editor, pid, "by-editor", { name: "Editor's" })).status()).toBe(200);
  const denied = await upsert(viewer, pid, "by-viewer", { name: "Viewer's" });
  expect(denied.status()).toBe(403);
  expect(((await denied.json()) as ErrorBody).code).toBe("FORBIDDEN");
  expect((await groups(viewer, pid)).map((g) => g.slug)).toEqual(["by-owner", "by-editor"]);
  expect((await groups(editor, pid)).length).toBe(2);

  const missing = await stranger.session.get(`/api/v1/projects/cmissingproject0000000000/groups`, { headers: bearer(stranger.apiKey) });
  const foreign = await stranger.session.get(`/api/v1/projects/${pid}/groups`, { headers: bearer(stranger.apiKey) });
  expect(foreign.status()).toBe(404);
  expect(await foreign.json()).toEqual(await missing.json());
  expect((await upsert(stranger, pid, "by-stranger", { name: "X" })).status()).toBe(404);

  expect((await request.get(`/api/v1/projects/${pid}/groups`)).status()).toBe(401);
  expect((await request.put(`/api/v1/projects/${pid}/groups/anon`, { data: { name: "X" } })).status()).toBe(401);
  expect((await groups(owner, pid)).length).toBe(2);
});

test("concurrent upserts of one slug all succeed and make one group", async ({}, info) => {
  const u = await createUser(info);
  const pid = await newProject(u);
  const results = await Promise.all(Array.from({ length: 10 }, (_, i) => upsert(u, pid, "race", { name: `Race ${i}` })));
  expect(results.map((r) => r.status())).toEqual(Array(10).fill(200));
  const bodies = (await Promise.all(results.map((r) => r.json()))) as Group[];
  expect(new Set(bodies.map((b) => b.id)).size).toBe(1);
  const list = await groups(u, pid);
  expect(list).toHaveLength(1);
  expect(list[0]!.name).toMatch(/^Race \d$/);
});

test("an upsert publishes project.updated {action: group, group}", async ({}, info) => {
  const u = await createUser(info);
  const pid = await newProject(u);
  const socket = await connect(u.baseURL, { token: u.apiKey });
  try {
    const sub = await u.session.post(`/api/v1/projects/${pid}/subscribe`, { headers: { ...bearer(u.apiKey), "x-socket-id": socket.id! } });
    expect(sub.status()).toBe(200);
    const event = nextEvent<{ projectId: string; data: { action: string; group: Group } }>(socket, "project.updated", (e) => e.projectId === pid);
    const made = (await (await upsert(u, pid, "live", { name: "Live" })).json()) as Group;
    const e = await event;
    expect(e.data).toEqual({ action: "group", group: made });
  } finally {
    socket.disconnect();
  }
});

test("cards: an empty list for readers; strangers 404; anonymous 401", async ({ request }, info) => {
  const [owner, viewer, stranger] = await Promise.all([createUser(info, "owner"), createUser(info, "viewer"), createUser(info, "stranger")]);
  const pid = await newProject(owner);
  await shareWith(owner, pid, viewer, "viewer");
  for (const [u, status] of [
    [owner, 200],
    [viewer, 200],
    [stranger, 404],
  ] as const) {
    const res = await u.session.get(`/api/v1/projects/${pid}/cards`, { headers: bearer(u.apiKey) });
    expect(res.status(), u.email).toBe(status);
    if (status === 200) expect(await res.json()).toEqual([]);
  }
  expect((await owner.session.get(`/cookie/v1/projects/${pid}/cards`)).status()).toBe(200);
  expect((await request.get(`/api/v1/projects/${pid}/cards`)).status()).toBe(401);
});
