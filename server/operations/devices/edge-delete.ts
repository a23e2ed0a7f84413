import { ZEdgeIdInput, ZEdgeParams } from "../../../lib/schemas/devices.ts";
import { ZNull } from "../../../lib/schemas/common.ts";
import { deleteEdge } from "../../services/devices/edges.ts";
import { USER_CREDENTIAL, defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "edge_delete",
  method: "DELETE",
  path: "/edges/{edgeId}",
  tag: "Devices",
  summary: "Delete an edge",
  description: "Also deletes the API key its login made; that key's connections close before the answer.",
  auth: USER_CREDENTIAL,
  params: ZEdgeParams,
  body: ZEdgeIdInput,
  response: ZNull,
  handler: ({ caller, params }) => deleteEdge(caller, params.edgeId),
});
