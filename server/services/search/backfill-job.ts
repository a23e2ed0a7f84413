import { z } from "zod";
import { defineJob } from "../../jobs/define.ts";
import { enqueue } from "../../jobs/enqueue.ts";
import { log } from "../../log.ts";
import { db } from "../../runtime.ts";
import { EMBED_CHARS } from "./embed-job.ts";
import { embeddingProvider, sourceHash, storeEmbedding } from "./embeddings.ts";

// The related tail's vectors for what was written before embeddings existed, or under another
// embedding model: every server start queues `search.backfill` for the configured model, which
// embeds the todos and notes that have no vector of that model, a batch (one provider call) at a
// time, in id order (one pass along each primary key). It runs for at most RUN_MS and then queues
// its own continuation from where it stopped, so other jobs get their turn and a crash loses at
// most one batch. Vectors of another model are replaced
// as each item is reached; until then the item is simply missing from the tail (never compared
// with vectors of another model). docs/api.md "Unified search".

export const BACKFILL_BATCH = 64;
const RUN_MS = 20_000;

type Kind = "todo" | "note";
/** Where a backfill goes on: the todos, then the notes, each in id order after `after`. */
export type BackfillCursor = { kind: Kind; after: string };
export const BACKFILL_START: BackfillCursor = { kind: "todo", after: "" };
const BACKFILL_START_NOTES: BackfillCursor = { kind: "note", after: "" };

/**
 * Up to `limit` todos (or notes) after the cursor with no vector of `model`, in id order: a walk
 * along the primary key that each vector lookup answers from its unique index, so a batch costs
 * what it finds, and the whole backfill one pass over the table, however large.
 */
async function missing(model: string, limit: number, c: BackfillCursor): Promise<{ id: string; text: string }[]> {
  return c.kind === "todo"
    ? db().$queryRaw`
        SELECT t."id", left(t."content", ${EMBED_CHARS}) AS text FROM "Todo" t
        LEFT JOIN "SearchEmbedding" e ON e."todoId" = t."id" AND e."model" = ${model}
        WHERE e."id" IS NULL AND t."id" > ${c.after} ORDER BY t."id" LIMIT ${limit}`
    : db().$queryRaw`
        SELECT n."id", left(n."content", ${EMBED_CHARS}) AS text FROM "MemoryNote" n
        LEFT JOIN "SearchEmbedding" e ON e."noteId" = n."id" AND e."model" = ${model}
        WHERE e."id" IS NULL AND n."id" > ${c.after} ORDER BY n."id" LIMIT ${limit}`;
}

/**
 * Embeds one batch (one provider call) of what lacks a vector of the configured model from the
 * cursor on: how many it found and stored, and where the next batch starts (null: done).
 */
export async function backfillBatch(cursor: BackfillCursor = BACKFILL_START, limit = BACKFILL_BATCH): Promise<{ found: number; stored: number; next: BackfillCursor | null }> {
  const provider = embeddingProvider();
  const batch = await missing(provider.model, limit, cursor);
  // A short batch ends the kind: the todos go on with the notes, the notes end the backfill.
  const next = batch.length === limit ? { kind: cursor.kind, after: batch[batch.length - 1]!.id } : cursor.kind === "todo" ? BACKFILL_START_NOTES : null;
  if (batch.length === 0) return { found: 0, stored: 0, next };
  const vectors = await provider.embed(batch.map((m) => m.text));
  let stored = 0;
  for (const [i, m] of batch.entries()) {
    const where = cursor.kind === "todo" ? { todoId: m.id } : { noteId: m.id };
    try {
      await storeEmbedding(where, { model: provider.model, vector: vectors[i]!, sourceHash: sourceHash(m.text) });
      stored++;
    } catch {
      // Deleted since the batch was read: the foreign key refuses the row, and there is nothing to index.
    }
  }
  return { found: batch.length, stored, next };
}

export const embedBackfillJob = defineJob(
  "search.backfill",
  z.object({
    model: z.string().min(1).max(200),
    round: z.number().int().min(0).default(0),
    kind: z.enum(["todo", "note"]).default("todo"),
    after: z.string().max(128).default(""),
  }),
  async ({ model, round, kind, after }) => {
    if (model !== embeddingProvider().model) return; // the configuration changed: its own start queued the new model
    const until = Date.now() + RUN_MS;
    let total = 0;
    let cursor: BackfillCursor | null = { kind, after };
    while (cursor) {
      const batch = await backfillBatch(cursor);
      total += batch.stored;
      cursor = batch.next;
      if (cursor && Date.now() > until) {
        await enqueue(embedBackfillJob, { model, round: round + 1, ...cursor }, { key: `${model}:${round + 1}` });
        break;
      }
    }
    if (total > 0) log.info("search vectors backfilled", { model, count: total, done: cursor === null });
  },
  { attempts: 6, backoffMs: 10_000 },
);

/** Queues the backfill for the configured model (at server start; several processes queue one). */
export async function queueEmbeddingBackfill(): Promise<void> {
  const { model } = embeddingProvider();
  await enqueue(embedBackfillJob, { model, round: 0 }, { key: `${model}:start` }).catch((err: unknown) =>
    log.warn("could not queue the search vector backfill", { model, error: err instanceof Error ? err.message : String(err) }),
  );
}
