import { ZApiKey } from "../../../lib/schemas/api-keys.ts";
import { getDefaultApiKey } from "../../services/api-keys/api-keys.ts";
import { USER_CREDENTIAL, defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "apiKey_getDefault",
  method: "GET",
  path: "/apikeys/default",
  tag: "API keys",
  summary: "Get the default API key, creating it if none exists",
  description: "When this call creates the key, the response carries its full value (the only time); otherwise the key is masked.",
  auth: USER_CREDENTIAL,
  // It creates the key when there is none: a cross-site page must not be able to trigger that.
  changesState: true,
  response: ZApiKey,
  handler: ({ caller }) => getDefaultApiKey(caller),
});
