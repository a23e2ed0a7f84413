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

/**
 * Inside the lifecycle's transaction on the (locked) parent: once every sub-todo it waits for has
 * settled, their results become a pending message of the parent (role system) and its next turn
 * starts (`fx.startTurn`). Safe to call any number of times. Called by lifecycle.subTodoSettled.
 */
export async function handResultsToParent(
  tx: Prisma.TransactionClient,
  parent: { id: string; status: string; workflow: unknown },
  fx: { startTurn: boolean },
): Promise<void> {
  const w = asObject(parent.workflow);
  const { waitingFor } = linksOf(w);
  if (!waitingFor?.length) return;
  const children = await tx.todo.findMany({
    where: { id: { in: waitingFor } },
    select: { id: true, content: true, status: true, messages: { where: { role: "assistant" }, orderBy: { seq: "desc" }, take: 1, select: { content: true } } },
  });
  if (children.some((c) => !SETTLED.has(c.status as TTodoStatus))) return;
  const byId = new Map(children.map((c) => [c.id, c]));
  const lines = waitingFor.map((id, i) => {
    const c = byId.get(id);
    if (!c) return `${i + 1}. (sub-todo ${id} was deleted)`;
    return `${i + 1}. "${clip(c.content, 200)}" (${c.status}, todo ${c.id}):\n${clip(c.messages[0]?.content ?? "", 4000) || "(no reply)"}`;
  });
  const { waitingFor: _w, ...rest } = w;
  await tx.message.create({ data: { todoId: parent.id, role: "system", content: `Results of the sub-todos you started:\n\n${lines.join("\n\n")}`, state: "PENDING" } });
  await tx.todo.update({ where: { id: parent.id }, data: { workflow: { ...rest, state: "idle" } as Prisma.InputJsonValue } });
  // The parent stayed RUNNING while it waited: its next turn takes the results.
  if (parent.status === "RUNNING") fx.startTurn = true;
}
