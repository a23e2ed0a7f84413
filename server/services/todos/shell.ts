// The agent's shell commands after the proposal (server/agent/tools/shell.ts made the approval
// block, type `shell`, and the todo waits for it): the user approves or denies it
// (todo_decideShell), the server sends it to the device over the device's own Socket.IO
// connection (any process, through the adapter), the bridge streams the output back and ends the
// run; the result goes to the todo through the lifecycle's waiting (./sub-todos.ts), which starts
// its next turn. The protocol: lib/shell-protocol.ts.
import { SHELL_MAX_OUTPUT_BYTES, SHELL_RUN, SHELL_SETTLED, type ShellAck, type ShellBlockContent, type TShellExit, type TShellOutput } from "../../../lib/shell-protocol.ts";
import type { TBlock } from "../../../lib/schemas/todos.ts";
import type { Caller } from "../../auth/caller.ts";
import type { Prisma } from "../../db/generated/client.ts";
import { ApiError, notFound } from "../../http/errors.ts";
import { log } from "../../log.ts";
import { onlineDeviceIds } from "../../realtime/presence.ts";
import { db, runtime } from "../../runtime.ts";
import { getTodoOrThrow } from "../access.ts";
import { publishTodo } from "./events.ts";
import { waitSettled } from "./lifecycle.ts";
import { asObject, toBlock } from "./serialize.ts";
import { cancelOnDevice, changeShellBlock, deviceRoom, shellContent } from "./shell-runs.ts";
import { shellResultText } from "./sub-todos.ts";

/** How long the device has to confirm it took a command. */
const DISPATCH_ACK_MS = 10_000;

/** todo_decideShell: approve (the command runs on the device) or deny a pending shell command of the agent's. */
export async function decideShell(caller: Caller, todoId: string, blockId: string, approve: boolean): Promise<TBlock> {
  const { todo } = await getTodoOrThrow(caller, todoId, "write");
  const row = await db().block.findFirst({ where: { id: blockId, todoId } });
  if (!row) throw notFound("Block");
  if (row.type !== "shell") throw new ApiError("CONFLICT", "This block is not a shell command to approve or deny");
  const proposed = shellContent(row.content);
  // Whether the device is there is asked before the lock (it asks every process's sockets).
  const online = approve && proposed.state === "pending" ? (await onlineDeviceIds(runtime().io, todo.userId)).has(proposed.deviceId) : false;
  const now = Date.now();
  const changed = await changeShellBlock(blockId, (c) => {
    if (c.state !== "pending") return null;
    if (!approve) return { ...c, state: "denied", decidedBy: caller.userId, endedAt: now };
    if (!online) return { ...c, state: "failed", decidedBy: caller.userId, error: `device "${c.deviceName}" is offline`, endedAt: now };
    return { ...c, state: "running", decidedBy: caller.userId, startedAt: now, output: "" };
  });
  if (!changed) throw new ApiError("CONFLICT", `This command was ${proposed.state === "pending" ? "decided meanwhile" : `already ${proposed.state}`}`);
  if (changed.content.state === "running") {
    const refused = await dispatch(changed.content, blockId);
    if (refused) {
      cancelOnDevice(runtime().io, changed.content.deviceId, blockId);
      await changeShellBlock(blockId, (c) => (c.state === "running" ? { ...c, state: "failed", error: refused, endedAt: Date.now() } : null));
    }
  }
  const after = await db().block.findUniqueOrThrow({ where: { id: blockId } });
  if (SHELL_SETTLED.has(shellContent(after.content).state)) await settleRun(todoId, blockId);
  return toBlock(after);
}

