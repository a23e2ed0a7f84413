import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server as HttpServer } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import type { LanguageModelV3CallOptions, LanguageModelV3Prompt } from "@ai-sdk/provider";
import { io as connectClient, type Socket as ClientSocket } from "socket.io-client";
import { ShellRunner } from "../../../cli/shell-runner.ts";
import { SHELL_EXIT, type ShellAck } from "../../../lib/shell-protocol.ts";
import type { Caller } from "../../auth/caller.ts";
import { newDeviceToken, sha256 } from "../../auth/tokens.ts";
import { ApiError } from "../../http/errors.ts";
import { attachSockets } from "../../realtime/sockets.ts";
import { decideShell } from "../../services/todos/shell.ts";
import { updateStatus } from "../../services/todos/status.ts";
import { listenLocal } from "../../testing/listen.ts";
import { createTestUser, createWaitingTodo, suiteTestRuntime } from "../../testing/runtime.ts";
import type { AgentRunner } from "../runner.ts";
import { scriptedProvider, type ScriptedStep } from "../testing/scripted-model.ts";
import { TurnRunner } from "../turn-runner.ts";

// The agent's `shell` tool end to end in one process: scripted models (the SDK's mock) propose
// commands, a real Socket.IO server carries them to a device connection (a dst_ token) on which
// the bridge's own runner (cli/shell-runner.ts) runs them as child processes.

const t = suiteTestRuntime({ setup, teardown });
let original: AgentRunner;
let http: HttpServer;
let closeSockets: () => Promise<void>;
let origin: string;
let work: string;
const clients: ClientSocket[] = [];
const runners: ShellRunner[] = [];

async function setup() {
  original = t.runtime.agent;
  http = createServer();
  const attached = await attachSockets(http, t.bus, { appUrl: "http://app.test" });
  t.runtime.io = attached.io;
  closeSockets = attached.close;
  origin = await listenLocal(http);
  work = await mkdtemp(path.join(tmpdir(), "todo-shell-"));
}

async function teardown() {
  for (const r of runners) r.stopAll();
  for (const c of clients) c.disconnect();
  t.runtime.agent = original;
  await closeSockets();
  await new Promise((r) => http.close(r));
  t.runtime.io = undefined;
  await rm(work, { recursive: true, force: true });
}

const lastUserText = (prompt: LanguageModelV3Prompt) => {
  const m = [...prompt].reverse().find((p) => p.role === "user");
  return m && Array.isArray(m.content) ? m.content.map((c) => (c.type === "text" ? c.text : "")).join("") : "";
};

/** The model proposes `command` in `dir` (unless it has a shell result, which it repeats back). */
function proposer(command: string, dir: string | (() => string), seen?: LanguageModelV3CallOptions[], extra: Record<string, unknown> = {}) {
  return scriptedProvider(
    (options): ScriptedStep => {
      const last = lastUserText(options.prompt);
      if (/shell command you proposed/.test(last)) return { text: [`Seen: ${last}`] };
      if (options.prompt.some((m) => m.role === "tool")) return { text: ["The tool said no."] };
      return { toolCalls: [{ toolName: "shell", input: { command, path: typeof dir === "string" ? dir : dir(), ...extra } }] };
    },
    { tools: true, ...(seen ? { seen } : {}) },
  );
}

function use(provider: ReturnType<typeof scriptedProvider>): TurnRunner {
  const runner = new TurnRunner({ providers: { fake: provider }, defaultProvider: "fake", maxConcurrent: 8, maxPerUser: 8, flushMs: 0 });
  t.runtime.agent = runner;
  return runner;
}

async function owner() {
  const user = await createTestUser(t.prisma);
  const project = await t.prisma.project.create({ data: { ownerId: user.id, name: "Shell" } });
  const caller: Caller = { credential: "apiKey", userId: user.id, email: user.email, name: user.name, isAdmin: false, todoScope: null };
  return { user, project, caller };
}

