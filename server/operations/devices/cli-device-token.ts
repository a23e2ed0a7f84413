import { ZDeviceToken, ZDeviceTokenInput } from "../../../lib/schemas/devices.ts";
import { exchangeDeviceSecret } from "../../services/devices/credentials.ts";
import { defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "cli_deviceToken",
  method: "POST",
  path: "/cli/device/token",
  tag: "Command line",
  summary: "Exchange device credentials for a fresh dst_ token",
  description: "No credential header: the body is the credential. `deviceId` + `deviceSecret` → a dst_ token valid 1 h. An unknown device, a wrong secret or a deleted device is 401.",
  auth: "none",
  idempotent: false,
  body: ZDeviceTokenInput,
  errors: ["UNAUTHORIZED"],
  response: ZDeviceToken,
  handler: ({ body }) => exchangeDeviceSecret(body.deviceId, body.deviceSecret),
});
