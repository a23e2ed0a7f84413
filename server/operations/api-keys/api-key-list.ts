import { z } from "zod";
import { ZApiKey } from "../../../lib/schemas/api-keys.ts";
import { listApiKeys } from "../../services/api-keys/api-keys.ts";
import { USER_CREDENTIAL, defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "apiKey_list",
  method: "GET",
  path: "/apikeys",
  tag: "API keys",
  summary: "List the user's API keys (masked)",
  description: "Every key of the caller, oldest first, each with `key` masked as `tsk_…` and its last four characters.",
  auth: USER_CREDENTIAL,
  response: z.array(ZApiKey),
  handler: ({ caller }) => listApiKeys(caller),
});
