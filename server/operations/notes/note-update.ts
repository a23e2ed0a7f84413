import { ZMemoryNote, ZNoteParams, ZNoteUpdateInput } from "../../../lib/schemas/search.ts";
import { updateNote } from "../../services/notes/notes.ts";
import { USER_CREDENTIAL, defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "note_update",
  method: "PATCH",
  path: "/notes/{noteId}",
  tag: "Memory notes",
  summary: "Change a memory note's text",
  description: "A personal note: its author only. A project's note: anyone with write access to the project (a viewer gets 403). Anyone else gets 404.",
  auth: USER_CREDENTIAL,
  params: ZNoteParams,
  body: ZNoteUpdateInput,
  response: ZMemoryNote,
  handler: ({ caller, params, body }) => updateNote(caller, params.noteId, body),
});
