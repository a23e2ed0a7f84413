import { expect, test } from "@playwright/test";
import { bearer, createUser } from "../support/users";
import { collect, connect, nextEvent } from "../support/sockets";
import { createProject, createTodo, expectError } from "../support/todos";

// Issue 9 A11 through the real server: a todo-scoped (mayfly) token acts on its todo only. The
// whole registry is walked in server/operations/todo-scope.test.ts; this checks the wiring
// (resolver, pipeline, Socket.IO) end to end.

test("a todo-scoped token: its own todo over HTTP and Socket.IO, 403 for everything else, no account events", async ({ request, baseURL }, info) => {
  const u = await createUser(info, "mayfly");
  const p = await createProject(u, "Scoped");
  const mine = await createTodo(u, p.id, { content: "mine", startProcessing: false });
  const other = await createTodo(u, p.id, { content: "other", startProcessing: false });
  const issued = await request.post("/api/v1/cli/mayfly/token", { headers: bearer(u.apiKey), data: { todoId: mine.id } });
  expect(issued.status()).toBe(200);
  const auth = bearer(((await issued.json()) as { apiToken: string }).apiToken);

  expect((await request.get(`/dst/v1/todos/${mine.id}`, { headers: auth })).status()).toBe(200);
  await expectError(await request.get(`/dst/v1/todos/${other.id}`, { headers: auth }), 403, "FORBIDDEN");
  await expectError(await request.post(`/dst/v1/todos/${other.id}/messages`, { headers: auth, data: { content: "x" } }), 403, "FORBIDDEN");
  await expectError(await request.post("/dst/v1/report-ai-output", { headers: auth, data: { todoId: other.id, reason: "other" } }), 403, "FORBIDDEN");
  for (const path of ["/dst/v1/projects", `/dst/v1/projects/${p.id}`, "/dst/v1/users/profile", "/dst/v1/settings/user", "/dst/v1/tasks/pending", `/dst/v1/projects/${p.id}/todos`])
    await expectError(await request.get(path, { headers: auth }), 403, "FORBIDDEN");
  // Project management is not served to device tokens at all.
  expect((await request.delete(`/dst/v1/projects/${p.id}`, { headers: auth, data: { projectId: p.id } })).status()).toBe(405);
  expect((await request.get(`/api/v1/projects/${p.id}`, { headers: bearer(u.apiKey) })).status()).toBe(200);

  const scoped = await connect(baseURL!, { token: auth.authorization.slice("Bearer ".length) });
  const owner = await connect(baseURL!, { token: u.apiKey });
  try {
    // Account-wide events go to the user's room, which a scoped connection is not in.
    const heard = collect(scoped, "project.updated", 3000);
    const created = nextEvent<{ data: { action?: string } }>(owner, "project.updated", (e) => e.data.action === "created");
    await createProject(u, "Another");
    await created;
    expect(await heard).toEqual([]);
    await expectError(await request.post(`/dst/v1/projects/${p.id}/subscribe`, { headers: { ...auth, "x-socket-id": scoped.id! } }), 403, "FORBIDDEN");

    // Its own todo: subscribe and hear what happens there.
    expect((await request.post(`/dst/v1/todos/${mine.id}/subscribe`, { headers: { ...auth, "x-socket-id": scoped.id! } })).status()).toBe(200);
    const message = nextEvent<{ todoId?: string }>(scoped, "message.created", (e) => e.todoId === mine.id);
    expect((await request.post(`/api/v1/todos/${mine.id}/messages`, { headers: bearer(u.apiKey), data: { content: "hello bridge", startProcessing: false } })).status()).toBe(200);
    await message;
  } finally {
    scoped.disconnect();
    owner.disconnect();
  }
});
