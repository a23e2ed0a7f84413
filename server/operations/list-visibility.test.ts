import { test } from "node:test";
import assert from "node:assert/strict";
import type { z } from "zod";
import type { Caller } from "../auth/caller.ts";
import { resolveApiKey } from "../auth/resolve.ts";
import { ApiError } from "../http/errors.ts";
import { getProjectOrThrow, getTodoOrThrow, todoAccessWhere } from "../services/access.ts";
import { suiteTestApp } from "../testing/app.ts";
import type { Json } from "../testing/http.ts";
import { operations } from "./index.ts";

// Issue 10 item 3: a list never shows what get…OrThrow would hide, and shows what it allows.
// Issue 13: a team membership is the second way in (the team's shared project), and an ex-member
// of the team is a stranger again.
// The list operations are derived from the registry (a GET whose response is an array or has
// `items`); each has a probe below, so a new list operation fails this test until it has one.

type Ref = { projectId?: string; todoId?: string; /** The role the list states, checked against getProjectOrThrow's. */ role?: string };

/** List operations whose items belong to the caller alone, not to a project (no project access to agree with). */
const NOT_PROJECT_DATA: Record<string, string> = {
  apiKey_list: "the caller's own API keys",
  edge_list: "the caller's own edges",
  device_list: "the caller's own devices",
  billing_getTransactions: "the caller's own ledger",
  billing_getInvoices: "the caller's own invoices",
  billing_getPaymentMethods: "the caller's own saved cards",
  admin_listCourses: "administrators only, no project data",
  admin_courseMailRuns: "administrators only, no project data",
  admin_courseMailRunFailures: "administrators only, no project data",
  admin_courseIdeas: "administrators only, no project data",
  admin_courseRegistrations: "administrators only, no project data",
  admin_log: "administrators only, no project data",
  admin_aiReports: "administrators only: a reported message's text, which its reporter sent for review (the reporter could read it)",
  course_listIdeas: "a course's public wall, no project data",
};

type World = { P: string; Q: string; todos: Record<string, string> };
type Probe = {
  path(w: World): string;
  /** The get…OrThrow of the object the path names; the list answers its error when it throws. */
  gate?(caller: Caller, w: World): Promise<unknown>;
  /** What each listed item refers to, each checked with getProjectOrThrow / getTodoOrThrow. */
  refs(body: Json, w: World): Ref[];
  /** Everything that should be listed when get…OrThrow allows it (checks the list is complete). */
  candidates?(w: World): Ref[];
};

const PROBES: Record<string, Probe> = {
  project_list: {
    path: () => "/projects",
    refs: (body) => body.map((p: Json) => ({ projectId: p.id, role: p.role })),
    candidates: (w) => [{ projectId: w.P }, { projectId: w.Q }],
  },
  project_groups: {
    path: (w) => `/projects/${w.P}/groups`,
    gate: (c, w) => getProjectOrThrow(c, w.P, "read"),
    refs: (body) => body.map((g: Json) => ({ projectId: g.projectId })),
  },
  project_cards: {
    path: (w) => `/projects/${w.P}/cards`,
    gate: (c, w) => getProjectOrThrow(c, w.P, "read"),
    refs: (body) => body.map((card: Json) => ({ projectId: card.projectId })),
  },
  project_getMembers: {
    path: (w) => `/projects/${w.P}/members`,
    gate: (c, w) => getProjectOrThrow(c, w.P, "read"),
    // The people of the project the path names: listed exactly when that project may be read.
    refs: (body, w) => body.items.map(() => ({ projectId: w.P })),
  },
  todo_list: {
    path: (w) => `/projects/${w.P}/todos`,
    gate: (c, w) => getProjectOrThrow(c, w.P, "read"),
    refs: (body) => body.items.map((t: Json) => ({ projectId: t.projectId, todoId: t.id })),
    candidates: (w) => Object.values(w.todos).map((todoId) => ({ todoId })),
  },
  todo_getMessages: {
    path: (w) => `/todos/${w.todos.byEditor}/messages`,
    gate: (c, w) => getTodoOrThrow(c, w.todos.byEditor!, "read"),
    refs: (body) => body.items.map((m: Json) => ({ todoId: m.todoId })),
  },
  note_list: {
    path: (w) => `/notes?projectId=${w.P}`,
    gate: (c, w) => getProjectOrThrow(c, w.P, "read"),
    refs: (body) => body.items.map((n: Json) => ({ projectId: n.projectId })),
  },
  todo_searchMessages: {
    path: () => "/messages/search?q=hello",
    refs: (body) => body.items.map((h: Json) => ({ projectId: h.projectId, todoId: h.todoId })),
    candidates: (w) => Object.values(w.todos).map((todoId) => ({ todoId })),
  },
  task_getPending: {
    path: () => "/tasks/pending",
    refs: (body) => body.map((t: Json) => ({ projectId: t.projectId, todoId: t.todoId })),
  },
};

