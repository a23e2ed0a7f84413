// The agent's tools: each is one file exporting an AgentToolDef (a zod-typed AI SDK tool made for
// one turn), listed in AGENT_TOOLS. A tool acts as the todo's owner through the same services and
// access checks as the API, so it can do nothing the owner could not do with a request.
import type { ToolSet } from "ai";
import type { Caller } from "../../auth/caller.ts";
import { db } from "../../runtime.ts";
import type { AgentToolDef, ToolContext } from "./types.ts";
import { checklistTool } from "./checklist.ts";
import { recallTool, rememberTool } from "./memory.ts";
import { scheduleFollowupTool } from "./schedule-followup.ts";
import { shellTool } from "./shell.ts";
import { showTool } from "./show.ts";
import { spawnSubtodosTool } from "./spawn-subtodos.ts";

export type { AgentToolDef, ToolContext } from "./types.ts";

/** Every tool the agent may be offered; adding one is one file and one line here. */
export const AGENT_TOOLS: readonly AgentToolDef[] = [checklistTool, scheduleFollowupTool, spawnSubtodosTool, rememberTool, recallTool, shellTool, showTool];

/** The tools of one turn, as the todo's owner. */
export async function buildTools(opts: Omit<ToolContext, "caller">, defs: readonly AgentToolDef[] = AGENT_TOOLS): Promise<ToolSet> {
  const owner = await db().user.findUniqueOrThrow({ where: { id: opts.todo.userId }, select: { id: true, email: true, name: true } });
  // Not an administrator, whatever the owner is: a tool reaches what the owner's membership gives.
  const caller: Caller = { credential: "apiKey", userId: owner.id, email: owner.email, name: owner.name, isAdmin: false, todoScope: null, agent: true };
  const ctx: ToolContext = { ...opts, caller };
  const tools: ToolSet = {};
  for (const def of defs) {
    if (def.available && !(await def.available(ctx))) continue;
    const made = def.create(ctx);
    const run = made.execute;
    // The call's step block comes first, before whatever the tool adds to the reply.
    tools[def.name] = run
      ? {
          ...made,
          execute: async (input: unknown, options: Parameters<typeof run>[1]) => {
            await ctx.steps.called(options.toolCallId, def.name, input);
            return run(input, options);
          },
        }
      : made;
  }
  return tools;
}
