import { ZNull } from "../../../lib/schemas/common.ts";
import { ZNoteIdInput, ZNoteParams } from "../../../lib/schemas/search.ts";
import { deleteNote } from "../../services/notes/notes.ts";
import { USER_CREDENTIAL, defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "note_delete",
  method: "DELETE",
  path: "/notes/{noteId}",
  tag: "Memory notes",
  summary: "Delete a memory note permanently",
  description: "Who may: as note_update. The body may repeat noteId; a different one is 400 and deletes nothing.",
  auth: USER_CREDENTIAL,
  params: ZNoteParams,
  body: ZNoteIdInput,
  response: ZNull,
  handler: ({ caller, params }) => deleteNote(caller, params.noteId),
});
