import { z } from "zod";
import { defineJob } from "../../jobs/define.ts";
import { enqueue } from "../../jobs/enqueue.ts";
import { log } from "../../log.ts";
import { db } from "../../runtime.ts";
import { EMBED_CHARS } from "./embed-job.ts";
import { embeddingProvider, sourceHash } from "./embeddings.ts";

// The related tail's vectors for what was written before embeddings existed, or under another
// embedding model: every server start queues `search.backfill` for the configured model, which
// embeds the todos and notes that have no vector of that model, a batch (one provider call) at a
// time, oldest first. It runs for at most RUN_MS and then queues its own continuation, so other
// jobs get their turn and a crash loses at most one batch. Vectors of another model are replaced
// as each item is reached; until then the item is simply missing from the tail (never compared
// with vectors of another model). docs/api.md "Unified search".

export const BACKFILL_BATCH = 64;
const RUN_MS = 20_000;

type Missing = { kind: "todo" | "note"; id: string; text: string };

/** Up to `limit` todos, then notes, with no vector of `model`, oldest first. */
async function missing(model: string, limit: number): Promise<Missing[]> {
  const todos = await db().$queryRaw<{ id: string; text: string }[]>`
    SELECT t."id", left(t."content", ${EMBED_CHARS}) AS text FROM "Todo" t
    LEFT JOIN "SearchEmbedding" e ON e."todoId" = t."id" AND e."model" = ${model}
    WHERE e."id" IS NULL ORDER BY t."createdAt", t."id" LIMIT ${limit}`;
  const found: Missing[] = todos.map((t) => ({ kind: "todo", id: t.id, text: t.text }));
  if (found.length < limit) {
    const notes = await db().$queryRaw<{ id: string; text: string }[]>`
      SELECT n."id", left(n."content", ${EMBED_CHARS}) AS text FROM "MemoryNote" n
      LEFT JOIN "SearchEmbedding" e ON e."noteId" = n."id" AND e."model" = ${model}
      WHERE e."id" IS NULL ORDER BY n."createdAt", n."id" LIMIT ${limit - found.length}`;
    found.push(...notes.map((n) => ({ kind: "note" as const, id: n.id, text: n.text })));
  }
  return found;
}

/** Embeds one batch of what lacks a vector of the configured model: how many it found (fewer than `limit`: nothing is left) and stored. */
export async function backfillBatch(limit = BACKFILL_BATCH): Promise<{ found: number; stored: number }> {
  const provider = embeddingProvider();
  const batch = await missing(provider.model, limit);
  if (batch.length === 0) return { found: 0, stored: 0 };
  const vectors = await provider.embed(batch.map((m) => m.text));
  let stored = 0;
  for (const [i, m] of batch.entries()) {
    const where = m.kind === "todo" ? { todoId: m.id } : { noteId: m.id };
    const data = { model: provider.model, vector: vectors[i]!, sourceHash: sourceHash(m.text) };
    try {
      await db().searchEmbedding.upsert({ where, create: { ...where, ...data }, update: data });
      stored++;
    } catch {
      // Deleted since the batch was read: the foreign key refuses the row, and there is nothing to index.
    }
  }
  return { found: batch.length, stored };
}

export const embedBackfillJob = defineJob(
  "search.backfill",
  z.object({ model: z.string().min(1).max(200), round: z.number().int().min(0).default(0) }),
  async ({ model, round }) => {
    if (model !== embeddingProvider().model) return; // the configuration changed: its own start queued the new model
    const until = Date.now() + RUN_MS;
    let total = 0;
    for (;;) {
      const { found, stored } = await backfillBatch();
      total += stored;
      if (found < BACKFILL_BATCH) break; // nothing is left
      if (Date.now() > until) {
        await enqueue(embedBackfillJob, { model, round: round + 1 }, { key: `${model}:${round + 1}` });
        break;
      }
    }
    if (total > 0) log.info("search vectors backfilled", { model, count: total, done: Date.now() <= until });
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
