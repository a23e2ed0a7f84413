import { ZUnifiedSearchPage, ZUnifiedSearchQuery } from "../../../lib/schemas/search.ts";
import { searchUnified } from "../../services/search/unified.ts";
import { USER_CREDENTIAL, defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "todo_searchUnified",
  method: "GET",
  path: "/search",
  tag: "Search",
  summary: "Todo conversations and memory notes: exact matches grouped per todo, then related items",
  description:
    "`exact`: todos whose messages match every word of `q` (the rules of todo_searchMessages), grouped per todo with the best snippet, the todo with the most recent match first (over the newest 200 matching messages). " +
    "`related`: todos and memory notes (personal, and those of readable projects) nearest to `q` by embedding, each with `score` = cosine distance (only items within the provider's related distance: 0.85 lexical, 0.75 OpenAI-compatible), without the todos already in `exact`. " +
    "The default embedding is lexical (shared words and word pieces), not semantic; an operator may configure an OpenAI-compatible embeddings endpoint (docs/api.md \"Search\"). " +
    "Items enter the tail once their embedding has been computed in the background, shortly after a write.",
  auth: USER_CREDENTIAL,
  query: ZUnifiedSearchQuery,
  response: ZUnifiedSearchPage,
  handler: ({ caller, query }) => searchUnified(caller, query),
});
