import { ZDevice } from "../../../lib/schemas/devices.ts";
import { ZEmptyInput } from "../../../lib/schemas/common.ts";
import { resyncCloudDevice } from "../../services/devices/cloud.ts";
import { USER_CREDENTIAL, defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "device_resyncCloud",
  method: "POST",
  path: "/devices/cloud/resync",
  tag: "Devices",
  summary: "Reconcile the cloud device to your plan; boot one if none is alive",
  description: "Answers the device once it is alive, null while it boots (poll device_cloud).",
  auth: USER_CREDENTIAL,
  body: ZEmptyInput,
  response: ZDevice.nullable(),
  handler: ({ caller }) => resyncCloudDevice(caller),
});
