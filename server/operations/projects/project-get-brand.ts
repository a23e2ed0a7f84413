import { ZProjectBrandResponse, ZProjectParams } from "../../../lib/schemas/projects.ts";
import { getProjectBrand } from "../../services/projects/brand.ts";
import { defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "project_getBrand",
  method: "GET",
  path: "/projects/{projectId}/brand",
  tag: "Projects",
  summary: "The project's brand page markdown",
  description:
    "No credential needed for a public project (served on every base). Otherwise the caller needs read access; a private project without it, or without a credential, is 404 exactly like a missing one.",
  auth: "none",
  params: ZProjectParams,
  response: ZProjectBrandResponse,
  handler: ({ caller, params }) => getProjectBrand(caller, params.projectId),
});
