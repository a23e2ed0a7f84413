import { newTodoAgentSettings, type TAgentSettings } from "../../../lib/schemas/agent.ts";
import type { Caller } from "../../auth/caller.ts";
import { db } from "../../runtime.ts";
import { projectSettingsFromStored } from "../settings/project-settings.ts";
import { agentSettingsFromStored } from "../settings/stored.ts";
import { appSettingsFromStored } from "../settings/user-settings.ts";

/** What a new todo takes when its request leaves it out: the project's default group, and its agent settings (newTodoAgentSettings). */
export async function todoDefaults(caller: Caller, projectId: string): Promise<{ groupSlug: string | null; agentSettings: TAgentSettings | null }> {
  const { userId } = caller;
  const [project, mapping, user] = await Promise.all([
    db().project.findUnique({ where: { id: projectId }, select: { settings: true } }),
    db().projectAgentMapping.findUnique({ where: { userId_projectId: { userId, projectId } }, select: { settings: true } }),
    db().userSettings.findUnique({ where: { userId }, select: { settings: true } }),
  ]);
  const projectSettings = projectSettingsFromStored(project?.settings);
  const agentSettings = newTodoAgentSettings({
    mapping: agentSettingsFromStored(mapping?.settings),
    projectDefaults: projectSettings.agentDefaults,
    userDefault: appSettingsFromStored(user?.settings).defaultAgent,
  });
  return { groupSlug: projectSettings.defaultGroupSlug, agentSettings };
}
