import { ZDevice } from "../../../lib/schemas/devices.ts";
import { getCloudDevice } from "../../services/devices/cloud.ts";
import { ANY_CREDENTIAL, defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "device_cloud",
  method: "GET",
  path: "/devices/cloud",
  tag: "Devices",
  summary: "Your hosted cloud device",
  description:
    "Null while none is alive: never provisioned, still booting, or no longer what your plan includes (after a downgrade; device_resyncCloud then removes or resizes it). device_resyncCloud starts one; `cloud` gives its size.",
  auth: ANY_CREDENTIAL,
  response: ZDevice.nullable(),
  handler: ({ caller }) => getCloudDevice(caller),
});
