import { ZDeviceParams, ZIdInput } from "../../../lib/schemas/devices.ts";
import { ZNull } from "../../../lib/schemas/common.ts";
import { deleteDevice } from "../../services/devices/devices.ts";
import { USER_CREDENTIAL, defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "device_delete",
  method: "DELETE",
  path: "/devices/{id}",
  tag: "Devices",
  summary: "Delete a device",
  description: "Revokes its secret and every dst_ token at once; its open connections close before the answer.",
  auth: USER_CREDENTIAL,
  params: ZDeviceParams,
  body: ZIdInput,
  response: ZNull,
  handler: ({ caller, params }) => deleteDevice(caller, params.id),
});
