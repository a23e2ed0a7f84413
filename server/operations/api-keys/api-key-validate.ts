import { ZApiKeyValidation } from "../../../lib/schemas/api-keys.ts";
import { validateApiKey } from "../../services/api-keys/api-keys.ts";
import { defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "apiKey_validate",
  method: "GET",
  path: "/apikey/validate",
  tag: "API keys",
  summary: "Validate the API key given in the request headers",
  description: "200 with the key's name and owner when valid; 401 when missing, unknown or deleted.",
  auth: ["apiKey"],
  response: ZApiKeyValidation,
  handler: ({ caller }) => validateApiKey(caller),
});
