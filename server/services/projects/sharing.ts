import type { Caller } from "../../auth/caller.ts";
import type { TProject, TShareProjectInput } from "../../../lib/schemas/projects.ts";
import { ApiError, badRequest } from "../../http/errors.ts";
import { db, runtime } from "../../runtime.ts";
import { getProjectOrThrow } from "../access.ts";
import { toProject, toProjectFull } from "./serialize.ts";

/** The account with this email, compared case-insensitively (an exact match wins). */
async function findUserByEmail(email: string): Promise<{ id: string } | null> {
  const rows = await db().user.findMany({
    where: { email: { equals: email, mode: "insensitive" } },
    select: { id: true, email: true },
    orderBy: { createdAt: "asc" },
    take: 5,
  });
  return rows.find((u) => u.email === email) ?? rows.find((u) => u.email === email.toLowerCase()) ?? rows[0] ?? null;
}

/**
 * Shares a project with another account (owner only), or changes the role of an existing share.
 * Sharing with an email that has no account is 404 (never a silent success); with yourself, 400.
 */
export async function shareProject(caller: Caller, projectId: string, input: TShareProjectInput): Promise<TProject> {
  const { project } = await getProjectOrThrow(caller, projectId, "owner");
  const user = await findUserByEmail(input.email);
  if (!user) throw new ApiError("NOT_FOUND", "No user with that email");
  if (user.id === project.ownerId)
    throw badRequest("You own this project; share it with someone else", [{ path: "body.email", message: "is the project owner's own email", code: "custom" }]);
  await db().projectShare.upsert({
    where: { projectId_userId: { projectId, userId: user.id } },
    create: { projectId, userId: user.id, role: input.role },
    update: { role: input.role },
  });
  // To the project's room, and to the sharee's own connections so their project list can refresh.
  runtime().bus.publish({
    type: "project.updated",
    projectId,
    userId: user.id,
    data: { action: "shared", userId: user.id, role: input.role, project: toProjectFull(project, "owner") },
  });
  return toProject(project);
}
