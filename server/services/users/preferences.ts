import type { Caller } from "../../auth/caller.ts";
import { checkAgentSettings } from "../../agent/policy.ts";
import type { TProjectAgentSelectionInput } from "../../../lib/schemas/settings.ts";
import { db } from "../../runtime.ts";
import { requireProjectAccess } from "../access.ts";

/** The project the user lands on at `/`: any project they can read. */
export async function setDefaultProject(caller: Caller, projectId: string): Promise<null> {
  await requireProjectAccess(caller, projectId, "read");
  await db().user.update({ where: { id: caller.userId }, data: { defaultProjectId: projectId } });
  return null;
}

/** The caller's own default agent settings for new todos in a project (read access is enough); null removes them. */
export async function updateProjectAgentMapping(caller: Caller, input: TProjectAgentSelectionInput): Promise<null> {
  const { projectId, agentSettings } = input;
  checkAgentSettings([agentSettings, "body.agentSettings"]);
  await requireProjectAccess(caller, projectId, "read");
  const key = { userId: caller.userId, projectId };
  if (agentSettings === null) {
    await db().projectAgentMapping.deleteMany({ where: key });
  } else {
    await db().projectAgentMapping.upsert({ where: { userId_projectId: key }, create: { ...key, settings: agentSettings }, update: { settings: agentSettings } });
  }
  return null;
}
