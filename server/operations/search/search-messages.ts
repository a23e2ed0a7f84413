import { ZMessageSearchPage, ZMessageSearchQuery } from "../../../lib/schemas/search.ts";
import { searchMessages } from "../../services/search/messages.ts";
import { ANY_CREDENTIAL, defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "todo_searchMessages",
  method: "GET",
  path: "/messages/search",
  tag: "Search",
  summary: "Full-text search over messages in every project the caller may read, newest first",
  description:
    "Every white-space separated word of `q` must occur in the message, as an English stem or as the word itself; the last word also matches as a prefix. " +
    "Optional scope: `projectId`, `todoId`, `role` (a project or todo the caller may not read matches nothing). " +
    "Each hit carries a `snippet`: plain text plus highlight offsets, never markup (docs/api.md \"Search\"). " +
    "Pages: pass `nextCursor` as `cursor`; a page never repeats or skips a message. Only the first 100,000 characters of a message are indexed.",
  auth: ANY_CREDENTIAL,
  query: ZMessageSearchQuery,
  response: ZMessageSearchPage,
  handler: ({ caller, query }) => searchMessages(caller, query),
});
