import type { Caller } from "../../auth/caller.ts";
import { checkAgentSettings } from "../../agent/policy.ts";
import type { TAgentSettings } from "../../../lib/schemas/agent.ts";
import { GROUP_SLUG_PATTERN } from "../../../lib/schemas/groups.ts";
import type { TProjectSettingsFull, TProjectSettingsUpdateInput } from "../../../lib/schemas/settings.ts";
import type { Prisma } from "../../db/generated/client.ts";
import { ApiError, notFound } from "../../http/errors.ts";
import { db, runtime } from "../../runtime.ts";
import { getProjectOrThrow, needToChange, requireProjectAccess } from "../access.ts";
import { agentSettingsFromStored, isRecord } from "./stored.ts";
import { lockRow } from "../../db/lock.ts";

/** The settings kept in Project.settings, each at its default (null) when missing or invalid. */
export function projectSettingsFromStored(raw: unknown): { defaultGroupSlug: string | null; agentDefaults: TAgentSettings | null } {
  const s = isRecord(raw) ? raw : {};
  return {
    defaultGroupSlug: typeof s.defaultGroupSlug === "string" && GROUP_SLUG_PATTERN.test(s.defaultGroupSlug) ? s.defaultGroupSlug : null,
    agentDefaults: agentSettingsFromStored(s.agentDefaults),
  };
}

/** The project's settings and the caller's own agent mapping for it. Read access. */
export async function getProjectSettings(caller: Caller, projectId: string): Promise<TProjectSettingsFull> {
  const { project } = await getProjectOrThrow(caller, projectId, "read");
  const mapping = await db().projectAgentMapping.findUnique({
    where: { userId_projectId: { userId: caller.userId, projectId } },
    select: { settings: true },
  });
  return {
    projectId: project.id,
    brandMarkdown: project.brandMarkdown,
    ...projectSettingsFromStored(project.settings),
    agentSettings: agentSettingsFromStored(mapping?.settings),
    updatedAt: project.updatedAt.getTime(),
  };
}

/** Changes the fields given; the others keep their value. Write access; the agent defaults are the owner's. */
export async function updateProjectSettings(caller: Caller, projectId: string, patch: TProjectSettingsUpdateInput): Promise<null> {
  checkAgentSettings([patch.agentDefaults, "body.agentDefaults"]);
  await requireProjectAccess(caller, projectId, needToChange("projectSettings", patch));
  await db().$transaction(async (tx) => {
    // Serialises concurrent partial updates of the project's settings JSON.
    await lockRow(tx, "Project", projectId);
    const row = await tx.project.findUnique({ where: { id: projectId }, select: { settings: true } });
    if (!row) throw notFound("Project");
    if (patch.defaultGroupSlug) {
      const group = await tx.todoGroup.findUnique({ where: { projectId_slug: { projectId, slug: patch.defaultGroupSlug } }, select: { id: true } });
      if (!group) throw new ApiError("NOT_FOUND", `No group "${patch.defaultGroupSlug}" in this project`);
    }
    const settings = {
      ...(isRecord(row.settings) ? row.settings : {}),
      ...(patch.defaultGroupSlug !== undefined ? { defaultGroupSlug: patch.defaultGroupSlug } : {}),
      ...(patch.agentDefaults !== undefined ? { agentDefaults: patch.agentDefaults } : {}),
    } as Prisma.InputJsonObject;
    await tx.project.update({
      where: { id: projectId },
      data: { settings, ...(patch.brandMarkdown !== undefined ? { brandMarkdown: patch.brandMarkdown } : {}) },
    });
  });
  runtime().bus.publish({ type: "project.updated", projectId, data: { action: "settings" } });
  return null;
}
