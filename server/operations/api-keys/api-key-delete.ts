import { z } from "zod";
import { ZApiKeyName, ZApiKeyNameInput } from "../../../lib/schemas/api-keys.ts";
import { ZNull } from "../../../lib/schemas/common.ts";
import { deleteApiKey } from "../../services/api-keys/api-keys.ts";
import { USER_CREDENTIAL, defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "apiKey_delete",
  method: "DELETE",
  path: "/apikeys/{name}",
  tag: "API keys",
  summary: "Delete (revoke) an API key",
  description: "The key stops working at once.",
  auth: USER_CREDENTIAL,
  params: z.object({ name: ZApiKeyName }),
  body: ZApiKeyNameInput,
  response: ZNull,
  handler: ({ caller, params }) => deleteApiKey(caller, params.name),
});
