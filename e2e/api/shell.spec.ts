import { expect, test } from "@playwright/test";
import { startBridge } from "../support/bridge";
import { createUser } from "../support/users";
import { TURN_TIMEOUT, addMessage, createProject, createTodo, expectError, getTodo, h, okJson, waitForStatus, type Block, type Todo } from "../support/todos";

// The agent's shell tool end to end: the real `todo bridge` (a child process) online with a
// workspace path, a turn of the OpenAI-compatible stand-in that proposes `echo hello` there
// ("[shell <dir>]"), approval through the API, the command run by the bridge, and its output back
// in the conversation. On the PostgreSQL project the bridge's connection and the requests land on
// different processes: the bridge on the second, the decision on the first (the Socket.IO adapter
// carries the command there and the output back).
test.describe.configure({ timeout: 120_000 });

const shellBlock = (todo: Todo) => todo.blocks.find((b) => b.type === "shell");
type ShellContent = { state: string; command: string; path: string; deviceId: string; deviceName: string; output?: string; exitCode?: number | null; error?: string };

test("a shell command proposed by the agent runs on the bridge only after approval, and its output comes back into the conversation", async ({ baseURL }, info) => {
  const u = await createUser(info, "shell");
  const stranger = await createUser(info, "shell-stranger");
  const peerUrl = info.project.metadata?.peerUrl as string | undefined;
  const firstProcess = peerUrl ? `http://localhost:${Number(new URL(peerUrl).port) - 1}` : baseURL!;
  const bridge = await startBridge(peerUrl ?? baseURL!, u.apiKey, "shell-box");
  try {
    await expect.poll(async () => (await okJson<{ id: string; online: boolean; workspacePaths: string[] }[]>(await u.session.get("/api/v1/devices", { headers: h(u) })))[0]).toMatchObject({ id: bridge.deviceId, online: true, workspacePaths: [bridge.workspace] });
    const p = await createProject(u, "Shell");
    const t = await createTodo(u, p.id, { content: "Greet from my machine", agentSettings: { provider: "openai" } });
    await addMessage(u, t.id, { content: `Say hello from the machine [shell ${bridge.workspace}]` });

    // The proposal: an actionable shell block; the todo waits RUNNING for the decision.
    let proposed: Block | undefined;
    await expect.poll(async () => (proposed = shellBlock(await getTodo(u, t.id)))?.type, { timeout: TURN_TIMEOUT }).toBe("shell");
    const c = proposed!.content as ShellContent;
    expect(c).toMatchObject({ state: "pending", command: "echo hello", path: bridge.workspace, deviceId: bridge.deviceId, deviceName: "shell-box" });
    expect(proposed!.actionable).toBe(true);
    const waiting = await getTodo(u, t.id);
    expect(waiting.status).toBe("RUNNING");
    expect(bridge.output()).not.toContain("echo hello");

    const decide = (who: typeof u, approve: boolean) => who.session.post(`${firstProcess}/api/v1/todos/${t.id}/blocks/${proposed!.blockId}/decision`, { headers: h(who), data: { approve } });
    // Nobody else decides, nor does checking the block run or hide it.
    await expectError(await decide(stranger, true), 404, "NOT_FOUND");
    await expectError(await u.session.post(`/api/v1/todos/${t.id}/blocks/${proposed!.blockId}/checked`, { headers: h(u), data: {} }), 409, "CONFLICT");
    await expectError(await u.session.post(`/api/v1/todos/${t.id}/blocks/${proposed!.blockId}/decision`, { headers: h(u), data: { approve: "yes" } }), 400, "BAD_REQUEST");

    const approved = await okJson<Block>(await decide(u, true));
    expect(approved.blockId).toBe(proposed!.blockId);
    expect(["running", "done"]).toContain((approved.content as ShellContent).state);
    await expectError(await decide(u, false), 409, "CONFLICT");

    const done = await waitForStatus(u, t.id, "READY", 60_000);
    const ran = shellBlock(done)!.content as ShellContent;
    expect(ran).toMatchObject({ state: "done", exitCode: 0, output: "hello\n" });
    // The output is the agent's next input (a system message), and the stand-in's reply echoes it.
    const result = done.messages.find((m) => m.role === "system")!;
    expect(result.content).toContain("Result of the shell command you proposed (`echo hello`");
    expect(result.content).toContain("exit code 0");
    expect(result.content).toContain("hello");
    const last = done.messages.at(-1)!;
    expect(last.role).toBe("assistant");
    expect(last.content).toMatch(/exit code 0\s+output:\s+hello/);
    expect(bridge.output()).toContain("Running (approved in the chat)");
    // The stranger never reads the command or its output.
    expect((await stranger.session.get(`/api/v1/todos/${t.id}`, { headers: h(stranger) })).status()).toBe(404);
  } finally {
    expect(await bridge.stop()).toBe(0);
  }
});

test("deleting a todo stops the command it runs on the bridge at once, not at its next output", async ({ baseURL }, info) => {
  const u = await createUser(info, "shell-delete");
  const peerUrl = info.project.metadata?.peerUrl as string | undefined;
  const firstProcess = peerUrl ? `http://localhost:${Number(new URL(peerUrl).port) - 1}` : baseURL!;
  const bridge = await startBridge(peerUrl ?? baseURL!, u.apiKey, "quiet-box");
  try {
    await expect.poll(async () => (await okJson<{ online: boolean }[]>(await u.session.get("/api/v1/devices", { headers: h(u) })))[0]?.online).toBe(true);
    const p = await createProject(u, "Shell delete");
    const t = await createTodo(u, p.id, { content: "Wait on my machine", agentSettings: { provider: "openai" } });
    // The stand-in proposes `sleep 60`: a command that writes nothing until it ends.
    await addMessage(u, t.id, { content: `Wait a minute [shell-long ${bridge.workspace}]` });
    let proposed: Block | undefined;
    await expect.poll(async () => (proposed = shellBlock(await getTodo(u, t.id)))?.type, { timeout: TURN_TIMEOUT }).toBe("shell");
    expect((proposed!.content as ShellContent).command).toBe("sleep 60");
    await okJson<Block>(await u.session.post(`${firstProcess}/api/v1/todos/${t.id}/blocks/${proposed!.blockId}/decision`, { headers: h(u), data: { approve: true } }));
    await expect.poll(async () => (shellBlock(await getTodo(u, t.id))!.content as ShellContent).state).toBe("running");
    expect(bridge.output()).toContain("Running (approved in the chat)");

    const deleted = await u.session.delete(`${firstProcess}/api/v1/todos/${t.id}`, { headers: h(u) });
    expect(deleted.ok()).toBe(true);
    // Killed by the cancel the deletion sends (a minute before it would end by itself).
    await expect.poll(() => bridge.output(), { timeout: 15_000 }).toContain("Finished (signal SIGKILL): sleep 60");
    expect((await u.session.get(`/api/v1/todos/${t.id}`, { headers: h(u) })).status()).toBe(404);
  } finally {
    expect(await bridge.stop()).toBe(0);
  }
});
