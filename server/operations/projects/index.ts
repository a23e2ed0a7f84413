import type { AnyOperation } from "../../http/define.ts";
import projectCards from "./project-cards.ts";
import projectCreate from "./project-create.ts";
import projectDelete from "./project-delete.ts";
import projectGet from "./project-get.ts";
import projectGetBrand from "./project-get-brand.ts";
import projectGetMembers from "./project-get-members.ts";
import projectGroups from "./project-groups.ts";
import projectList from "./project-list.ts";
import projectShare from "./project-share.ts";
import projectSubscribe from "./project-subscribe.ts";
import projectUpdate from "./project-update.ts";
import projectUpsertGroup from "./project-upsert-group.ts";

export const projectOperations = [
  projectList,
  projectCreate,
  projectGetBrand,
  projectGet,
  projectUpdate,
  projectDelete,
  projectShare,
  projectGetMembers,
  projectSubscribe,
  projectGroups,
  projectCards,
  projectUpsertGroup,
] satisfies AnyOperation[];
