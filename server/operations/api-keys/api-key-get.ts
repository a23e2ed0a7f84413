import { z } from "zod";
import { ZApiKey, ZApiKeyName } from "../../../lib/schemas/api-keys.ts";
import { getApiKey } from "../../services/api-keys/api-keys.ts";
import { USER_CREDENTIAL, defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "apiKey_get",
  method: "GET",
  path: "/apikeys/{name}",
  tag: "API keys",
  summary: "Get one API key by name (masked)",
  description: "The key is masked as `tsk_…` and its last four characters; 404 when the caller has no key of that name.",
  auth: USER_CREDENTIAL,
  params: z.object({ name: ZApiKeyName }),
  response: ZApiKey,
  handler: ({ caller, params }) => getApiKey(caller, params.name),
});
