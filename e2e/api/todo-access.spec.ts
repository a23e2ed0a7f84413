import { expect, test, type APIRequestContext, type APIResponse, type TestInfo } from "@playwright/test";
import { bearer, createUser, type TestUser } from "../support/users";
import {
  MISSING_ID,
  addMessage,
  createProject,
  createTodo,
  expectError,
  getTodo,
  h,
  inOneHour,
  listTodos,
  okJson,
  shareProject,
  waitForReply,
  type Message,
  type Todo,
} from "../support/todos";

// Who may do what with a todo (SPEC §5.3, docs/api.md "Access"): the owner and editor sharees
// read and write, viewer sharees only read (writes 403), strangers get the 404 of a missing
// todo, and a request without a credential is 401.
test.describe.configure({ timeout: 180_000 });

/** A todo with a checklist block and a scheduled message, so every todo operation has a target. */
type Fixture = { projectId: string; todo: Todo; scheduled: Message; blockId: string; subTodoId: string };

async function fixture(owner: TestUser, projectId: string): Promise<Fixture> {
  const t = await createTodo(owner, projectId, { content: "Agenda:\n- Budget\n- Hiring", startProcessing: true });
  const ready = await waitForReply(owner, t.id);
  const block = ready.blocks.find((b) => b.actionable);
  expect(block, JSON.stringify(ready.blocks)).toBeTruthy();
  const scheduled = await addMessage(owner, t.id, { content: "Follow up", scheduledAt: inOneHour() });
  const sub = await createTodo(owner, projectId, "Sub-task");
  return { projectId, todo: await getTodo(owner, t.id), scheduled, blockId: block!.blockId, subTodoId: sub.id };
}

type Op = { name: string; write: boolean; call: (ctx: APIRequestContext, headers: Record<string, string>, todoId: string, projectId: string) => Promise<APIResponse> };

function operations(f: Fixture): Op[] {
  const m = f.scheduled.messageId;
  return [
    { name: "todo_get", write: false, call: (c, hd, id) => c.get(`/api/v1/todos/${id}`, { headers: hd }) },
    { name: "todo_get messageLimit", write: false, call: (c, hd, id) => c.get(`/api/v1/todos/${id}`, { headers: hd, params: { messageLimit: 1 } }) },
    { name: "todo_getMessages", write: false, call: (c, hd, id) => c.get(`/api/v1/todos/${id}/messages`, { headers: hd }) },
    { name: "todo_getWorkflow", write: false, call: (c, hd, id) => c.get(`/api/v1/todos/${id}/workflow`, { headers: hd }) },
    { name: "todo_list", write: false, call: (c, hd, _id, pid) => c.get(`/api/v1/projects/${pid}/todos`, { headers: hd }) },
    { name: "todo_update", write: true, call: (c, hd, id) => c.put(`/api/v1/todos/${id}`, { headers: hd, data: { content: "Changed" } }) },
    { name: "todo_addMessage", write: true, call: (c, hd, id) => c.post(`/api/v1/todos/${id}/messages`, { headers: hd, data: { content: "Hi", startProcessing: false } }) },
    { name: "todo_updateMessage", write: true, call: (c, hd, id) => c.patch(`/api/v1/todos/${id}/messages/${m}`, { headers: hd, data: { content: "Edited" } }) },
    { name: "todo_toggleBlockChecked", write: true, call: (c, hd, id) => c.post(`/api/v1/todos/${id}/blocks/${f.blockId}/checked`, { headers: hd, data: {} }) },
    { name: "todo_linkBlockSubTodo", write: true, call: (c, hd, id) => c.post(`/api/v1/todos/${id}/blocks/${f.blockId}/subtodo`, { headers: hd, data: { subTodoIds: [f.subTodoId] } }) },
    { name: "todo_updateAgentMapping", write: true, call: (c, hd, id) => c.post(`/api/v1/todos/${id}/todo-agent-mapping`, { headers: hd, data: { agentSettings: { model: "gpt-4.1-nano" } } }) },
    { name: "todo_updateWorkflow", write: true, call: (c, hd, id) => c.put(`/api/v1/todos/${id}/workflow`, { headers: hd, data: { contextSummaryUsed: true } }) },
    { name: "project_createTodo", write: true, call: (c, hd, _id, pid) => c.post(`/api/v1/projects/${pid}/todos`, { headers: hd, data: { content: "Sneaky" } }) },
    { name: "project_startFromTemplate", write: true, call: (c, hd, _id, pid) => c.post(`/api/v1/projects/${pid}/todos/from-template`, { headers: hd, data: { content: "Sneaky", propose: true } }) },
    // Last: these start a turn or remove the todo.
    { name: "todo_updateAndStart", write: true, call: (c, hd, id) => c.post(`/api/v1/todos/${id}/update-start`, { headers: hd, data: { messageId: m, content: "Now" } }) },
    { name: "todo_updateStatus", write: true, call: (c, hd, id) => c.patch(`/api/v1/todos/${id}/status`, { headers: hd, data: { action: "cancel" } }) },
    { name: "todo_delete", write: true, call: (c, hd, id) => c.delete(`/api/v1/todos/${id}`, { headers: hd, data: { todoId: id } }) },
  ];
}

/** The owner's view of everything a write could have changed. */
async function snapshot(owner: TestUser, f: Fixture) {
  return { todo: await getTodo(owner, f.todo.id), list: (await listTodos(owner, f.projectId)).items.map((x) => x.id).sort() };
}

