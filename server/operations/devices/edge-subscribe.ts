import { ZEdgeIdInput, ZEdgeParams } from "../../../lib/schemas/devices.ts";
import { ZNull } from "../../../lib/schemas/common.ts";
import { subscribeEdge } from "../../services/devices/edges.ts";
import { USER_CREDENTIAL, defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "edge_subscribe",
  method: "POST",
  path: "/edges/{edgeId}/subscribe",
  tag: "Devices",
  summary: "Subscribe a Socket.IO connection to the edge's updates",
  description: "Pass the connection's id in `X-Socket-Id` (or `socketId` in the body); it then gets `edge.updated`.",
  auth: USER_CREDENTIAL,
  errors: ["CONFLICT"],
  rateLimit: "subscribe",
  idempotent: false,
  params: ZEdgeParams,
  body: ZEdgeIdInput,
  response: ZNull,
  handler: ({ caller, params, socketId }) => subscribeEdge(caller, params.edgeId, socketId),
});
