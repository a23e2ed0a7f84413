import { ZDeviceCredentials, ZEnrollSelfInput } from "../../../lib/schemas/devices.ts";
import { enrollSelf } from "../../services/devices/credentials.ts";
import { USER_CREDENTIAL, defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "cli_enrollSelf",
  method: "POST",
  path: "/cli/device/enroll-self",
  tag: "Command line",
  summary: "Enroll the calling client as a device",
  description: "With an API key or session: creates a bridge device and returns its durable credentials (`device.secret`, shown once) and a dst_ token (1 h).",
  auth: USER_CREDENTIAL,
  // The answer holds a secret, shown once: never stored for replay.
  idempotent: false,
  body: ZEnrollSelfInput,
  response: ZDeviceCredentials,
  handler: ({ caller, body }) => enrollSelf(caller, body),
});
