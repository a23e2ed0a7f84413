import { ZLoginInit, ZLoginInitInput } from "../../../lib/schemas/devices.ts";
import { initLogin } from "../../services/devices/cli-login.ts";
import { defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "cli_loginInit",
  method: "POST",
  path: "/cli/login/init",
  tag: "Command line",
  summary: "Start a device-code login (RFC 8628)",
  description:
    "No credential. Returns the device `code` (secret: poll with it), the `userCode` the user compares (XXXX-XXXX), the absolute `url` of the approval page, `expiresIn` (600 s) and the poll `interval` (5 s). `name` (a host name) is shown on the approval page and names the key or device.",
  auth: "none",
  idempotent: false,
  body: ZLoginInitInput,
  response: ZLoginInit,
  handler: ({ body }) => initLogin(body.clientName, body.name),
});
