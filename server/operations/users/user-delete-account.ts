import { ZDeleteAccountInput } from "../../../lib/schemas/account.ts";
import { ZSuccess } from "../../../lib/schemas/common.ts";
import { USER_CREDENTIAL, defineOperation } from "../../http/define.ts";
import { deleteAccount } from "../../services/users/delete-account.ts";

export default defineOperation({
  id: "user_deleteAccount",
  method: "DELETE",
  path: "/users/account",
  tag: "User",
  summary: "Delete the account and everything it owns, permanently",
  description:
    "Needs `confirm`: the account's email address (case-insensitive); anything else is 422 and deletes nothing. In one transaction: the account's projects with all their todos, messages and blocks (also for the people they were shared with, who get 404 from then on), todos the account wrote in projects of others, API keys, sessions, devices and their tokens, edges, notes, settings, billing rows, team membership. A team the account owns with other members in it is 409 (`data.reason: \"owns_team\"`, with `teamId` and `members`) and deletes nothing: its owner pays for every member, so the team passes only to a member who accepts it (`billing_setTeamMemberRole`), or the owner removes the members first; a team with no one else is deleted with the account. Ledger rows and invoices are kept for accounting without the user (anonymised). After the commit every credential of the account is refused and its open Socket.IO connections are closed before the answer; the Stripe customer is deleted by a background job. A new account with the same email starts empty. API keys and browser sessions; not device tokens.",
  auth: USER_CREDENTIAL,
  rateLimit: "accountData",
  idempotent: false,
  errors: ["NOT_FOUND", "CONFLICT", "UNPROCESSABLE_CONTENT"],
  body: ZDeleteAccountInput,
  response: ZSuccess,
  handler: ({ caller, body }) => deleteAccount(caller, body.confirm),
});