async function setup(info: TestInfo) {
  const [owner, editor, viewer, stranger] = await Promise.all(["owner", "editor", "viewer", "stranger"].map((tag) => createUser(info, tag)));
  const p = await createProject(owner, "Shared");
  await shareProject(owner, p.id, editor!.email, "editor");
  await shareProject(owner, p.id, viewer!.email, "viewer");
  return { owner: owner!, editor: editor!, viewer: viewer!, stranger: stranger!, projectId: p.id };
}

test("a viewer sharee reads every todo operation but each write is 403 and changes nothing", async ({}, info) => {
  const { owner, viewer, projectId } = await setup(info);
  const f = await fixture(owner, projectId);
  const before = await snapshot(owner, f);

  for (const op of operations(f)) {
    const res = await op.call(viewer.session, h(viewer), f.todo.id, projectId);
    if (op.write) await expectError(res, 403, "FORBIDDEN");
    else expect(res.status(), `${op.name}: ${await res.text()}`).toBe(200);
  }
  const seen = await okJson<Todo>(await viewer.session.get(`/api/v1/todos/${f.todo.id}`, { headers: h(viewer) }));
  expect(seen).toEqual(before.todo);
  expect(await snapshot(owner, f)).toEqual(before);
});

test("a stranger gets exactly the 404 of a missing todo or project for every operation, and changes nothing", async ({}, info) => {
  const { owner, stranger, projectId } = await setup(info);
  const f = await fixture(owner, projectId);
  const before = await snapshot(owner, f);

  for (const op of operations(f)) {
    const real = await op.call(stranger.session, h(stranger), f.todo.id, projectId);
    const missing = await op.call(stranger.session, h(stranger), MISSING_ID, MISSING_ID);
    const body = await expectError(real, 404, "NOT_FOUND");
    await expectError(missing, 404, "NOT_FOUND");
    expect(body, op.name).toEqual(await missing.json());
  }
  expect(await snapshot(owner, f)).toEqual(before);
});

test("without a credential every todo operation is 401", async ({ request }, info) => {
  const { owner, projectId } = await setup(info);
  const f = await fixture(owner, projectId);
  const before = await snapshot(owner, f);
  for (const op of operations(f)) {
    await expectError(await op.call(request, {}, f.todo.id, projectId), 401, "UNAUTHORIZED");
    await expectError(await op.call(request, bearer("tsk_" + "Q".repeat(40)), f.todo.id, projectId), 401, "UNAUTHORIZED");
  }
  expect(await snapshot(owner, f)).toEqual(before);
});

for (const role of ["owner", "editor"] as const) {
  test(`the ${role} reads and writes with every todo operation`, async ({}, info) => {
    const users = await setup(info);
    const actor = users[role];
    const f = await fixture(users.owner, users.projectId);

    for (const op of operations(f)) {
      const res = await op.call(actor.session, h(actor), f.todo.id, users.projectId);
      expect(res.status(), `${op.name}: ${await res.text()}`).toBe(200);
      if (op.name === "todo_update") expect((await getTodo(users.owner, f.todo.id)).content).toBe("Changed");
      if (op.name === "todo_toggleBlockChecked") expect((await getTodo(users.owner, f.todo.id)).blocks.find((b) => b.blockId === f.blockId)?.checked).toBe(true);
      if (op.name === "todo_linkBlockSubTodo") expect((await getTodo(users.owner, f.todo.id)).blocks.find((b) => b.blockId === f.blockId)?.subTodoIds).toEqual([f.subTodoId]);
      if (op.name === "todo_updateMessage") expect((await getTodo(users.owner, f.todo.id)).messages.find((x) => x.messageId === f.scheduled.messageId)?.content).toBe("Edited");
      if (op.name === "todo_updateStatus") expect((await getTodo(users.owner, f.todo.id)).status).toBe("CANCELLED");
    }
    await expectError(await users.owner.session.get(`/api/v1/todos/${f.todo.id}`, { headers: h(users.owner) }), 404, "NOT_FOUND");
    // Two todos were created (one proposed) by the actor, besides the sub-task.
    const left = (await listTodos(users.owner, users.projectId)).items;
    expect(left.map((x) => x.content).sort()).toEqual(["Sneaky", "Sneaky", "Sub-task"]);
    expect(left.find((x) => x.status === "PROPOSED")?.content).toBe("Sneaky");
  });
}

test("sharing is per project: a viewer of one project is a stranger to another of the same owner", async ({}, info) => {
  const { owner, viewer, projectId } = await setup(info);
  const other = await createProject(owner, "Not shared");
  const hidden = await createTodo(owner, other.id, "Hidden");
  const visible = await createTodo(owner, projectId, "Visible");
  expect((await okJson<Todo>(await viewer.session.get(`/api/v1/todos/${visible.id}`, { headers: h(viewer) }))).content).toBe("Visible");
  const res = await viewer.session.get(`/api/v1/todos/${hidden.id}`, { headers: h(viewer) });
  const missing = await viewer.session.get(`/api/v1/todos/${MISSING_ID}`, { headers: h(viewer) });
  expect(await expectError(res, 404, "NOT_FOUND")).toEqual(await missing.json());
  await expectError(await viewer.session.put(`/api/v1/todos/${hidden.id}`, { headers: h(viewer), data: { content: "x" } }), 404, "NOT_FOUND");
  expect((await getTodo(owner, hidden.id)).content).toBe("Hidden");
  expect((await listTodos(viewer, projectId)).items.map((x) => x.id)).toEqual([visible.id]);
  await expectError(await viewer.session.get(`/api/v1/projects/${other.id}/todos`, { headers: h(viewer) }), 404, "NOT_FOUND");
});
