import type { Caller } from "../../auth/caller.ts";
import type { TProjectBrandResponse } from "../../../lib/schemas/projects.ts";
import { notFound } from "../../http/errors.ts";
import { db } from "../../runtime.ts";
import { projectRole } from "../access.ts";

/**
 * The brand page of a project: anyone (also without a credential) for a public project, otherwise
 * whoever may read it. A private project the caller cannot read answers exactly like a missing one.
 */
export async function getProjectBrand(caller: Caller | null, projectId: string): Promise<TProjectBrandResponse> {
  const project = await db().project.findUnique({ where: { id: projectId }, select: { id: true, isPublic: true, brandMarkdown: true } });
  if (!project) throw notFound("Project");
  if (!project.isPublic && !(caller && (await projectRole(caller, projectId)))) throw notFound("Project");
  return { projectId: project.id, markdown: project.brandMarkdown };
}