function listOperations() {
  return operations.filter((op) => {
    if (op.method !== "GET") return false;
    const def = (op.response as z.ZodType)._zod.def as { type: string; shape?: Record<string, unknown> };
    return def.type === "array" || (def.type === "object" && def.shape !== undefined && "items" in def.shape);
  });
}

/** "ok", or the status get…OrThrow throws. */
async function outcome(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
    return "ok";
  } catch (err) {
    if (err instanceof ApiError) return String(err.status);
    throw err;
  }
}

const app = suiteTestApp({ setup });
let world: World;
const users: Record<string, { key: string; caller: Caller }> = {};

async function setup() {
  const p = app.rt.prisma;
  for (const name of ["owner", "editor", "viewer", "teammate", "stranger"]) {
    const u = await app.newUser();
    users[name] = { key: u.apiKey, caller: (await resolveApiKey(u.apiKey))! };
  }
  const id = (name: string) => users[name]!.caller.userId;
  const P = (await p.project.create({ data: { ownerId: id("owner"), name: "Shared" } })).id;
  const Q = (await p.project.create({ data: { ownerId: id("stranger"), name: "The stranger's own" } })).id;
  // The stranger was an editor of P and wrote in it; then the owner took the share back.
  await p.projectShare.createMany({
    data: [
      { projectId: P, userId: id("editor"), role: "editor" },
      { projectId: P, userId: id("viewer"), role: "viewer" },
      { projectId: P, userId: id("stranger"), role: "editor" },
    ],
  });
  const todos: Record<string, string> = {};
  const soon = new Date(Date.now() + 3_600_000);
  for (const [key, author] of [["byOwner", "owner"], ["byEditor", "editor"], ["byViewer", "viewer"], ["byStranger", "stranger"]] as const) {
    const todo = await p.todo.create({ data: { projectId: P, userId: id(author), content: `by ${author}`, status: "PROPOSED" } });
    await p.message.create({ data: { todoId: todo.id, role: "user", content: "later", state: "SCHEDULED", scheduledAt: soon } });
    await p.message.create({ data: { todoId: todo.id, role: "user", content: "hello" } });
    todos[key] = todo.id;
  }
  await p.todoGroup.create({ data: { projectId: P, slug: "inbox", name: "Inbox" } });
  await p.rendererCard.create({ data: { projectId: P, name: "Card", html: "<p>card</p>" } });
  await p.memoryNote.create({ data: { projectId: P, userId: id("owner"), content: "A project note" } });
  const own = await p.todo.create({ data: { projectId: Q, userId: id("stranger"), content: "own", status: "PROPOSED" } });
  await p.message.create({ data: { todoId: own.id, role: "user", content: "later", state: "SCHEDULED", scheduledAt: soon } });
  await p.todoGroup.create({ data: { projectId: Q, slug: "mine", name: "Mine" } });
  await p.projectShare.delete({ where: { projectId_userId: { projectId: P, userId: id("stranger") } } });
  // P is the shared project of the owner's team: the teammate gets in through it; the stranger
  // was a member too, and left.
  const team = await p.team.create({ data: { ownerId: id("owner"), name: "Team", projectId: P } });
  await p.teamMember.createMany({
    data: [
      { teamId: team.id, userId: id("owner"), role: "owner", via: "owner" },
      { teamId: team.id, userId: id("teammate"), role: "member" },
      { teamId: team.id, userId: id("stranger"), role: "admin" },
    ],
  });
  await p.teamMember.delete({ where: { userId: id("stranger") } });
  world = { P, Q, todos };
}

test("every list operation of the registry has a probe", () => {
  const ids = listOperations().map((op) => op.id);
  for (const known of ["project_list", "todo_list", "task_getPending", "project_groups", "project_cards"]) assert.ok(ids.includes(known), known);
  assert.deepEqual(ids.filter((i) => !(i in NOT_PROJECT_DATA)).sort(), Object.keys(PROBES).sort());
});

