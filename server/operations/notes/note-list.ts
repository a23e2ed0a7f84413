import { ZNoteListQuery, ZNotePage } from "../../../lib/schemas/search.ts";
import { listNotes } from "../../services/notes/notes.ts";
import { USER_CREDENTIAL, defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "note_list",
  method: "GET",
  path: "/notes",
  tag: "Memory notes",
  summary: "A page of memory notes: the caller's personal notes, or a project's",
  description:
    "Without `projectId`: the caller's personal notes (nobody else sees them). With it: the project's notes, for anyone who may read the project (404 otherwise). Most recently updated first; pass `nextCursor` as `cursor`.",
  auth: USER_CREDENTIAL,
  errors: ["NOT_FOUND"],
  query: ZNoteListQuery,
  response: ZNotePage,
  handler: ({ caller, query }) => listNotes(caller, query),
});
