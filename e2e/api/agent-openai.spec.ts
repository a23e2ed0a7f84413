import { expect, test } from "@playwright/test";
import { createUser } from "../support/users";
import { connect } from "../support/sockets";
import { createProject, getTodo, h, recordEvents, subscribeTodo, waitForStatus } from "../support/todos";

// Todos set to the openai provider go through the real server to an OpenAI-compatible endpoint
// (the stand-in on E2E_PORT_BASE+20, :3120 by default, that playwright.config.ts starts), streaming like the built-in agent.

test("a todo on the openai provider streams its reply over Socket.IO and ends READY", async ({}, info) => {
  const u = await createUser(info);
  const p = await createProject(u);
  const res = await u.session.post(`/api/v1/projects/${p.id}/todos`, {
    headers: h(u),
    data: { content: "Draft the launch email for Friday", agentSettings: { provider: "openai", model: "gpt-4o-mini" } },
  });
  expect(res.status()).toBe(200);
  const todo = (await res.json()) as { id: string };
  const socket = await connect(u.baseURL, { token: u.apiKey });
  try {
    expect((await subscribeTodo(u, todo.id, socket.id!)).status()).toBe(200);
    const rec = recordEvents(socket);
    expect((await u.session.post(`/api/v1/todos/${todo.id}/messages`, { headers: h(u), data: { content: "Make it short and friendly please" } })).status()).toBe(200);
    const done = await waitForStatus(u, todo.id, "READY");
    const reply = done.messages.filter((m) => m.role === "assistant").at(-1)!;
    // The stand-in echoes the user's last message.
    expect(reply.content).toBe("Make it short and friendly please");
    expect(reply.usage).toMatchObject({ provider: "openai", model: "gpt-4o-mini" });
    await expect.poll(() => rec.ofType("message.delta", todo.id).length).toBeGreaterThan(1);
    expect(rec.ofType("message.delta", todo.id).map((e) => (e.data as { delta: string }).delta).join("")).toBe(reply.content);
    rec.stop();
  } finally {
    socket.disconnect();
  }
});

test("an endpoint failure shows as ERROR with the reason; a new message starts again", async ({}, info) => {
  const u = await createUser(info);
  const p = await createProject(u);
  const todo = (await (await u.session.post(`/api/v1/projects/${p.id}/todos`, {
    headers: h(u),
    data: { content: "Please [fail] now", startProcessing: true, agentSettings: { provider: "openai" } },
  })).json()) as { id: string };
  const failed = await waitForStatus(u, todo.id, "ERROR");
  expect(failed.metadata.error).toMatch(/^Model endpoint answered 500: The stand-in was asked to fail/);
  expect((await u.session.post(`/api/v1/todos/${todo.id}/messages`, { headers: h(u), data: { content: "try again" } })).status()).toBe(200);
  await waitForStatus(u, todo.id, "READY");
  expect((await getTodo(u, todo.id)).messages.at(-1)).toMatchObject({ role: "assistant", content: "try again", state: "DONE" });
});

test("an endpoint that goes silent mid-reply: the turn ends in ERROR after the idle timeout, the partial reply kept", async ({}, info) => {
  const u = await createUser(info);
  const p = await createProject(u);
  const todo = (await (await u.session.post(`/api/v1/projects/${p.id}/todos`, {
    headers: h(u),
    data: { content: "Take your time [silent]", startProcessing: true, agentSettings: { provider: "openai" } },
  })).json()) as { id: string };
  const failed = await waitForStatus(u, todo.id, "ERROR");
  // AGENT_IDLE_TIMEOUT_MS is 1500 on the e2e servers (playwright.config.ts).
  expect(failed.metadata.error).toBe("Model endpoint sent nothing for 1.5 s (AGENT_IDLE_TIMEOUT_MS); the turn was stopped");
  expect(failed.messages.at(-1)).toMatchObject({ role: "assistant", content: "Thinking about it", state: "ERROR" });
});
