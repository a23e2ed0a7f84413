import { ZDevice } from "../../../lib/schemas/devices.ts";
import { getCloudDevice } from "../../services/devices/cloud.ts";
import { ANY_CREDENTIAL, defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "device_cloud",
  method: "GET",
  path: "/devices/cloud",
  tag: "Devices",
  summary: "Your hosted cloud device",
  description: "Null while none is alive (never provisioned, or still booting); device_resyncCloud starts one.",
  auth: ANY_CREDENTIAL,
  response: ZDevice.nullable(),
  handler: ({ caller }) => getCloudDevice(caller),
});
