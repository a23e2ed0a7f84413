import { tool } from "ai";
import { z } from "zod";
import type { TAgentSettings } from "../../../lib/schemas/agent.ts";
import type { Prisma } from "../../db/generated/client.ts";
import { db } from "../../runtime.ts";
import { linkSubTodos } from "../../services/todos/blocks.ts";
import { changeTodo, setStatus, subTodoSettled } from "../../services/todos/lifecycle.ts";
import { asObject } from "../../services/todos/serialize.ts";
import { linksOf } from "../../services/todos/sub-todos.ts";
import { createTodo } from "../../services/todos/todos.ts";
import type { AgentToolDef } from "./types.ts";

/** How deep sub-todos nest (a todo at this depth is not offered the tool), and how many one todo may start. */
export const MAX_SPAWN_DEPTH = 2;
export const MAX_FANOUT = 5;
export const MAX_SUBTODOS_PER_TODO = 10;
export const SPAWN_TOOL = "spawn_subtodos";

/**
 * `spawn_subtodos`: creates sub-agent todos in the same project (as the owner, through the todo
 * service and its access and billing checks), links them to this call's block (`subTodoIds`, no
 * duplicates), and starts them. The turn ends with the call; the todo stays RUNNING and waits
 * (holding no turn), and continues with the children's results once all have settled.
 */
export const spawnSubtodosTool: AgentToolDef = {
  name: SPAWN_TOOL,
  available: async (ctx) => {
    const row = await db().todo.findUnique({ where: { id: ctx.todo.id }, select: { workflow: true } });
    const links = linksOf(row?.workflow);
    return (links.spawnDepth ?? 0) < MAX_SPAWN_DEPTH && (links.subTodos?.length ?? 0) < MAX_SUBTODOS_PER_TODO;
  },
  create: (ctx) =>
    tool({
      description: `Split the work: start up to ${MAX_FANOUT} sub-agent todos in this project, each with its own task. Your turn ends with this call; when all of them have finished you continue with their results.`,
      inputSchema: z.object({
        todos: z
          .array(z.object({ content: z.string().trim().min(1).max(5000).describe("The sub-todo's task, complete on its own") }))
          .min(1)
          .max(MAX_FANOUT),
      }),
      execute: async ({ todos }, { toolCallId }) => {
        const parent = await db().todo.findUniqueOrThrow({ where: { id: ctx.todo.id }, select: { agentSettings: true, workflow: true } });
        const links = linksOf(parent.workflow);
        const depth = (links.spawnDepth ?? 0) + 1;
        if (depth > MAX_SPAWN_DEPTH) throw new Error(`sub-todos nest at most ${MAX_SPAWN_DEPTH} deep`);
        if ((links.subTodos?.length ?? 0) + todos.length > MAX_SUBTODOS_PER_TODO) throw new Error(`a todo starts at most ${MAX_SUBTODOS_PER_TODO} sub-todos`);
        const settings = asObject(parent.agentSettings) as TAgentSettings;
        // Created waiting (TODO), so the parent records them all before any can settle.
        const ids: string[] = [];
        for (const t of todos) {
          const child = await createTodo(ctx.caller, ctx.todo.projectId, { content: t.content, startProcessing: false, ...(Object.keys(settings).length ? { agentSettings: settings } : {}) });
          ids.push(child.id);
        }
        const blockId = await ctx.steps.blockOf(toolCallId);
        if (blockId) await linkSubTodos(ctx.caller, ctx.todo.id, blockId, ids);
        await changeTodo(ctx.todo.id, async (tx, current) => {
          const w = asObject(current.workflow);
          const now = linksOf(w);
          await tx.todo.update({ where: { id: current.id }, data: { workflow: { ...w, subTodos: [...(now.subTodos ?? []), ...ids], waitingFor: [...(now.waitingFor ?? []), ...ids] } as Prisma.InputJsonValue } });
        });
        for (const id of ids) {
          await changeTodo(id, async (tx, child, fx) => {
            if (child.status !== "TODO") return;
            await setStatus(tx, child, fx, "RUNNING", { workflow: { ...asObject(child.workflow), parentTodoId: ctx.todo.id, spawnDepth: depth } as Prisma.InputJsonValue });
          });
        }
        // A child that could not start (or settled at once) must not leave the parent waiting.
        await subTodoSettled(ctx.todo.id);
        return { subTodoIds: ids, note: "Started. Your turn ends here; their results come to you when all have finished." };
      },
    }),
};
