import type { Caller } from "../../auth/caller.ts";
import { ApiError, notFound } from "../../http/errors.ts";
import { db } from "../../runtime.ts";
import { getTodoOrThrow } from "../access.ts";
import { publishTodo } from "./events.ts";
import { toBlock } from "./serialize.ts";
import { lockRow } from "../../db/lock.ts";

async function blockOf(todoId: string, blockId: string) {
  const block = await db().block.findFirst({ where: { id: blockId, todoId } });
  if (!block) throw notFound("Block");
  return block;
}

/** Appends sub-agent todos to a block, keeping order and never duplicating; all must be readable. */
export async function linkSubTodos(caller: Caller, todoId: string, blockId: string, subTodoIds: string[]): Promise<null> {
  const { todo } = await getTodoOrThrow(caller, todoId, "write");
  await blockOf(todoId, blockId);
  const wanted = [...new Set(subTodoIds)];
  // Each linked todo must be one the caller can read: checked before anything is written.
  for (const id of wanted) await getTodoOrThrow({ ...caller, todoScope: null }, id, "read");
  const block = await db().$transaction(async (tx) => {
    await lockRow(tx, "Block", blockId);
    const current = await tx.block.findUniqueOrThrow({ where: { id: blockId }, select: { subTodoIds: true } });
    const merged = [...current.subTodoIds, ...wanted.filter((id) => !current.subTodoIds.includes(id))];
    return tx.block.update({ where: { id: blockId }, data: { subTodoIds: merged } });
  });
  publishTodo("block.updated", todo, toBlock(block));
  return null;
}

/** Flips (or sets) the checked state of an actionable block. */
export async function toggleChecked(caller: Caller, todoId: string, blockId: string, checked?: boolean): Promise<null> {
  const { todo } = await getTodoOrThrow(caller, todoId, "write");
  const existing = await blockOf(todoId, blockId);
  if (!existing.actionable) throw new ApiError("CONFLICT", "This block is not actionable");
  if (existing.type === "shell") throw new ApiError("CONFLICT", "A shell command is approved or denied (todo_decideShell), not checked");
  const block = await db().$transaction(async (tx) => {
    await lockRow(tx, "Block", blockId);
    const current = await tx.block.findUniqueOrThrow({ where: { id: blockId }, select: { checked: true } });
    return tx.block.update({ where: { id: blockId }, data: { checked: checked ?? !current.checked } });
  });
  publishTodo("block.updated", todo, toBlock(block));
  return null;
}

/** Changes the text of an actionable (checklist) block. */
export async function setBlockText(caller: Caller, todoId: string, blockId: string, text: string): Promise<null> {
  const { todo } = await getTodoOrThrow(caller, todoId, "write");
  const existing = await blockOf(todoId, blockId);
  if (!existing.actionable || existing.type === "shell") throw new ApiError("CONFLICT", "This block is not actionable");
  const content = { ...(typeof existing.content === "object" && existing.content && !Array.isArray(existing.content) ? existing.content : {}), text };
  const block = await db().block.update({ where: { id: blockId }, data: { content } });
  publishTodo("block.updated", todo, toBlock(block));
  return null;
}
