import { ZMemoryNote, ZNoteCreateInput } from "../../../lib/schemas/search.ts";
import { createNote } from "../../services/notes/notes.ts";
import { USER_CREDENTIAL, defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "note_create",
  method: "POST",
  path: "/notes",
  tag: "Memory notes",
  summary: "Create a memory note (personal, or a project's)",
  description:
    "A project's note needs write access to the project (a viewer gets 403, a stranger 404). At most 4,000 characters. Searchable by todo_searchUnified once its embedding is computed in the background.",
  auth: USER_CREDENTIAL,
  errors: ["NOT_FOUND"],
  body: ZNoteCreateInput,
  response: ZMemoryNote,
  handler: ({ caller, body }) => createNote(caller, body),
});
