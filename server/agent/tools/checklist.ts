import { tool } from "ai";
import { z } from "zod";
import { setBlockText, toggleChecked } from "../../services/todos/blocks.ts";
import type { AgentToolDef } from "./types.ts";

const ZItemText = z.string().trim().min(1).max(500);

/** `checklist`: adds actionable checklist items to the reply, or updates (checks, renames) existing ones of this todo. */
export const checklistTool: AgentToolDef = {
  name: "checklist",
  create: (ctx) =>
    tool({
      description:
        "Add actionable checklist items to your reply (one per step the user can tick off), or update items of this todo by their blockId: check or uncheck them, or change their text.",
      inputSchema: z
        .object({
          add: z.array(ZItemText).max(50).optional().describe("New items, in order"),
          update: z
            .array(z.object({ blockId: z.string().min(1).max(128), checked: z.boolean().optional(), text: ZItemText.optional() }))
            .max(50)
            .optional()
            .describe("Existing items of this todo to change"),
        })
        .refine((v) => (v.add?.length ?? 0) + (v.update?.length ?? 0) > 0, "give items to add or to update"),
      execute: async ({ add = [], update = [] }) => {
        const added: { blockId: string; text: string }[] = [];
        for (const text of add) {
          const block = await ctx.steps.add({ type: "checklist_item", actionable: true, content: { text } });
          added.push({ blockId: block.id, text });
        }
        for (const u of update) {
          if (u.text !== undefined) await setBlockText(ctx.caller, ctx.todo.id, u.blockId, u.text);
          if (u.checked !== undefined) await toggleChecked(ctx.caller, ctx.todo.id, u.blockId, u.checked);
        }
        return { added, updated: update.map((u) => u.blockId) };
      },
    }),
};
