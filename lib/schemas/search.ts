import { z } from "zod";
import { ZId, ZKeysetCursor, ZLimit, ZTimestamp } from "./common.ts";
import { ZMessageRole, ZTodoStatus } from "./todos.ts";

// Search (todo_searchMessages, todo_searchUnified) and memory notes (note_*). docs/api.md "Search".

/** The longest `q`; the words past the 16th are ignored. */
export const MAX_QUERY_CHARS = 500;
export const MAX_QUERY_WORDS = 16;
/** The longest memory note. */
export const MAX_NOTE_CHARS = 4000;

const ZQ = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(MAX_QUERY_CHARS, `must be at most ${MAX_QUERY_CHARS} characters`)
  .describe("The words to find. Every word must occur (English stems or the exact word); the last word also matches as a prefix, as people type.");

/** An opaque page cursor: the `nextCursor` of the previous page. */
const ZSearchCursor = z
  .string()
  .regex(/^[0-9]{1,19}$/, "must be the nextCursor of a previous page")
  .optional()
  .describe("The `nextCursor` of the previous page (opaque)");

export const ZMessageSearchQuery = z.object({
  q: ZQ,
  projectId: ZId.optional().describe("Only this project's messages"),
  todoId: ZId.optional().describe("Only this todo's messages"),
  role: ZMessageRole.optional().describe("Only messages of this role"),
  limit: ZLimit,
  cursor: ZSearchCursor,
});

/**
 * A highlighted excerpt as plain text plus the ranges to highlight, never markup: a client renders
 * `text` as text and wraps each range (UTF-16 code unit offsets, `end` exclusive) itself.
 */
export const ZSnippet = z
  .object({
    text: z.string().describe("Plain text (never HTML): an excerpt of the matching content"),
    highlights: z
      .array(z.object({ start: z.number().int().min(0), end: z.number().int().min(0) }))
      .describe("Matched words as [start, end) offsets into `text` in UTF-16 code units, ascending, not overlapping"),
  })
  .meta({ id: "SearchSnippet" });
export type TSnippet = z.infer<typeof ZSnippet>;

export const ZMessageSearchHit = z
  .object({
    id: ZId,
    messageId: ZId,
    todoId: ZId,
    projectId: ZId,
    projectName: z.string(),
    todoTitle: z.string().describe("The todo's content, cut to 200 characters"),
    todoStatus: ZTodoStatus,
    role: ZMessageRole,
    createdAt: ZTimestamp,
    snippet: ZSnippet,
  })
  .meta({ id: "MessageSearchHit" });
export type TMessageSearchHit = z.infer<typeof ZMessageSearchHit>;

export const ZMessageSearchPage = z
  .object({
    items: z.array(ZMessageSearchHit).describe("Newest first"),
    nextCursor: z.string().nullable().describe("Pass as `cursor` for older matches; null on the last page"),
  })
  .meta({ id: "MessageSearchPage" });

export const ZUnifiedSearchQuery = z.object({
  q: ZQ,
  projectId: ZId.optional().describe("Only this project's todos and notes (personal notes are then left out)"),
  limit: z.coerce
    .number()
    .transform((n) => (Number.isInteger(n) && n > 50 ? 50 : n))
    .pipe(z.number().int().min(1).max(50))
    .default(20)
    .describe("Todos with exact matches: default 20, larger than 50 is clamped to 50"),
  relatedLimit: z.coerce
    .number()
    .transform((n) => (Number.isInteger(n) && n > 50 ? 50 : n))
    .pipe(z.number().int().min(0).max(50))
    .default(10)
    .describe("Related (semantic) items: default 10, 0 for none, larger than 50 is clamped to 50"),
});

export const ZUnifiedTodoGroup = z
  .object({
    todoId: ZId,
    projectId: ZId,
    projectName: z.string(),
    todoTitle: z.string(),
    todoStatus: ZTodoStatus,
    matchCount: z.number().int().describe("Matching messages in this todo (counted up to 100)"),
    lastMatchAt: ZTimestamp,
    best: ZMessageSearchHit.describe("The best-ranked matching message of the todo, with its snippet"),
  })
  .meta({ id: "UnifiedTodoGroup" });

export const ZRelatedItem = z
  .object({
    kind: z.enum(["todo", "note"]),
    id: ZId.describe("The todo's or the note's id"),
    projectId: ZId.nullable().describe("null for a personal note"),
    title: z.string().describe("The todo's content or the note's text, cut to 200 characters"),
    score: z.number().describe("Cosine distance between the query's and the item's embedding: 0 is identical, larger is less related"),
  })
  .meta({ id: "RelatedItem" });

export const ZUnifiedSearchPage = z
  .object({
    exact: z.array(ZUnifiedTodoGroup).describe("Todos whose messages match every word, grouped per todo, the most recent match first"),
    related: z.array(ZRelatedItem).describe("Semantic matches over todos and memory notes, nearest (lowest score) first, without the todos already in `exact`"),
    embeddingModel: z.string().describe("The embedding provider and model the related tail used, e.g. `lexical-hash-v1`"),
  })
  .meta({ id: "UnifiedSearchPage" });

// ───────────── memory notes ─────────────

const ZNoteContent = z.string().trim().min(1, "must not be empty").max(MAX_NOTE_CHARS, `must be at most ${MAX_NOTE_CHARS} characters`);

export const ZMemoryNote = z
  .object({
    id: ZId,
    projectId: ZId.nullable().describe("null: a personal note, seen by its author only"),
    userId: ZId.describe("The author"),
    content: z.string(),
    createdAt: ZTimestamp,
    updatedAt: ZTimestamp,
  })
  .meta({ id: "MemoryNote" });
export type TMemoryNote = z.infer<typeof ZMemoryNote>;

export const ZNoteListQuery = z.object({
  projectId: ZId.optional().describe("A project's notes; without it, the caller's personal notes"),
  limit: ZLimit,
  cursor: ZKeysetCursor,
});
export const ZNotePage = z
  .object({ items: z.array(ZMemoryNote).describe("Most recently updated first"), nextCursor: z.string().nullable() })
  .meta({ id: "MemoryNotePage" });

export const ZNoteCreateInput = z
  .object({ content: ZNoteContent, projectId: ZId.nullable().optional().describe("Omit, or null, for a personal note") })
  .meta({ id: "MemoryNoteCreateInput" });
export const ZNoteUpdateInput = z.object({ content: ZNoteContent }).meta({ id: "MemoryNoteUpdateInput" });
export const ZNoteParams = z.object({ noteId: ZId });
export const ZNoteIdInput = z.object({ noteId: ZId }).meta({ id: "MemoryNoteIdInput" });
