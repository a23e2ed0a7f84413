import { ZLoginPoll, ZLoginPollQuery } from "../../../lib/schemas/devices.ts";
import { pollLogin } from "../../services/devices/cli-login.ts";
import { defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "cli_loginPoll",
  method: "GET",
  path: "/cli/login/poll",
  tag: "Command line",
  summary: "Poll a device-code login",
  description:
    "`status` is pending, complete, expired or denied. On complete (answered once): `apiKey` for cli clients, `apiKey` and `edgeId` for edge clients, `device: {id, secret}`, `apiToken` (dst_) and `expiresAt` for bridge clients. Polling faster than `interval` is 429 with `Retry-After` and `data.error: \"slow_down\"`; a code that already completed is 409; an unknown code 404.",
  auth: "none",
  // It records the poll and, once approved, mints the credential.
  changesState: true,
  query: ZLoginPollQuery,
  errors: ["NOT_FOUND", "CONFLICT"],
  response: ZLoginPoll,
  handler: ({ query }) => pollLogin(query.code),
});
