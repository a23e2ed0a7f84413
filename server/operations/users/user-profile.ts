import { ZUserProfileFull } from "../../../lib/schemas/users.ts";
import { getProfile } from "../../services/users/users.ts";
import { ANY_CREDENTIAL, defineOperation } from "../define.ts";

export default defineOperation({
  id: "user_profile",
  method: "GET",
  path: "/users/profile",
  tag: "User",
  summary: "The authenticated user's profile with settings",
  auth: ANY_CREDENTIAL,
  response: ZUserProfileFull,
  handler: ({ caller }) => getProfile(caller.userId),
});
