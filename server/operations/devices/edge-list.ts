import { z } from "zod";
import { ZEdge } from "../../../lib/schemas/devices.ts";
import { listEdges } from "../../services/devices/edges.ts";
import { USER_CREDENTIAL, defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "edge_list",
  method: "GET",
  path: "/edges",
  tag: "Devices",
  summary: "List your edges",
  description: "Edges are created by an `edge` command-line login at approval; oldest first.",
  auth: USER_CREDENTIAL,
  response: z.array(ZEdge),
  handler: ({ caller }) => listEdges(caller),
});