/** A device of the user's, online through a real connection with its dst_ token, running commands in `roots` (its bridge's --path). */
async function device(userId: string, opts: { paths?: string[]; roots?: string[]; online?: boolean; name?: string } = {}) {
  const row = await t.prisma.device.create({ data: { userId, name: opts.name ?? "box", secretHash: "x", workspacePaths: opts.paths ?? [work] } });
  if (opts.online === false) return { row, socket: undefined, heard: [] as string[] };
  const token = newDeviceToken();
  await t.prisma.deviceToken.create({ data: { userId, deviceId: row.id, tokenHash: sha256(token), expiresAt: new Date(Date.now() + 3_600_000) } });
  const socket = connectClient(origin, { path: "/socket.io", transports: ["websocket"], auth: { token }, reconnection: false });
  clients.push(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("connect_error", reject);
  });
  const heard: string[] = [];
  socket.onAny((event: string) => heard.push(event));
  const runner = new ShellRunner(opts.roots ?? opts.paths ?? [work], () => socket, () => undefined);
  runner.attach(socket);
  runners.push(runner);
  return { row, socket, heard };
}

/** Runs the todo's turns until it leaves RUNNING, or until it waits for something (`until`). */
async function settle(runner: TurnRunner, todoId: string, until: (w: { waitingFor?: string[] }, status: string) => boolean = (_w, s) => s !== "RUNNING") {
  for (;;) {
    await runner.idle();
    const now = await t.prisma.todo.findUniqueOrThrow({ where: { id: todoId } });
    if (until(now.workflow as { waitingFor?: string[] }, now.status)) return now;
    await new Promise((r) => setTimeout(r, 10));
  }
}

const waiting = (w: { waitingFor?: string[] }) => (w.waitingFor ?? []).some((x) => x.startsWith("shell:"));
const shellBlock = (todoId: string) => t.prisma.block.findFirstOrThrow({ where: { todoId, type: "shell" } });
const contentOf = (b: { content: unknown }) => b.content as { state: string; command: string; path: string; deviceName: string; output?: string; exitCode?: number | null; error?: string };

test("not offered without an online device of the owner with workspace paths; offered with one", async () => {
  const { user, project } = await owner();
  await device(user.id, { online: false });
  await device(user.id, { paths: [] });
  // Another user's online device is not the owner's.
  const stranger = await createTestUser(t.prisma);
  await device(stranger.id);
  const seen: LanguageModelV3CallOptions[] = [];
  const runner = use(scriptedProvider([{ text: ["ok"] }], { tools: true, seen }));
  const todo = await createWaitingTodo(t.prisma, { projectId: project.id, userId: user.id }, "anything");
  runner.start(todo.id);
  await settle(runner, todo.id);
  assert.ok(!seen[0]!.tools?.some((tool) => tool.name === "shell"), "not offered");

  const box = await device(user.id, { name: "build-box" });
  await t.prisma.message.create({ data: { todoId: todo.id, role: "user", content: "again", state: "PENDING" } });
  await t.prisma.todo.update({ where: { id: todo.id }, data: { status: "RUNNING" } });
  runner.start(todo.id);
  await settle(runner, todo.id);
  const offered = seen[1]!.tools?.find((tool) => tool.name === "shell");
  assert.ok(offered, "offered once the device is online");
  // The model is told where it may run.
  assert.match(JSON.stringify(offered), new RegExp(box.row.id));
  assert.match(JSON.stringify(offered), /build-box/);
});

test("a path outside the device's workspace paths is refused with a clear tool error; nothing waits, the turn goes on", async () => {
  const { user, project } = await owner();
  await device(user.id);
  for (const bad of ["/etc", `${work}/../elsewhere`, "relative/dir"]) {
    const runner = use(proposer("cat /etc/passwd", bad));
    const todo = await createWaitingTodo(t.prisma, { projectId: project.id, userId: user.id }, "read secrets");
    runner.start(todo.id);
    const done = await settle(runner, todo.id);
    assert.equal(done.status, "READY", bad);
    const reply = await t.prisma.message.findFirstOrThrow({ where: { todoId: todo.id, role: "assistant" }, include: { blocks: true } });
    assert.deepEqual(reply.blocks.map((b) => b.type), ["tool_call"], "no approval block");
    const step = reply.blocks[0]!.content as { state: string; output: { error: string } };
    assert.equal(step.state, "error");
    assert.match(step.output.error, /outside|not inside|must not contain|absolute/, bad);
    assert.equal(reply.content, "The tool said no.");
  }
});

