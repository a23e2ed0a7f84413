import { test } from "node:test";
import assert from "node:assert/strict";
import { roomsFor, type AppEvent } from "../../realtime/bus.ts";
import { suiteTestApp, type TestAppUser } from "../../testing/app.ts";
import type { Json } from "../../testing/http.ts";

// Memory notes through the real pipeline: personal notes are their author's alone; a project's
// notes follow project access (readers read, writers write, strangers get 404).

const app = suiteTestApp({ setup });
const u: Record<string, TestAppUser> = {};
let P = "";

async function setup() {
  for (const name of ["owner", "editor", "viewer", "stranger"]) u[name] = await app.newUser();
  P = (await app.rt.prisma.project.create({ data: { ownerId: u.owner!.userId, name: "P" } })).id;
  await app.rt.prisma.projectShare.createMany({
    data: [
      { projectId: P, userId: u.editor!.userId, role: "editor" },
      { projectId: P, userId: u.viewer!.userId, role: "viewer" },
    ],
  });
}

const call = (who: string, method: string, path: string, body?: unknown, query?: Record<string, string>) => app.call(method, path, { key: u[who]!.apiKey, body, query });

test("a personal note is its author's alone", async () => {
  const created = await call("owner", "POST", "/notes", { content: "  Prefers short answers  " });
  assert.equal(created.status, 200, created.text);
  const note = created.json as Json;
  assert.equal(note.content, "Prefers short answers");
  assert.equal(note.projectId, null);
  assert.equal((await call("owner", "GET", `/notes/${note.id}`)).status, 200);
  // What a note reads as (projectId: null) can be sent back.
  const echoed = await call("owner", "POST", "/notes", { content: "Likes tea", projectId: null });
  assert.equal(echoed.status, 200, echoed.text);
  assert.equal((echoed.json as Json).projectId, null);
  await call("owner", "DELETE", `/notes/${(echoed.json as Json).id}`);
  for (const who of ["editor", "stranger"]) {
    assert.equal((await call(who, "GET", `/notes/${note.id}`)).status, 404, who);
    assert.equal((await call(who, "PATCH", `/notes/${note.id}`, { content: "x" })).status, 404, who);
    assert.equal((await call(who, "DELETE", `/notes/${note.id}`)).status, 404, who);
    assert.equal(((await call(who, "GET", "/notes")).json as Json).items.length, 0, who);
  }
  assert.deepEqual(((await call("owner", "GET", "/notes")).json as Json).items.map((n: Json) => n.id), [note.id]);
  const changed = await call("owner", "PATCH", `/notes/${note.id}`, { content: "Prefers bullet points" });
  assert.equal((changed.json as Json).content, "Prefers bullet points");
  // The write queued the embedding job (computed in the background, not in the request).
  assert.ok(await app.rt.prisma.job.count({ where: { name: "search.embed", key: { startsWith: `note:${note.id}:` } } }) >= 1);
  assert.equal((await call("owner", "DELETE", `/notes/${note.id}`, { noteId: "other" })).status, 400);
  assert.equal((await call("owner", "DELETE", `/notes/${note.id}`)).status, 200);
  assert.equal((await call("owner", "GET", `/notes/${note.id}`)).status, 404);
});

test("a project's notes: writers write, viewers read (403 to write), strangers get 404", async () => {
  const byEditor = await call("editor", "POST", "/notes", { projectId: P, content: "Deploys go out on Tuesdays" });
  assert.equal(byEditor.status, 200, byEditor.text);
  const id = (byEditor.json as Json).id;
  assert.equal((await call("viewer", "POST", "/notes", { projectId: P, content: "no" })).status, 403);
  assert.equal((await call("stranger", "POST", "/notes", { projectId: P, content: "no" })).status, 404);
  assert.equal((await call("viewer", "GET", `/notes/${id}`)).status, 200);
  assert.equal((await call("viewer", "PATCH", `/notes/${id}`, { content: "x" })).status, 403);
  assert.equal((await call("viewer", "DELETE", `/notes/${id}`)).status, 403);
  assert.equal((await call("stranger", "GET", `/notes/${id}`)).status, 404);
  assert.equal((await call("stranger", "GET", "/notes", undefined, { projectId: P })).status, 404);
  assert.equal(((await call("viewer", "GET", "/notes", undefined, { projectId: P })).json as Json).items.length, 1);
  assert.equal((await call("owner", "PATCH", `/notes/${id}`, { content: "Deploys go out on Wednesdays" })).status, 200, "the owner edits an editor's note");
  // Access removed: gone at once.
  await app.rt.prisma.projectShare.deleteMany({ where: { projectId: P, userId: u.viewer!.userId } });
  assert.equal((await call("viewer", "GET", `/notes/${id}`)).status, 404);
});

