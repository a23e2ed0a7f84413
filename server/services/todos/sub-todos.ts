// Sub-agent todos (the agent's spawn_subtodos tool, SPEC.md §4.3 "blocks linked to sub-agent
// todos"): a parent waits for its children without holding a turn, a child that settles tells its
// parent, and the parent's last child to settle hands the parent their results as a pending
// message, which starts its next turn. Cancelling a parent cancels its children.
//
// The links live in the workflows (internal state, not user-writable): the parent's `subTodos` (all
// it started) and `waitingFor` (those it still waits for), the child's `parentTodoId` and
// `spawnDepth`.
import type { TTodoStatus } from "../../../lib/schemas/todos.ts";
import type { Prisma } from "../../db/generated/client.ts";
import { SHELL_SETTLED, type ShellBlockContent, type ShellBlockState } from "../../../lib/shell-protocol.ts";
import { asObject } from "./serialize.ts";
// (No import of ./lifecycle.ts: the lifecycle calls in here, inside its own transactions.)

/** A sub-todo in one of these has done what it will do for its parent. */
export const SETTLED: ReadonlySet<TTodoStatus> = new Set(["READY", "DONE", "ERROR", "CANCELLED"]);

export type SubTodoLinks = { parentTodoId?: string; spawnDepth?: number; subTodos?: string[]; waitingFor?: string[] };

export const linksOf = (workflow: unknown): SubTodoLinks => {
  const w = asObject(workflow);
  const ids = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : undefined);
  return {
    parentTodoId: typeof w.parentTodoId === "string" ? w.parentTodoId : undefined,
    spawnDepth: typeof w.spawnDepth === "number" ? w.spawnDepth : undefined,
    subTodos: ids(w.subTodos),
    waitingFor: ids(w.waitingFor),
  };
};

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** A `workflow.waitingFor` entry for a shell approval block (server/agent/tools/shell.ts); the others are sub-todo ids. */
export const SHELL_WAIT_PREFIX = "shell:";

/**
 * Inside the lifecycle's transaction on the (locked) parent: once everything it waits for has
 * settled (its sub-todos, and the shell commands it proposed: approval blocks, `shell:<blockId>`),
 * their results become a pending message of the parent (role system) and its next turn starts
 * (`fx.startTurn`). Safe to call any number of times. Called by lifecycle.waitSettled.
 */
export async function handResultsToParent(
  tx: Prisma.TransactionClient,
  parent: { id: string; status: string; workflow: unknown },
  fx: { startTurn: boolean },
): Promise<void> {
  const w = asObject(parent.workflow);
  const { waitingFor } = linksOf(w);
  if (!waitingFor?.length) return;
  const todoIds = waitingFor.filter((id) => !id.startsWith(SHELL_WAIT_PREFIX));
  const blockIds = waitingFor.filter((id) => id.startsWith(SHELL_WAIT_PREFIX)).map((id) => id.slice(SHELL_WAIT_PREFIX.length));
  const children = todoIds.length
    ? await tx.todo.findMany({
        where: { id: { in: todoIds } },
        select: { id: true, content: true, status: true, messages: { where: { role: "assistant" }, orderBy: { seq: "desc" }, take: 1, select: { content: true } } },
      })
    : [];
  if (children.some((c) => !SETTLED.has(c.status as TTodoStatus))) return;
  const blocks = blockIds.length ? await tx.block.findMany({ where: { id: { in: blockIds }, todoId: parent.id, type: "shell" }, select: { id: true, content: true } }) : [];
  if (blocks.some((b) => !SHELL_SETTLED.has(asObject(b.content).state as ShellBlockState))) return;
  const sections: string[] = [];
  if (todoIds.length) {
    const byId = new Map(children.map((c) => [c.id, c]));
    const lines = todoIds.map((id, i) => {
      const c = byId.get(id);
      if (!c) return `${i + 1}. (sub-todo ${id} was deleted)`;
      return `${i + 1}. "${clip(c.content, 200)}" (${c.status}, todo ${c.id}):\n${clip(c.messages[0]?.content ?? "", 4000) || "(no reply)"}`;
    });
    sections.push(`Results of the sub-todos you started:\n\n${lines.join("\n\n")}`);
  }
  const byBlock = new Map(blocks.map((b) => [b.id, asObject(b.content) as ShellBlockContent]));
  for (const id of blockIds) sections.push(shellResultText(byBlock.get(id)));
  const { waitingFor: _w, ...rest } = w;
  await tx.message.create({ data: { todoId: parent.id, role: "system", content: sections.join("\n\n"), state: "PENDING" } });
  await tx.todo.update({ where: { id: parent.id }, data: { workflow: { ...rest, state: "idle" } as Prisma.InputJsonValue } });
  // The parent stayed RUNNING while it waited: its next turn takes the results.
  if (parent.status === "RUNNING") fx.startTurn = true;
}

/** Output handed to the model: its end when it is long (where errors and summaries are). */
export const SHELL_RESULT_CHARS = 8000;

/** What the agent is told of a shell command it proposed (the result of its `shell` call). */
export function shellResultText(c: ShellBlockContent | undefined): string {
  if (!c) return "The shell command you proposed is gone (its approval was deleted); it did not run.";
  const what = `\`${clip(c.command, 500)}\` in ${c.path} on device "${c.deviceName}"`;
  const output = c.output ?? "";
  const shown = output.length > SHELL_RESULT_CHARS ? `…(${output.length - SHELL_RESULT_CHARS} characters before this left out)\n${output.slice(-SHELL_RESULT_CHARS)}` : output;
  const body = `${shown ? `output${c.truncated ? " (cut off: the command wrote more than the bridge keeps)" : ""}:\n${shown}` : "no output"}`;
  switch (c.state) {
    case "denied":
      return `The user denied the shell command you proposed (${what}); it did not run.`;
    case "cancelled":
      return `The shell command you proposed (${what}) ${c.startedAt ? "was stopped" : "did not run"}: the todo was closed first.${c.startedAt ? `\n${body}` : ""}`;
    case "failed":
      return `The shell command you proposed (${what}) failed: ${c.error ?? "unknown reason"}.${c.startedAt ? `\n${body}` : ""}`;
    default: {
      const end = c.timedOut ? `it ran out of time (${Math.round(c.timeoutMs / 1000)} s) and was stopped` : c.exitCode !== null && c.exitCode !== undefined ? `exit code ${c.exitCode}` : `ended by signal ${c.signal ?? "?"}`;
      return `Result of the shell command you proposed (${what}), approved by the user: ${end}\n${body}`;
    }
  }
}
