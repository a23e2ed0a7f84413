import { ZDevice, ZDeviceParams, ZWorkspacePathsInput } from "../../../lib/schemas/devices.ts";
import { setWorkspacePaths } from "../../services/devices/devices.ts";
import { ANY_CREDENTIAL, defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "device_setWorkspacePaths",
  method: "PUT",
  path: "/devices/{id}/workspacepaths",
  tag: "Devices",
  summary: "Replace the device's workspace roots",
  description:
    "The body is the new list of paths (a JSON array), replacing the old one in one write. Paths are absolute (POSIX, or a Windows drive path), normalised; `/`, a drive root and any `..` segment are 400. A device token may set its own device's paths only (403 otherwise). Answers the device.",
  auth: ANY_CREDENTIAL,
  params: ZDeviceParams,
  body: ZWorkspacePathsInput,
  errors: ["FORBIDDEN"],
  response: ZDevice,
  handler: ({ caller, params, body }) => setWorkspacePaths(caller, params.id, body),
});
