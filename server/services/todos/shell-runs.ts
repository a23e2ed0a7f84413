// Shell approval blocks (the agent's `shell` tool, server/agent/tools/shell.ts) at the level the
// todo lifecycle needs: closing a todo ends its proposals and stops a command still running on its
// device. Imports nothing of the lifecycle (which calls in here); the rest is ./shell.ts.
import type { Server } from "socket.io";
import { SHELL_CANCEL, SHELL_SETTLED, type ShellBlockContent, type ShellBlockState } from "../../../lib/shell-protocol.ts";
import type { Prisma } from "../../db/generated/client.ts";
import { lockRow } from "../../db/lock.ts";
import { db, runtime } from "../../runtime.ts";
import { publishTodo } from "./events.ts";
import { asObject, toBlock } from "./serialize.ts";

/** The room only a device's own connections (its dst_ tokens) join. */
export const deviceRoom = (deviceId: string) => `credential:device:${deviceId}` as const;

export const shellContent = (content: unknown) => asObject(content) as ShellBlockContent;

/**
 * Changes one approval block under its row lock when `change` returns the next content (given the
 * current one); publishes block.updated. Resolves the block's new content, or null when unchanged.
 */
export async function changeShellBlock(blockId: string, change: (c: ShellBlockContent, block: { todoId: string }) => ShellBlockContent | null): Promise<{ content: ShellBlockContent; todoId: string } | null> {
  const done = await db().$transaction(async (tx) => {
    if (!(await lockRow(tx, "Block", blockId))) return null;
    const row = await tx.block.findUniqueOrThrow({ where: { id: blockId }, select: { type: true, content: true, todoId: true } });
    if (row.type !== "shell") return null;
    const next = change(shellContent(row.content), row);
    if (!next) return null;
    const block = await tx.block.update({ where: { id: blockId }, data: { content: next as Prisma.InputJsonValue }, include: { todo: { select: { projectId: true, isPublic: true } } } });
    return { block, content: next };
  });
  if (!done) return null;
  publishTodo("block.updated", { id: done.block.todoId, ...done.block.todo }, toBlock(done.block));
  return { content: done.content, todoId: done.block.todoId };
}

/** Asks the device to stop a run (its connections in any process, through the adapter). */
export function cancelOnDevice(io: Server | undefined, deviceId: string, runId: string): void {
  io?.to(deviceRoom(deviceId)).emit(SHELL_CANCEL, { runId });
}

/** Commands running for the todos `where` selects: read before those todos are deleted (their blocks go with them), stopped after. */
export async function runningShellRuns(where: Prisma.TodoWhereInput): Promise<{ deviceId: string; runId: string }[]> {
  const blocks = await db().block.findMany({ where: { type: "shell", todo: where, content: { path: ["state"], equals: "running" } }, select: { id: true, content: true } });
  return blocks.map((b) => ({ deviceId: shellContent(b.content).deviceId, runId: b.id }));
}

/** Stops runs found by runningShellRuns on their devices (at once, not at their next output). */
export function stopShellRuns(runs: { deviceId: string; runId: string }[]): void {
  for (const r of runs) cancelOnDevice(runtime().io, r.deviceId, r.runId);
}

/** The todo was closed (cancelled, completed): its proposals end unrun, a running command is stopped. */
export async function closeShellRuns(todoId: string): Promise<void> {
  const open = await db().block.findMany({ where: { todoId, type: "shell" }, select: { id: true, content: true } });
  for (const b of open) {
    if (SHELL_SETTLED.has(shellContent(b.content).state)) continue;
    const changed = await changeShellBlock(b.id, (c) => (SHELL_SETTLED.has(c.state) ? null : { ...c, state: "cancelled" satisfies ShellBlockState, endedAt: Date.now() }));
    if (changed?.content.startedAt) cancelOnDevice(runtime().io, changed.content.deviceId, b.id);
  }
}
