import { tool } from "ai";
import { z } from "zod";
import { addMessage } from "../../services/todos/messages.ts";
import type { AgentToolDef } from "./types.ts";

/** The furthest a follow-up may be scheduled. */
export const MAX_FOLLOWUP_MS = 365 * 24 * 60 * 60 * 1000;

/** `schedule_followup`: a message on this todo at a later time, which then starts the agent (the schedule-message service). */
export const scheduleFollowupTool: AgentToolDef = {
  name: "schedule_followup",
  create: (ctx) =>
    tool({
      description: "Schedule a follow-up message on this todo: at that time the message is added and you are started again to act on it.",
      inputSchema: z.object({
        message: z.string().trim().min(1).max(5000).describe("What you should do or check then, written to yourself"),
        inMinutes: z.number().int().min(1).max(MAX_FOLLOWUP_MS / 60_000).optional().describe("How long from now"),
        at: z.iso.datetime({ offset: true }).optional().describe("Or an exact time (ISO 8601)"),
      }),
      execute: async ({ message, inMinutes, at }) => {
        const when = at !== undefined ? Date.parse(at) : Date.now() + (inMinutes ?? 60) * 60_000;
        if (!(when > Date.now())) throw new Error("the follow-up must be in the future");
        if (when - Date.now() > MAX_FOLLOWUP_MS) throw new Error("the follow-up must be within a year");
        const scheduled = await addMessage(ctx.caller, ctx.todo.id, { content: message, startProcessing: true, scheduledAt: when });
        return { messageId: scheduled.id, scheduledAt: new Date(when).toISOString() };
      },
    }),
};
