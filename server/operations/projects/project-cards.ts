import { z } from "zod";
import { ZRendererCardInfo } from "../../../lib/schemas/cards.ts";
import { ZProjectParams } from "../../../lib/schemas/projects.ts";
import { listCards } from "../../services/projects/cards.ts";
import { ANY_CREDENTIAL, defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "project_cards",
  method: "GET",
  path: "/projects/{projectId}/cards",
  tag: "Projects",
  summary: "The project's renderer cards (reusable HTML renderers for show blocks)",
  description: "Oldest first. Read access.",
  auth: ANY_CREDENTIAL,
  params: ZProjectParams,
  response: z.array(ZRendererCardInfo),
  handler: ({ caller, params }) => listCards(caller, params.projectId),
});
