import type { AnyOperation } from "../define.ts";
import projectCreate from "./project-create.ts";
import projectDelete from "./project-delete.ts";
import projectGet from "./project-get.ts";
import projectList from "./project-list.ts";
import projectSubscribe from "./project-subscribe.ts";
import projectUpdate from "./project-update.ts";

export const projectOperations: AnyOperation[] = [projectList, projectCreate, projectGet, projectUpdate, projectDelete, projectSubscribe];