test("approve: the device runs it in the path, the output streams into the block and comes back to the agent, which continues", async () => {
  const { user, project, caller } = await owner();
  const box = await device(user.id, { name: "laptop" });
  const seen: LanguageModelV3CallOptions[] = [];
  const runner = use(proposer("echo hello; pwd; echo oops >&2; exit 3", work, seen));
  const todo = await createWaitingTodo(t.prisma, { projectId: project.id, userId: user.id }, "say hello");
  runner.start(todo.id);
  const waits = await settle(runner, todo.id, waiting);
  // The turn ended with the proposal; the todo waits RUNNING, holding no turn.
  assert.equal(waits.status, "RUNNING");
  assert.equal(waits.leaseOwner, null);
  const block = await shellBlock(todo.id);
  assert.equal(block.actionable, true);
  assert.deepEqual(
    [contentOf(block).state, contentOf(block).command, contentOf(block).path, contentOf(block).deviceName],
    ["pending", "echo hello; pwd; echo oops >&2; exit 3", work, "laptop"],
  );
  assert.ok(!box.heard.includes("shell:run"), "nothing reaches the device before approval");
  const seenCalls = seen.length;

  // Only someone who may write the todo decides: a stranger gets 404, and nothing runs.
  const stranger = await createTestUser(t.prisma);
  await assert.rejects(decideShell({ ...caller, userId: stranger.id }, todo.id, block.id, true), (e) => e instanceof ApiError && e.status === 404);

  const approved = await decideShell(caller, todo.id, block.id, true);
  assert.ok(["running", "done"].includes((approved.content as { state: string }).state));
  await assert.rejects(decideShell(caller, todo.id, block.id, false), (e) => e instanceof ApiError && e.status === 409);
  const done = await settle(runner, todo.id);
  assert.equal(done.status, "READY");
  const ran = contentOf(await shellBlock(todo.id));
  assert.equal(ran.state, "done");
  assert.equal(ran.exitCode, 3);
  assert.match(ran.output!, /^hello\n/);
  assert.ok(ran.output!.includes(`${await import("node:fs/promises").then((f) => f.realpath(work))}\n`), "ran in the path");
  assert.ok(ran.output!.includes("oops"), "stderr too");
  // The result is the agent's next input, and its answer used it.
  const messages = await t.prisma.message.findMany({ where: { todoId: todo.id }, orderBy: { seq: "asc" } });
  const result = messages.find((m) => m.role === "system")!;
  assert.match(result.content, /exit code 3/);
  assert.match(result.content, /hello/);
  assert.match(lastUserText(seen[seenCalls]!.prompt), /hello/);
  assert.match(messages.at(-1)!.content, /^Seen: Result of the shell command you proposed/);
  // The proposing step shows the result too.
  const step = await t.prisma.block.findFirstOrThrow({ where: { todoId: todo.id, type: "tool_call" } });
  assert.match(JSON.stringify(step.content), /exit code 3/);
  assert.equal((done.workflow as { waitingFor?: unknown }).waitingFor, undefined);
});

test("deny: nothing runs, the agent is told it was denied and continues", async () => {
  const { user, project, caller } = await owner();
  const box = await device(user.id);
  const marker = path.join(work, `ran-${Date.now()}`);
  const runner = use(proposer(`touch ${marker}`, work));
  const todo = await createWaitingTodo(t.prisma, { projectId: project.id, userId: user.id }, "touch it");
  runner.start(todo.id);
  await settle(runner, todo.id, waiting);
  const block = await shellBlock(todo.id);
  await decideShell(caller, todo.id, block.id, false);
  const done = await settle(runner, todo.id);
  assert.equal(done.status, "READY");
  assert.equal(contentOf(await shellBlock(todo.id)).state, "denied");
  assert.equal(existsSync(marker), false);
  assert.ok(!box.heard.includes("shell:run"));
  const last = await t.prisma.message.findFirstOrThrow({ where: { todoId: todo.id, role: "assistant" }, orderBy: { seq: "desc" } });
  assert.match(last.content, /denied/);
});

