import { ZApiKey, ZApiKeyCreateInput } from "../../../lib/schemas/api-keys.ts";
import { createApiKey } from "../../services/api-keys/api-keys.ts";
import { USER_CREDENTIAL, defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "apiKey_create",
  method: "POST",
  path: "/apikeys",
  tag: "API keys",
  summary: "Create an API key",
  description: "The response carries the full key; it is never shown again. The user's first key becomes the default. 409 if the name is taken.",
  auth: USER_CREDENTIAL,
  body: ZApiKeyCreateInput,
  errors: ["CONFLICT"],
  // The answer holds the key, shown once: it is never stored for replay.
  idempotent: false,
  response: ZApiKey,
  handler: ({ caller, body }) => createApiKey(caller, body.name),
});