test("a list and its get…OrThrow agree for owner, editor, viewer, team member and stranger on every list operation", async () => {
  const seen: Record<string, string[]> = {};
  for (const op of listOperations()) {
    if (op.id in NOT_PROJECT_DATA) continue;
    const probe = PROBES[op.id]!;
    for (const [name, { key, caller }] of Object.entries(users)) {
      const where = `${op.id} as ${name}`;
      const res = await app.call("GET", probe.path(world), { key });
      const gate = probe.gate ? await outcome(() => probe.gate!(caller, world)) : "ok";
      if (gate !== "ok") {
        assert.equal(String(res.status), gate, `${where}: the list answers what get…OrThrow throws`);
        (seen[op.id] ??= []).push(`${name}:${res.status}`);
        continue;
      }
      assert.equal(res.status, 200, `${where}: ${res.text}`);
      const refs = probe.refs(res.json, world);
      for (const ref of refs) {
        if (ref.projectId) assert.equal(await outcome(() => getProjectOrThrow(caller, ref.projectId!, "read")), "ok", `${where} lists project ${ref.projectId}`);
        if (ref.role) assert.equal(ref.role, (await getProjectOrThrow(caller, ref.projectId!, "read")).role, `${where}: the role of ${ref.projectId}`);
        if (ref.todoId) assert.equal(await outcome(() => getTodoOrThrow(caller, ref.todoId!, "read")), "ok", `${where} lists todo ${ref.todoId}`);
      }
      for (const want of probe.candidates?.(world) ?? []) {
        const allowed = await outcome(() =>
          want.todoId ? getTodoOrThrow(caller, want.todoId, "read") : getProjectOrThrow(caller, want.projectId!, "read"),
        );
        const listed = refs.some((r) => (want.todoId ? r.todoId === want.todoId : r.projectId === want.projectId));
        assert.equal(listed, allowed === "ok", `${where}: ${JSON.stringify(want)} listed=${listed}, get…OrThrow=${allowed}`);
      }
      (seen[op.id] ??= []).push(`${name}:${refs.length}`);
    }
  }
  // The data makes each rule bite: members see P's rows, the stranger sees its own and no more.
  assert.deepEqual(seen, {
    project_list: ["owner:1", "editor:1", "viewer:1", "teammate:1", "stranger:1"],
    project_groups: ["owner:1", "editor:1", "viewer:1", "teammate:1", "stranger:404"],
    project_cards: ["owner:1", "editor:1", "viewer:1", "teammate:1", "stranger:404"],
    // The owner, the editor and viewer, the teammate: never the stranger who left share and team.
    project_getMembers: ["owner:4", "editor:4", "viewer:4", "teammate:4", "stranger:404"],
    todo_list: ["owner:4", "editor:4", "viewer:4", "teammate:4", "stranger:404"],
    todo_getMessages: ["owner:2", "editor:2", "viewer:2", "teammate:2", "stranger:404"],
    task_getPending: ["owner:2", "editor:2", "viewer:2", "teammate:0", "stranger:2"],
    note_list: ["owner:1", "editor:1", "viewer:1", "teammate:1", "stranger:404"],
    todo_searchMessages: ["owner:4", "editor:4", "viewer:4", "teammate:4", "stranger:0"],
  });
});

test("a team member writes the team's shared project (editor), and a share never lowers that", async () => {
  const { caller } = users.teammate!;
  assert.equal((await getProjectOrThrow(caller, world.P, "write")).role, "editor");
  assert.equal(await outcome(() => getProjectOrThrow(caller, world.P, "owner")), "403");
  await app.rt.prisma.projectShare.create({ data: { projectId: world.P, userId: caller.userId, role: "viewer" } });
  try {
    assert.equal((await getTodoOrThrow(caller, world.todos.byOwner!, "write")).role, "editor");
  } finally {
    await app.rt.prisma.projectShare.delete({ where: { projectId_userId: { projectId: world.P, userId: caller.userId } } });
  }
});

test("todoAccessWhere admits exactly the todos getTodoOrThrow allows, for every caller, need and token scope", async () => {
  const todoIds = [...Object.values(world.todos), (await app.rt.prisma.todo.findFirstOrThrow({ where: { projectId: world.Q } })).id];
  const callers: [string, Caller][] = Object.entries(users).map(([name, u]) => [name, u.caller]);
  callers.push(["owner scoped to byEditor", { ...users.owner!.caller, todoScope: world.todos.byEditor! }]);
  const seen = new Set<string>();
  for (const [name, caller] of callers) {
    for (const need of ["read", "write", "owner"] as const) {
      for (const todoId of todoIds) {
        const gate = await outcome(() => getTodoOrThrow(caller, todoId, need));
        const admitted = await app.rt.prisma.todo.count({ where: { id: todoId, AND: [todoAccessWhere(caller, need)] } });
        assert.equal(admitted, gate === "ok" ? 1 : 0, `${name}, ${need}, todo ${todoId}: getTodoOrThrow ${gate}, todoAccessWhere ${admitted}`);
        seen.add(gate);
      }
    }
  }
  assert.deepEqual([...seen].sort(), ["403", "404", "ok"]);
});

test("task_getPending no longer lists a todo in a project the caller has left", async () => {
  const { key, caller } = users.stranger!;
  const res = await app.call("GET", "/tasks/pending", { key });
  assert.equal(res.status, 200, res.text);
  assert.ok(res.json.every((t: Json) => t.projectId === world.Q), JSON.stringify(res.json));
  assert.equal(await outcome(() => getTodoOrThrow(caller, world.todos.byStranger!, "read")), "404");
});
