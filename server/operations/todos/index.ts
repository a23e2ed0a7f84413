import type { AnyOperation } from "../../http/define.ts";
import projectCreateTodo from "./project-create-todo.ts";
import todoList from "./todo-list.ts";
import projectStartFromTemplate from "./project-start-from-template.ts";
import todoGet from "./todo-get.ts";
import todoUpdate from "./todo-update.ts";
import todoDelete from "./todo-delete.ts";
import todoGetMessages from "./todo-get-messages.ts";
import todoAddMessage from "./todo-add-message.ts";
import todoUpdateMessage from "./todo-update-message.ts";
import todoUpdateAndStart from "./todo-update-and-start.ts";
import todoUpdateStatus from "./todo-update-status.ts";
import todoLinkBlockSubTodo from "./todo-link-block-sub-todo.ts";
import todoToggleBlockChecked from "./todo-toggle-block-checked.ts";
import todoDecideShell from "./todo-decide-shell.ts";
import todoUpdateAgentMapping from "./todo-update-agent-mapping.ts";
import todoSubscribe from "./todo-subscribe.ts";
import todoGetWorkflow from "./todo-get-workflow.ts";
import todoUpdateWorkflow from "./todo-update-workflow.ts";
import todoGetPublic from "./todo-get-public.ts";
import taskGetPending from "./task-get-pending.ts";
import todoReportAiOutput from "./todo-report-ai-output.ts";

export const todoOperations = [
  projectCreateTodo,
  todoList,
  projectStartFromTemplate,
  todoGet,
  todoUpdate,
  todoDelete,
  todoGetMessages,
  todoAddMessage,
  todoUpdateMessage,
  todoUpdateAndStart,
  todoUpdateStatus,
  todoLinkBlockSubTodo,
  todoToggleBlockChecked,
  todoDecideShell,
  todoUpdateAgentMapping,
  todoSubscribe,
  todoGetWorkflow,
  todoUpdateWorkflow,
  todoGetPublic,
  taskGetPending,
  todoReportAiOutput,
] satisfies AnyOperation[];
