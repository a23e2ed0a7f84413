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
  description:
    "Reconciles your hosted cloud device to your plan: Free includes none, Pro a small one (2 vCPUs, 4096 MB memory, 20 GB disk), Max a large one (4 vCPUs, 8192 MB, 50 GB). " +
    "With no device alive one is booted; a device of another size (the plan changed) is stopped and replaced. Answers the device once it is alive, null while it boots (poll device_cloud). " +
    "On a plan without a cloud device any device is stopped and removed (its tokens and connections too), and the answer is 402 PAYMENT_REQUIRED with `data.tier`.",
  errors: ["PAYMENT_REQUIRED"],
  auth: USER_CREDENTIAL,
  body: ZEmptyInput,
  response: ZDevice.nullable(),
  handler: ({ caller }) => resyncCloudDevice(caller),
});
