import { enqueue } from "../../jobs/enqueue.ts";
import { log } from "../../log.ts";
import { EMBED_CHARS, embedJob } from "./embed-job.ts";
import { sourceHash } from "./embeddings.ts";

/**
 * Queues the embedding of a todo or note after its text was written (call after the commit). A
 * failure to queue is logged, not thrown: the write stands; the item is missing from the related
 * tail until its next change.
 */
export async function queueEmbedding(kind: "todo" | "note", id: string, text: string): Promise<void> {
  await enqueue(embedJob, { kind, id }, { key: `${kind}:${id}:${sourceHash(text.slice(0, EMBED_CHARS))}` }).catch((err: unknown) =>
    log.warn("could not queue an embedding", { kind, id, error: err instanceof Error ? err.message : String(err) }),
  );
}
