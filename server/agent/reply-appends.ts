// The coalesced appends of every turn streaming in this process, written together. Each turn's
// ReplyWriter appends its text at most every PERSIST_MS; with hundreds of turns that was hundreds
// of one-row UPDATEs a second, each a round trip through Prisma and the driver. The writers write
// on the clock's multiples of PERSIST_MS (./reply-writer.ts), so their appends come in the same
// turn of the event loop; the appends of one turn go to the database as one statement, each row
// still written only while its todo runs (server/agent/turn-stream.ts).
import { db } from "../runtime.ts";

/** How long the first append of a batch waits for others (0: the appends of the same turn of the event loop, no delay). */
export const APPEND_BATCH_MS = 0;

export type AppendRow = { messageId: string; todoId: string; text: string };
/** Writes the rows in one statement; returns the messages it wrote (their todo was still running). */
export type AppendWrite = (rows: AppendRow[]) => Promise<Set<string>>;

type Pending = { todoId: string; text: string; done: { resolve(ok: boolean): void; reject(e: unknown): void }[] };

export class AppendBatcher {
  private batch = new Map<string, Pending>();
  private scheduled = false;

  constructor(
    private readonly write: AppendWrite,
    private readonly batchMs = APPEND_BATCH_MS,
  ) {}

  /** Appends `text` to the message while its todo runs; resolves false when it no longer does (nothing written). */
  append(messageId: string, todoId: string, text: string): Promise<boolean> {
    return new Promise((resolve, reject) => {
      const pending = this.batch.get(messageId);
      // A writer waits for its append before the next; should two meet anyway, they are one, in order.
      if (pending) {
        pending.text += text;
        pending.done.push({ resolve, reject });
      } else this.batch.set(messageId, { todoId, text, done: [{ resolve, reject }] });
      if (this.scheduled) return;
      this.scheduled = true;
      if (this.batchMs > 0) setTimeout(() => this.flush(), this.batchMs);
      else setImmediate(() => this.flush());
    });
  }

  private flush(): void {
    this.scheduled = false;
    const rows = [...this.batch];
    this.batch = new Map();
    this.write(rows.map(([messageId, p]) => ({ messageId, todoId: p.todoId, text: p.text }))).then(
      (written) => rows.forEach(([id, p]) => p.done.forEach((d) => d.resolve(written.has(id)))),
      (err: unknown) => rows.forEach(([, p]) => p.done.forEach((d) => d.reject(err))),
    );
  }
}

/** The rows' texts appended in one UPDATE, each only while its todo is RUNNING (a pause or cancel that committed first stands). */
export const writeAppends: AppendWrite = async (rows) => {
  const written = await db().$queryRaw<{ id: string }[]>`
    UPDATE "Message" AS m SET "content" = m."content" || v."text", "updatedAt" = (now() AT TIME ZONE 'UTC')
    FROM unnest(${rows.map((r) => r.messageId)}::text[], ${rows.map((r) => r.todoId)}::text[], ${rows.map((r) => r.text)}::text[]) AS v("id", "todoId", "text")
    WHERE m."id" = v."id" AND EXISTS (SELECT 1 FROM "Todo" t WHERE t."id" = v."todoId" AND t."status" = 'RUNNING')
    RETURNING m."id"`;
  return new Set(written.map((r) => r.id));
};

/** This process's batcher: every streaming turn's coalesced appends. */
export const replyAppends = new AppendBatcher(writeAppends);
