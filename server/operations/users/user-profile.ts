import { ZUserProfileFull } from "../../../lib/schemas/users.ts";
import { getProfile } from "../../services/users/users.ts";
import { ANY_CREDENTIAL, defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "user_profile",
  method: "GET",
  path: "/users/profile",
  tag: "User",
  summary: "The authenticated user's profile with settings",
  description: "Who the credential belongs to: email, name, whether an administrator, the default project and the same settings as settings_getUserSettings.",
  auth: ANY_CREDENTIAL,
  errors: ["NOT_FOUND"],
  response: ZUserProfileFull,
  handler: ({ caller }) => getProfile(caller),
});
