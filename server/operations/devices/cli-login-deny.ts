import { ZLoginRequest, ZUserCodeInput } from "../../../lib/schemas/devices.ts";
import { decideLogin } from "../../services/devices/cli-login.ts";
import { defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "cli_loginDeny",
  method: "POST",
  path: "/cli/login/deny",
  tag: "Command line",
  summary: "Deny a device-code login",
  description: "Signed in (cookie base, same-origin). 404 for an unknown code; 409 for one that expired or was already approved or denied. Rate-limited (`userCodeEntry`) against guessing.",
  auth: ["session"],
  rateLimit: "userCodeEntry",
  idempotent: false,
  body: ZUserCodeInput,
  errors: ["NOT_FOUND", "CONFLICT"],
  response: ZLoginRequest,
  handler: ({ caller, body }) => decideLogin(caller, body.userCode, "denied"),
});
