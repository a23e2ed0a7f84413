import type { AnyOperation } from "../../http/define.ts";
import settingsGetAgentProviders from "./settings-get-agent-providers.ts";
import settingsGetProjectSettings from "./settings-get-project-settings.ts";
import settingsGetUserSettings from "./settings-get-user-settings.ts";
import settingsUpdateBillingInfo from "./settings-update-billing-info.ts";
import settingsUpdateProjectSettings from "./settings-update-project-settings.ts";
import settingsUpdateUserSettings from "./settings-update-user-settings.ts";

export const settingsOperations = [
  settingsGetUserSettings,
  settingsUpdateUserSettings,
  settingsUpdateBillingInfo,
  settingsGetProjectSettings,
  settingsUpdateProjectSettings,
  settingsGetAgentProviders,
] satisfies AnyOperation[];