/** Sends the run to the device's connections (in whichever process they are); the reason it was not taken, or null. */
async function dispatch(c: ShellBlockContent, runId: string): Promise<string | null> {
  const io = runtime().io;
  if (!io) return "this server process serves no device connections";
  try {
    const acks = (await io
      .to(deviceRoom(c.deviceId))
      .timeout(DISPATCH_ACK_MS)
      .emitWithAck(SHELL_RUN, { runId, command: c.command, cwd: c.path, timeoutMs: c.timeoutMs, maxOutputBytes: SHELL_MAX_OUTPUT_BYTES })) as ShellAck[];
    if (acks.length === 0) return `device "${c.deviceName}" is offline`;
    if (acks.some((a) => a?.ok === true)) return null;
    const refusal = acks.find((a): a is { ok: false; error: string } => a?.ok === false && typeof a.error === "string");
    return `the device refused it: ${refusal?.error.slice(0, 500) ?? "no reason given"}`;
  } catch {
    return `device "${c.deviceName}" did not answer`;
  }
}

/** `shell:output` from a device connection: appended (bounded) to its own running command only. */
export async function receiveShellOutput(deviceId: string, msg: TShellOutput): Promise<boolean> {
  if (!msg.text) return true;
  const changed = await changeShellBlock(msg.runId, (c) => {
    if (c.deviceId !== deviceId || c.state !== "running") return null;
    const so = c.output ?? "";
    const room = SHELL_MAX_OUTPUT_BYTES - so.length;
    if (room <= 0) return c.truncated ? null : { ...c, truncated: true };
    return { ...c, output: so + msg.text.slice(0, room), ...(msg.text.length > room ? { truncated: true } : {}) };
  });
  return changed !== null;
}

/** `shell:exit` from a device connection: its own running command ends; the todo gets the result. */
export async function receiveShellExit(deviceId: string, msg: TShellExit): Promise<boolean> {
  const changed = await changeShellBlock(msg.runId, (c) => {
    if (c.deviceId !== deviceId || c.state !== "running") return null;
    const failed = msg.exitCode === null && !msg.timedOut && !!msg.error;
    return {
      ...c,
      state: failed ? "failed" : "done",
      exitCode: msg.exitCode,
      signal: msg.signal,
      timedOut: msg.timedOut,
      truncated: !!(c.truncated || msg.truncated),
      ...(msg.error ? { error: msg.error } : {}),
      endedAt: Date.now(),
    };
  });
  if (!changed) return false;
  await settleRun(changed.todoId, msg.runId);
  return true;
}

/** The device went offline (its last connection closed, or its process died): its running commands fail. */
export async function failRunsOfDevice(deviceId: string, userId: string): Promise<void> {
  // Its runs are on its user's todos that wait (RUNNING, or PAUSED meanwhile): found by the todos' user index, not a scan of every block.
  const rows = await db().block.findMany({
    where: { type: "shell", todo: { userId, status: { in: ["RUNNING", "PAUSED"] } }, content: { path: ["deviceId"], equals: deviceId } },
    select: { id: true, todoId: true, content: true },
  });
  for (const b of rows) {
    if (shellContent(b.content).state !== "running") continue;
    const changed = await changeShellBlock(b.id, (c) => (c.state === "running" ? { ...c, state: "failed", error: `device "${c.deviceName}" went offline while the command ran`, endedAt: Date.now() } : null));
    if (changed) await settleRun(b.todoId, b.id);
  }
}

/** A run ended: the proposing call's step shows the result, and the todo takes it (its next turn). */
async function settleRun(todoId: string, blockId: string): Promise<void> {
  try {
    const block = await db().block.findUnique({ where: { id: blockId }, select: { content: true } });
    const c = block ? shellContent(block.content) : undefined;
    if (c?.stepBlockId) {
      const step = await db().block.findUnique({ where: { id: c.stepBlockId }, select: { content: true } });
      if (step) {
        const result = { state: c.state, exitCode: c.exitCode ?? null, ...(c.error ? { error: c.error } : {}), result: shellResultText(c) };
        const content = { ...asObject(step.content), output: { ...asObject(asObject(step.content).output), ...result } };
        const updated = await db().block.update({ where: { id: c.stepBlockId }, data: { content: content as Prisma.InputJsonValue }, include: { todo: { select: { projectId: true, isPublic: true } } } });
        publishTodo("block.updated", { id: todoId, ...updated.todo }, toBlock(updated));
      }
    }
  } catch (err) {
    log.warn("could not show a shell result on its step", { todoId, error: err instanceof Error ? err.message : String(err) });
  }
  await waitSettled(todoId);
}
