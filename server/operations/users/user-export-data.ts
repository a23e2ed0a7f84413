import { ZAccountDataExport } from "../../../lib/schemas/account.ts";
import { USER_CREDENTIAL, defineOperation } from "../../http/define.ts";
import { StreamedJson } from "../../http/streamed.ts";
import { exportStream } from "../../services/users/export.ts";

export default defineOperation({
  id: "user_exportData",
  method: "GET",
  path: "/users/export",
  tag: "User",
  summary: "Everything the account holds, as one portable JSON document",
  description:
    "The account's records and file metadata (docs/api.md \"Account export and deletion\"): profile, settings, owned projects with their groups, cards and shares, every todo of those projects and the todos the account wrote elsewhere, their messages and blocks, notes, pending tasks, reports, edges, devices, command-line logins, billing history, team membership and course signups. Content is exported exactly as stored. Never in it: API keys or their hashes, session tokens, device secrets and tokens, sign-in provider tokens, invite tokens, device codes, file bytes. The body is streamed (`Content-Disposition: attachment`), read from the database page by page, so its size does not bound the server's memory. API keys and browser sessions; not device tokens.",
  auth: USER_CREDENTIAL,
  rateLimit: "accountData",
  errors: ["NOT_FOUND"],
  response: ZAccountDataExport,
  handler: async ({ caller }) => {
    const stamp = new Date().toISOString().slice(0, 10);
    return new StreamedJson(await exportStream(caller), { "content-disposition": `attachment; filename="todo-service-export-${stamp}.json"` });
  },
});
