import { keysetAfter, keysetOrder, keysetPage } from "../../db/keyset.ts";
import type { z } from "zod";
import type { Caller } from "../../auth/caller.ts";
import type { MemoryNote } from "../../db/generated/client.ts";
import { ApiError, notFound } from "../../http/errors.ts";
import type { EventType } from "../../realtime/bus.ts";
import { db, runtime } from "../../runtime.ts";
import { epochMs } from "../../../lib/schemas/common.ts";
import type { TMemoryNote, ZNoteCreateInput, ZNoteListQuery, ZNoteUpdateInput } from "../../../lib/schemas/search.ts";
import { requireProjectAccess } from "../access.ts";
import { memberIds } from "../projects/projects.ts";
import { queueEmbedding } from "../search/queue-embedding.ts";

// Memory notes: short curated notes the user and the agent keep (docs/api.md "Memory notes").
// A personal note (projectId null) is its author's alone: anyone else gets 404. A project's note
// follows project access: readers list it, writers (owner, editors, team members) create, change
// and delete any of the project's notes; a viewer gets 403, a stranger 404.
// These functions are also what the agent's remember/recall tools call (server/agent, later):
// remember = createNote, recall = recallNotes (server/services/search/unified.ts, re-exported here).

export function toNote(n: MemoryNote): TMemoryNote {
  return { id: n.id, projectId: n.projectId, userId: n.userId, content: n.content, createdAt: epochMs(n.createdAt), updatedAt: epochMs(n.updatedAt) };
}

/**
 * After the change: `note.*` to whoever reads the note's list (docs/api.md "Search and memory
 * notes"): a personal note's author, or a project's room and members (their memory pages follow it
 * without subscribing to the project).
 */
async function publishNote(type: Extract<EventType, `note.${string}`>, note: MemoryNote, data: unknown): Promise<void> {
  const to = note.projectId === null ? { userId: note.userId } : { projectId: note.projectId, audience: await memberIds(note.projectId) };
  runtime().bus.publish({ type, ...to, data });
}

/** The note, if the caller may do `need` with it: 404 when they may not even read it, 403 when only reading. */
async function noteOrThrow(caller: Caller, noteId: string, need: "read" | "write"): Promise<MemoryNote> {
  const note = await db().memoryNote.findUnique({ where: { id: noteId } });
  if (!note) throw notFound("Note");
  if (note.projectId === null) {
    if (note.userId !== caller.userId) throw notFound("Note");
  } else {
    try {
      await requireProjectAccess(caller, note.projectId, need);
    } catch (err) {
      if (err instanceof ApiError && err.code === "NOT_FOUND") throw notFound("Note");
      throw err;
    }
  }
  return note;
}

/** A page of the caller's personal notes, or of a project's notes: most recently updated first. */
export async function listNotes(caller: Caller, q: z.output<typeof ZNoteListQuery>) {
  if (q.projectId) await requireProjectAccess(caller, q.projectId, "read");
  const rows = await db().memoryNote.findMany({
    where: {
      ...(q.projectId ? { projectId: q.projectId } : { projectId: null, userId: caller.userId }),
      ...keysetAfter(q.cursor, "updatedAt"),
    },
    orderBy: keysetOrder("updatedAt"),
    take: q.limit + 1,
  });
  const { page, nextCursor } = keysetPage(rows, q.limit, "updatedAt");
  return { items: page.map(toNote), nextCursor };
}

export async function getNote(caller: Caller, noteId: string): Promise<TMemoryNote> {
  return toNote(await noteOrThrow(caller, noteId, "read"));
}

export async function createNote(caller: Caller, input: z.output<typeof ZNoteCreateInput>): Promise<TMemoryNote> {
  if (input.projectId) await requireProjectAccess(caller, input.projectId, "write");
  const note = await db().memoryNote.create({ data: { userId: caller.userId, projectId: input.projectId ?? null, content: input.content } });
  await queueEmbedding("note", note.id, note.content);
  await publishNote("note.created", note, toNote(note));
  return toNote(note);
}

export async function updateNote(caller: Caller, noteId: string, input: z.output<typeof ZNoteUpdateInput>): Promise<TMemoryNote> {
  await noteOrThrow(caller, noteId, "write");
  // Conditional: a note deleted meanwhile is a 404, not a 500.
  const { count } = await db().memoryNote.updateMany({ where: { id: noteId }, data: { content: input.content } });
  const note = count ? await db().memoryNote.findUnique({ where: { id: noteId } }) : null;
  if (!note) throw notFound("Note");
  await queueEmbedding("note", note.id, note.content);
  await publishNote("note.updated", note, toNote(note));
  return toNote(note);
}

export async function deleteNote(caller: Caller, noteId: string): Promise<null> {
  const note = await noteOrThrow(caller, noteId, "write");
  const { count } = await db().memoryNote.deleteMany({ where: { id: noteId } });
  // Deleted meanwhile by another request: that one told everyone.
  if (count) await publishNote("note.deleted", note, { id: note.id, projectId: note.projectId });
  return null;
}

export { recallNotes } from "../search/unified.ts";
