import { ZMayflyInput, ZMayflyToken } from "../../../lib/schemas/devices.ts";
import { issueMayflyToken } from "../../services/devices/credentials.ts";
import { ANY_CREDENTIAL, defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "cli_mayflyToken",
  method: "POST",
  path: "/cli/mayfly/token",
  tag: "Command line",
  summary: "Issue a todo-scoped (mayfly) token",
  description:
    "A dst_ token for one todo (write access needed; 404 for a todo you cannot read), valid 15 minutes. Every operation outside that todo is 403 with it. A device token may ask too, so the durable key never enters an ephemeral bridge.",
  auth: ANY_CREDENTIAL,
  idempotent: false,
  body: ZMayflyInput,
  errors: ["NOT_FOUND"],
  response: ZMayflyToken,
  handler: ({ caller, body }) => issueMayflyToken(caller, body.todoId),
});
