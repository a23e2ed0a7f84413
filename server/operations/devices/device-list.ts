import { z } from "zod";
import { ZDevice } from "../../../lib/schemas/devices.ts";
import { listDevices } from "../../services/devices/devices.ts";
import { ANY_CREDENTIAL, defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "device_list",
  method: "GET",
  path: "/devices",
  tag: "Devices",
  summary: "List your bridge-backed devices",
  description: "`online` is true exactly while a Socket.IO connection authenticated with one of the device's dst_ tokens is open, in any server process.",
  auth: ANY_CREDENTIAL,
  response: z.array(ZDevice),
  handler: ({ caller }) => listDevices(caller),
});
