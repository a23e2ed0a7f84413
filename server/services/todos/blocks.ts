import type { Caller } from "../../auth/caller.ts";
import { ApiError, badRequest, notFound } from "../../http/errors.ts";
import { db } from "../../runtime.ts";
import { getTodoOrThrow } from "../access.ts";
import { publishTodo } from "./events.ts";
import { toBlock, type BlockRow } from "./serialize.ts";
import { lockRow } from "../../db/lock.ts";
import { newRowId } from "../../db/ids.ts";
import { Prisma } from "../../db/generated/client.ts";

/** Every column of Block, as raw statements return it (BlockRow). */
const BLOCK_COLUMNS = Prisma.sql`"id", "todoId", "messageId", "position", "type", "content", "actionable", "checked", "subTodoIds", "createdAt", "updatedAt"`;

/** A block to add to a reply (no sub-todos linked yet, not checked). */
export type NewBlock = { todoId: string; messageId: string; position: number; type: string; actionable: boolean; content: unknown };

/**
 * The statement that inserts `blocks` (on its own, or in a WITH clause: the end of an agent turn
 * sends it with the reply's own write), and the rows it writes. Ids, timestamps and defaults are
 * set here, so nothing has to be read back; jsonb may order an object's keys differently when the
 * content is read again. Raw SQL rather than `createManyAndReturn`: Prisma never caches the query
 * plan of a createMany and compiles a new one on every call (about 1.3 ms of CPU), and this runs
 * at the end of every agent turn that adds blocks. Timestamps are written as Prisma writes them:
 * UTC, milliseconds. Null when there are no blocks.
 */
export function blockInsert(blocks: readonly NewBlock[], now = new Date()): { sql: Prisma.Sql; rows: BlockRow[] } | null {
  if (!blocks.length) return null;
  const rows: BlockRow[] = blocks.map((b) => ({ ...b, id: newRowId(), content: b.content ?? {}, checked: false, subTodoIds: [], createdAt: now, updatedAt: now }));
  const col = <K extends keyof BlockRow>(key: K) => rows.map((b) => b[key]);
  const sql = Prisma.sql`
    INSERT INTO "Block" ("id", "todoId", "messageId", "position", "type", "content", "actionable", "checked", "subTodoIds", "createdAt", "updatedAt")
    SELECT v."id", v."todoId", v."messageId", v."position", v."type", v."content"::jsonb, v."actionable", false, '{}'::text[], ${now}::timestamp(3), ${now}::timestamp(3)
    FROM unnest(${col("id")}::text[], ${col("todoId")}::text[], ${col("messageId")}::text[], ${col("position")}::int[], ${col("type")}::text[],
                ${rows.map((b) => JSON.stringify(b.content))}::text[], ${col("actionable")}::boolean[])
      AS v("id", "todoId", "messageId", "position", "type", "content", "actionable")`;
  return { sql, rows };
}

/**
 * Merges `patch` into a block's content (its top-level keys replace the stored ones) in one
 * statement: an agent's tool step taking its result. The row as stored, or null when there is none.
 */
export async function mergeBlockContent(blockId: string, patch: Record<string, unknown>): Promise<BlockRow | null> {
  const [row] = await db().$queryRaw<BlockRow[]>`
    UPDATE "Block" SET "content" = (CASE WHEN jsonb_typeof("content") = 'object' THEN "content" ELSE '{}'::jsonb END) || ${JSON.stringify(patch)}::jsonb,
      "updatedAt" = ${new Date()}::timestamp(3)
    WHERE "id" = ${blockId} RETURNING ${BLOCK_COLUMNS}`;
  return row ?? null;
}

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
  if (wanted.includes(todoId)) throw badRequest("A todo cannot be its own sub-todo", [{ path: "body.subTodoIds", message: "must not contain the todo itself", code: "custom" }]);
  // Each linked todo must be one the caller can read: checked before anything is written.
  for (const id of wanted) await getTodoOrThrow({ ...caller, todoScope: null }, id, "read");
  const block = await db().$transaction(async (tx) => {
    await lockRow(tx, "Block", blockId);
    const current = await tx.block.findUniqueOrThrow({ where: { id: blockId }, select: { subTodoIds: true } });
    const merged = [...current.subTodoIds, ...wanted.filter((id) => !current.subTodoIds.includes(id))];
    // Raw SQL: Prisma writes a list column's new value into the query itself, a new query plan for every list.
    const [row] = await tx.$queryRaw<BlockRow[]>`
      UPDATE "Block" SET "subTodoIds" = ${merged}::text[], "updatedAt" = ${new Date()}::timestamp(3) WHERE "id" = ${blockId} RETURNING ${BLOCK_COLUMNS}`;
    return row!;
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
