import { ZMemoryNote, ZNoteParams } from "../../../lib/schemas/search.ts";
import { getNote } from "../../services/notes/notes.ts";
import { USER_CREDENTIAL, defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "note_get",
  method: "GET",
  path: "/notes/{noteId}",
  tag: "Memory notes",
  summary: "One memory note",
  description: "A personal note is its author's alone; a project's note needs read access to the project. Anyone else gets 404.",
  auth: USER_CREDENTIAL,
  params: ZNoteParams,
  response: ZMemoryNote,
  handler: ({ caller, params }) => getNote(caller, params.noteId),
});
