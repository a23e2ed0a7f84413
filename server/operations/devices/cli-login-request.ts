import { z } from "zod";
import { ZLoginRequest, ZUserCode } from "../../../lib/schemas/devices.ts";
import { getLoginRequest } from "../../services/devices/cli-login.ts";
import { defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "cli_loginRequest",
  method: "GET",
  path: "/cli/login/request",
  tag: "Command line",
  summary: "What a user code asks for (the approval page)",
  description: "Signed in (cookie base). The client kind and name behind a user code and its status; 404 for an unknown code. Counts against `userCodeEntry` like approve and deny, so codes cannot be guessed.",
  auth: ["session"],
  rateLimit: "userCodeEntry",
  query: z.object({ userCode: ZUserCode }),
  errors: ["NOT_FOUND"],
  response: ZLoginRequest,
  handler: ({ caller, query }) => getLoginRequest(caller, query.userCode),
});
