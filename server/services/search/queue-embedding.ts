import { enqueue } from "../../jobs/enqueue.ts";
import { log } from "../../log.ts";
import { EMBED_CHARS, embedJob } from "./embed-job.ts";
import { sourceHash } from "./embeddings.ts";

/** The changes of one item within this long after one that was queued are embedded by one more job, at its end. */
export const EMBED_COALESCE_MS = 1000;

/** Items queued less than EMBED_COALESCE_MS ago in this process: when that window ends, and whether its closing job is queued. */
const windows = new Map<string, { endsAt: number; closing: boolean }>();

/**
 * Queues the embedding of a todo or note after its text was written (call after the commit). The
 * job reads the text as it is when it runs, so changes that come fast (a script updating a todo ten
 * times a second) need not each have one: the first change of an item is queued at once, and every
 * change in the EMBED_COALESCE_MS after it shares one job queued (in the database, so a restart
 * keeps it) to run when that time is over. A failure to queue is logged, not thrown: the write
 * stands; the item is missing from the related tail until its next change.
 */
export async function queueEmbedding(kind: "todo" | "note", id: string, text: string): Promise<void> {
  const item = `${kind}:${id}`;
  const now = Date.now();
  const open = windows.get(item);
  let opts: { key: string; delay?: number };
  if (open && open.endsAt > now) {
    if (open.closing) return;
    open.closing = true;
    opts = { key: `${item}@${open.endsAt}`, delay: open.endsAt - now };
  } else {
    const endsAt = now + EMBED_COALESCE_MS;
    windows.set(item, { endsAt, closing: false });
    setTimeout(() => windows.get(item)?.endsAt === endsAt && windows.delete(item), EMBED_COALESCE_MS).unref();
    opts = { key: `${item}:${sourceHash(text.slice(0, EMBED_CHARS))}` };
  }
  await enqueue(embedJob, { kind, id }, opts).catch((err: unknown) =>
    log.warn("could not queue an embedding", { kind, id, error: err instanceof Error ? err.message : String(err) }),
  );
}
