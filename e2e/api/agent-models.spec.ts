import { expect, test, type APIResponse } from "@playwright/test";
import pg from "pg";
import { createUser } from "../support/users";
import { addMessage, createProject, createTodo, expectBadRequest, getTodo, h, listTodos, waitForStatus } from "../support/todos";

// Issue 9 A12: agent settings name a model of the server's allow-list (AGENT_MODELS; the e2e
// servers allow gpt-4o-mini, gpt-4.1-mini, gpt-4.1-nano and o4-mini) and at most AGENT_MAX_TOKENS
// (4096 by default), wherever they are written; a turn on a model the list no longer holds ends in ERROR.
const ALLOWED = "gpt-4o-mini, gpt-4.1-mini, gpt-4.1-nano, o4-mini";
const EXPENSIVE = { provider: "openai", model: "gpt-4-turbo" };
const GREEDY = { provider: "openai", model: "gpt-4o-mini", maxTokens: 200_000 };

test("every write of agent settings refuses a model outside the allow-list and maxTokens over the cap (400), and changes nothing", async ({}, info) => {
  const u = await createUser(info);
  const p = await createProject(u);
  const t = await createTodo(u, p.id, "Keep my settings");
  const auth = { headers: h(u) };
  const writes: [string, (settings: Record<string, unknown>) => Promise<APIResponse>, string][] = [
    ["user settings", (s) => u.session.put("/api/v1/settings/user", { ...auth, data: { defaultAgent: s } }), "body.defaultAgent"],
    ["project settings", (s) => u.session.put(`/api/v1/settings/projects/${p.id}`, { ...auth, data: { agentDefaults: s } }), "body.agentDefaults"],
    ["project agent mapping", (s) => u.session.post("/api/v1/users/project-agent-mapping", { ...auth, data: { projectId: p.id, agentSettings: s } }), "body.agentSettings"],
    ["todo agent mapping", (s) => u.session.post(`/api/v1/todos/${t.id}/todo-agent-mapping`, { ...auth, data: { agentSettings: s } }), "body.agentSettings"],
    ["new todo", (s) => u.session.post(`/api/v1/projects/${p.id}/todos`, { ...auth, data: { content: "Costly", startProcessing: true, agentSettings: s } }), "body.agentSettings"],
    ["template spec", (s) => u.session.post(`/api/v1/projects/${p.id}/todos/from-template`, { ...auth, data: { spec: { content: "Costly", agentSettings: s } } }), "body.spec.agentSettings"],
    ["template override", (s) => u.session.post(`/api/v1/projects/${p.id}/todos/from-template`, { ...auth, data: { spec: { content: "Fine" }, overrides: { agentSettings: s } } }), "body.overrides.agentSettings"],
  ];
  const state = async () => ({
    user: await (await u.session.get("/api/v1/settings/user", auth)).json(),
    project: await (await u.session.get(`/api/v1/settings/projects/${p.id}`, auth)).json(),
    todo: (await getTodo(u, t.id)).agentSettings,
    todos: (await listTodos(u, p.id)).items.length,
  });
  const before = await state();
  for (const [name, write, at] of writes) {
    const model = await expectBadRequest(await write(EXPENSIVE), `${at}.model`);
    expect(model.message, name).toContain(`must be one of the models this server allows: ${ALLOWED}`);
    const tokens = await expectBadRequest(await write(GREEDY), `${at}.maxTokens`);
    expect(tokens.data!.issues!.find((i) => i.path === `${at}.maxTokens`)?.message, name).toBe("must be at most 4096 on this server");
  }
  expect(await state()).toEqual(before);

  // Allowed settings are written as before.
  for (const [name, write] of writes) expect((await write({ provider: "local", model: "gpt-4.1-nano", maxTokens: 4096 })).status(), name).toBe(200);
  expect((await getTodo(u, t.id)).agentSettings).toEqual({ provider: "local", model: "gpt-4.1-nano", maxTokens: 4096 });
});

test("a turn on a model the allow-list no longer holds ends in ERROR with the reason", async ({}, info) => {
  // Settings written before AGENT_MODELS changed: put into the database directly, which only the
  // PostgreSQL project can do (PGlite is in-process).
  const databaseUrl = info.project.metadata?.databaseUrl as string | undefined;
  test.skip(!databaseUrl, "needs direct database access (the PostgreSQL project)");
  const u = await createUser(info);
  const p = await createProject(u);
  const t = await createTodo(u, p.id, { content: "Written when gpt-4-turbo was allowed", agentSettings: { provider: "openai", model: "gpt-4o-mini" } });
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`UPDATE "Todo" SET "agentSettings" = $1 WHERE "id" = $2`, [JSON.stringify(EXPENSIVE), t.id]);
  } finally {
    await client.end();
  }
  await addMessage(u, t.id, { content: "Answer me with the expensive model" });
  const failed = await waitForStatus(u, t.id, "ERROR");
  const reply = failed.messages.filter((m) => m.role === "assistant").at(-1)!;
  expect(reply.state).toBe("ERROR");
  expect(reply.content).toBe("");
  expect((failed.metadata as { error?: string }).error).toContain(`Model "gpt-4-turbo" is not allowed on this server (allowed: ${ALLOWED})`);
});
