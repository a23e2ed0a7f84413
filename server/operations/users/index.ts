import type { AnyOperation } from "../../http/define.ts";
import userProfile from "./user-profile.ts";
import userSetDefaultProject from "./user-set-default-project.ts";
import userUpdateProjectAgentMapping from "./user-update-project-agent-mapping.ts";

export const userOperations = [userProfile, userSetDefaultProject, userUpdateProjectAgentMapping] satisfies AnyOperation[];
