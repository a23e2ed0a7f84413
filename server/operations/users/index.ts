import type { AnyOperation } from "../../http/define.ts";
import userDeleteAccount from "./user-delete-account.ts";
import userExportData from "./user-export-data.ts";
import userProfile from "./user-profile.ts";
import userSetDefaultProject from "./user-set-default-project.ts";
import userUpdateProjectAgentMapping from "./user-update-project-agent-mapping.ts";

export const userOperations = [userProfile, userExportData, userDeleteAccount, userSetDefaultProject, userUpdateProjectAgentMapping] satisfies AnyOperation[];
