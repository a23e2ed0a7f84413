import { ZEdgeParams, ZEdgeUpdateInput } from "../../../lib/schemas/devices.ts";
import { ZNull } from "../../../lib/schemas/common.ts";
import { updateEdge } from "../../services/devices/edges.ts";
import { USER_CREDENTIAL, defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "edge_update",
  method: "PATCH",
  path: "/edges/{edgeId}",
  tag: "Devices",
  summary: "Rename an edge or replace its metadata",
  description: "Subscribers of the edge (edge_subscribe) and your own connections get `edge.updated`.",
  auth: USER_CREDENTIAL,
  params: ZEdgeParams,
  body: ZEdgeUpdateInput,
  response: ZNull,
  handler: ({ caller, params, body }) => updateEdge(caller, params.edgeId, body),
});
