// Keyset paging for lists ordered newest first by a time column, then by id (ZKeysetCursor):
// the cursor is the last item's `<ms>:<id>`, so items written meanwhile never shift a page, and
// items sharing a time are neither lost nor repeated.

type Row<F extends string> = { id: string } & { [K in F]: Date };

/** The rows after the cursor's item, as a Prisma where fragment on `field` and `id`; {} without one. */
export function keysetAfter<F extends string>(cursor: string | undefined, field: F): object {
  if (!cursor) return {};
  const [ms, id] = cursor.split(":");
  const at = new Date(Number(ms));
  return { OR: [{ [field]: { lt: at } }, { [field]: at, id: { lt: id } }] };
}

/** The order that goes with keysetAfter. */
export function keysetOrder<F extends string>(field: F) {
  return [{ [field]: "desc" as const }, { id: "desc" as const }] as { [K in F | "id"]?: "desc" }[];
}

/** A page of `limit` from rows read with `take: limit + 1`, and the cursor of the next page (null on the last). */
export function keysetPage<F extends string, R extends Row<F>>(rows: R[], limit: number, field: F): { page: R[]; nextCursor: string | null } {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { page, nextCursor: rows.length > limit && last ? `${last[field].getTime()}:${last.id}` : null };
}