test("bad input is a 400 and changes nothing; pages never repeat or skip", async () => {
  for (const body of [{}, { content: "" }, { content: "   " }, { content: "x".repeat(4001) }, { content: 5 }, { content: "ok", projectId: 5 }]) {
    const res = await call("stranger", "POST", "/notes", body);
    assert.equal(res.status, 400, JSON.stringify(body));
    assert.equal((res.json as Json).code, "BAD_REQUEST");
  }
  assert.equal((await call("stranger", "GET", "/notes", undefined, { cursor: "nope" })).status, 400);
  assert.equal(await app.rt.prisma.memoryNote.count({ where: { userId: u.stranger!.userId } }), 0);
  const at = new Date();
  for (let i = 0; i < 7; i++) await app.rt.prisma.memoryNote.create({ data: { userId: u.stranger!.userId, content: `n${i}`, updatedAt: at } });
  for (const limit of [1, 2, 3, 7, 8]) {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const body: Json = (await call("stranger", "GET", "/notes", undefined, { limit: String(limit), ...(cursor ? { cursor } : {}) })).json;
      seen.push(...body.items.map((n: Json) => n.content));
      cursor = body.nextCursor;
    } while (cursor);
    assert.deepEqual([...seen].sort(), ["n0", "n1", "n2", "n3", "n4", "n5", "n6"], `limit ${limit}`);
  }
});

test("every note change is a note.* event: a personal note to its author, a project's to its room and members", async () => {
  const Q = (await app.rt.prisma.project.create({ data: { ownerId: u.owner!.userId, name: "Q" } })).id;
  await app.rt.prisma.projectShare.create({ data: { projectId: Q, userId: u.editor!.userId, role: "editor" } });
  const seen: AppEvent[] = [];
  const stop = app.rt.bus.subscribe((e) => void (e.type.startsWith("note.") && seen.push(e)));
  try {
    const mine = (await call("owner", "POST", "/notes", { content: "Likes green" })).json as Json;
    await call("owner", "PATCH", `/notes/${mine.id}`, { content: "Likes blue" });
    await call("owner", "DELETE", `/notes/${mine.id}`);
    const shared = (await call("editor", "POST", "/notes", { content: "Ship on Fridays", projectId: Q })).json as Json;
    await call("owner", "PATCH", `/notes/${shared.id}`, { content: "Ship on Mondays" });
    await call("editor", "DELETE", `/notes/${shared.id}`);
    // Refused or missing: no event.
    assert.equal((await call("stranger", "DELETE", `/notes/${shared.id}`)).status, 404);
    assert.equal((await call("stranger", "POST", "/notes", { content: "x", projectId: Q })).status, 404);
    const personal = [`user:${u.owner!.userId}`];
    const project = [`project:${Q}`, `user:${u.owner!.userId}`, `user:${u.editor!.userId}`];
    assert.deepEqual(
      seen.map((e) => [e.type, (e.data as Json).id, (e.data as Json).content, [...roomsFor(e)].sort()]),
      [
        ["note.created", mine.id, "Likes green", personal],
        ["note.updated", mine.id, "Likes blue", personal],
        ["note.deleted", mine.id, undefined, personal],
        ["note.created", shared.id, "Ship on Fridays", project.sort()],
        ["note.updated", shared.id, "Ship on Mondays", project.sort()],
        ["note.deleted", shared.id, undefined, project.sort()],
      ],
    );
  } finally {
    stop();
  }
});