test("cancel while the approval waits: the proposal ends unrun and the todo is CANCELLED", async () => {
  const { user, project, caller } = await owner();
  await device(user.id);
  const runner = use(proposer("echo never", work));
  const todo = await createWaitingTodo(t.prisma, { projectId: project.id, userId: user.id }, "wait");
  runner.start(todo.id);
  await settle(runner, todo.id, waiting);
  await updateStatus(caller, todo.id, "cancel");
  await runner.idle();
  const block = await shellBlock(todo.id);
  assert.equal(contentOf(block).state, "cancelled");
  assert.equal((await t.prisma.todo.findUniqueOrThrow({ where: { id: todo.id } })).status, "CANCELLED");
  await assert.rejects(decideShell(caller, todo.id, block.id, true), (e) => e instanceof ApiError && e.status === 409);
});

test("the bridge refuses a cwd outside its own paths whatever the server says; other devices never hear the command nor may end it", async () => {
  const { user, project, caller } = await owner();
  const elsewhere = await mkdtemp(path.join(tmpdir(), "todo-shell-other-"));
  // The server thinks `work` is allowed; this bridge was started with another --path.
  const box = await device(user.id, { paths: [work], roots: [elsewhere] });
  const other = await device(user.id, { paths: [], name: "other" });
  const runner = use(proposer("echo hi", work));
  const todo = await createWaitingTodo(t.prisma, { projectId: project.id, userId: user.id }, "try");
  runner.start(todo.id);
  await settle(runner, todo.id, waiting);
  const block = await shellBlock(todo.id);
  // Another device of the same user cannot end the run.
  const refused = (await other.socket!.emitWithAck(SHELL_EXIT, { runId: block.id, exitCode: 0, signal: null, timedOut: false, truncated: false })) as ShellAck;
  assert.equal(refused.ok, false);
  await decideShell(caller, todo.id, block.id, true);
  await settle(runner, todo.id);
  const c = contentOf(await shellBlock(todo.id));
  assert.equal(c.state, "failed");
  assert.match(c.error!, /not an existing directory inside this bridge's workspace paths/);
  assert.ok(box.heard.includes("shell:run"));
  assert.ok(!other.heard.includes("shell:run"), "only the proposal's own device hears it");
  await rm(elsewhere, { recursive: true, force: true });
});

test("the device going offline mid-run fails the command and the agent goes on", async () => {
  const { user, project, caller } = await owner();
  const box = await device(user.id);
  const runner = use(proposer("echo started; sleep 30", work));
  const todo = await createWaitingTodo(t.prisma, { projectId: project.id, userId: user.id }, "long");
  runner.start(todo.id);
  await settle(runner, todo.id, waiting);
  const block = await shellBlock(todo.id);
  await decideShell(caller, todo.id, block.id, true);
  while (!contentOf(await shellBlock(todo.id)).output?.includes("started")) await new Promise((r) => setTimeout(r, 20));
  box.socket!.disconnect();
  const done = await settle(runner, todo.id);
  assert.equal(done.status, "READY");
  const c = contentOf(await shellBlock(todo.id));
  assert.equal(c.state, "failed");
  assert.match(c.error!, /went offline/);
  const result = await t.prisma.message.findFirstOrThrow({ where: { todoId: todo.id, role: "system" } });
  assert.match(result.content, /went offline/);
});

test("the bridge's limits: a command that runs too long is stopped (timedOut), one that writes too much is cut off (truncated)", async () => {
  const { user, project, caller } = await owner();
  await device(user.id);
  for (const [command, extra, check] of [
    ["echo before; sleep 20", { timeoutSeconds: 1 }, (c: Record<string, unknown>) => c.timedOut === true && c.exitCode === null && c.output === "before\n"],
    ["yes tick", {}, (c: Record<string, unknown>) => c.truncated === true && (c.output as string).length === 64 * 1024 && (c.output as string).startsWith("tick\ntick\n")],
  ] as const) {
    const runner = use(proposer(command, work, undefined, extra));
    const todo = await createWaitingTodo(t.prisma, { projectId: project.id, userId: user.id }, command);
    runner.start(todo.id);
    await settle(runner, todo.id, waiting);
    const block = await shellBlock(todo.id);
    await decideShell(caller, todo.id, block.id, true);
    const done = await settle(runner, todo.id);
    assert.equal(done.status, "READY", command);
    const c = (await shellBlock(todo.id)).content as Record<string, unknown>;
    assert.ok(["done", "failed"].includes(c.state as string), command);
    assert.ok(check(c), `${command}: ${JSON.stringify({ ...c, output: String(c.output).slice(0, 50) })}`);
  }
});
