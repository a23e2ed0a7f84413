import { z } from "zod";
import { ZApiKeyName, ZApiKeyNameInput } from "../../../lib/schemas/api-keys.ts";
import { ZNull } from "../../../lib/schemas/common.ts";
import { setDefaultApiKey } from "../../services/api-keys/api-keys.ts";
import { USER_CREDENTIAL, defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "apiKey_setDefault",
  method: "PUT",
  path: "/apikeys/{name}/default",
  tag: "API keys",
  summary: "Make an API key the user's default",
  description: "The named key becomes the default and the previous default stops being one; 404 when the caller has no key of that name.",
  auth: USER_CREDENTIAL,
  params: z.object({ name: ZApiKeyName }),
  body: ZApiKeyNameInput,
  response: ZNull,
  handler: ({ caller, params }) => setDefaultApiKey(caller, params.name),
});
