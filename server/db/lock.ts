import { Prisma } from "./generated/client.ts";

/** The tables whose rows serialise changes (an allow-list: the name is put into the SQL as is). */
export type LockableTable = "Todo" | "Block" | "Project" | "User" | "Team" | "Course";

/**
 * The one row lock: `SELECT … FOR UPDATE` on one row, inside the caller's transaction, so changes
 * to that row (and what hangs off it) happen one after the other. Resolves false when there is no
 * such row. On PGlite (one connection) transactions never overlap anyway.
 */
export async function lockRow(tx: Prisma.TransactionClient, table: LockableTable, id: string): Promise<boolean> {
  const rows = await tx.$queryRaw<unknown[]>`SELECT 1 FROM ${Prisma.raw(`"${table}"`)} WHERE "id" = ${id} FOR UPDATE`;
  return rows.length > 0;
}

/** lockRow that reads the locked row's `columns` in the same statement: null when there is no such row. */
export async function lockAndRead<T>(tx: Prisma.TransactionClient, table: LockableTable, id: string, columns: Prisma.Sql): Promise<T | null> {
  const rows = await tx.$queryRaw<T[]>`SELECT ${columns} FROM ${Prisma.raw(`"${table}"`)} WHERE "id" = ${id} FOR UPDATE`;
  return rows[0] ?? null;
}
