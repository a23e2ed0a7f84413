import { ZEdge, ZEdgeParams } from "../../../lib/schemas/devices.ts";
import { getEdge } from "../../services/devices/edges.ts";
import { USER_CREDENTIAL, defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "edge_get",
  method: "GET",
  path: "/edges/{edgeId}",
  tag: "Devices",
  summary: "Get an edge",
  description: "404 for an edge that is not yours.",
  auth: USER_CREDENTIAL,
  params: ZEdgeParams,
  response: ZEdge,
  handler: ({ caller, params }) => getEdge(caller, params.edgeId),
});
