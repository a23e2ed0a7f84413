import { z } from "zod";
import { defineJob } from "../../jobs/define.ts";
import { db } from "../../runtime.ts";
import { embeddingProvider, sourceHash, storeEmbedding } from "./embeddings.ts";

// The vectors of the related tail are computed here, in the background, never in the request
// that wrote the text (docs/jobs.md). The job reads the text as it is when it runs, and skips
// work when the stored vector is of the same model and text.

/** What is embedded of a todo: its content (the title and task), cut to 4,000 characters. */
export const EMBED_CHARS = 4000;

type Kind = "todo" | "note";

async function currentText(kind: Kind, id: string): Promise<string | null> {
  const row = kind === "todo"
    ? await db().todo.findUnique({ where: { id }, select: { content: true } })
    : await db().memoryNote.findUnique({ where: { id }, select: { content: true } });
  return row ? row.content.slice(0, EMBED_CHARS) : null;
}

/** Computes and stores the vector of one todo or note; nothing when it is gone or unchanged. */
export async function embedNow(kind: Kind, id: string): Promise<"stored" | "unchanged" | "gone"> {
  const text = await currentText(kind, id);
  if (text === null) return "gone";
  const provider = embeddingProvider();
  const hash = sourceHash(text);
  const where = kind === "todo" ? { todoId: id } : { noteId: id };
  const existing = await db().searchEmbedding.findUnique({ where, select: { model: true, sourceHash: true } });
  if (existing && existing.model === provider.model && existing.sourceHash === hash) return "unchanged";
  const [vector] = await provider.embed([text]);
  try {
    await storeEmbedding(where, { model: provider.model, vector: vector!, sourceHash: hash });
  } catch (err) {
    // Deleted meanwhile: the foreign key refuses the row, and there is nothing to index.
    if ((await currentText(kind, id)) === null) return "gone";
    throw err;
  }
  return "stored";
}

export const embedJob = defineJob(
  "search.embed",
  z.object({ kind: z.enum(["todo", "note"]), id: z.string().min(1).max(128) }),
  async ({ kind, id }) => {
    await embedNow(kind, id);
  },
  { attempts: 6, backoffMs: 5_000 },
);
