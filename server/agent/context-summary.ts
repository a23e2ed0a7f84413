// Long conversations: when a turn's history passes a share of the model's context window, the older
// messages are summarised (by the turn's own model) into the workflow's context summary, which
// then stands in for them: the turn (and every later one) sends the summary and the messages after
// it. The turn that first uses a summary marks it used (TodoWorkflow.contextSummaryUsed).
import type { LanguageModelV3 } from "@ai-sdk/provider";
import { generateText } from "ai";
import type { Prisma } from "../db/generated/client.ts";
import { db } from "../runtime.ts";
import { changeTodo } from "../services/todos/lifecycle.ts";
import { asObject, toWorkflow } from "../services/todos/serialize.ts";
import type { Workflow } from "./turn-lease.ts";

/** A summary is made when the history passes this share of the window (room for the reply and tools). */
export const SUMMARY_AT = 0.6;
/** The newest messages always go in full. */
export const KEEP_RECENT = 4;

export const SUMMARY_PROMPT =
  "Summarise the conversation below for yourself, to continue it later without it: the user's goals, decisions made, facts and numbers given, open questions and what was promised. Be complete but brief; write plain prose.";

/** What goes before the summary in the turn's system text. */
export const SUMMARY_HEADING = "Summary of the conversation so far:";

/** Tokens of a text, estimated (about 4 characters a token for the models served here). */
export const estimateTokens = (text: string): number => Math.ceil(text.length / 4);

/** The seq through which the workflow's summary covers the conversation, or null. */
export function summaryThrough(w: Workflow): bigint | null {
  return typeof w.contextSummaryThrough === "string" && w.contextSummary ? BigInt(w.contextSummaryThrough) : null;
}

/**
 * The todo's workflow (`workflow`, or read), and the finished messages a turn writing `replyId` sends the model after
 * the summary (all of them while there is none), oldest first.
 */
export async function unsummarised(todoId: string, replyId: string, workflow?: Workflow) {
  // The caller may have the workflow at hand (read under the lock that opened the turn).
  const w = workflow ?? (asObject((await db().todo.findUniqueOrThrow({ where: { id: todoId }, select: { workflow: true } })).workflow) as Workflow);
  const through = summaryThrough(w);
  const rows = await db().message.findMany({
    where: { todoId, id: { not: replyId }, state: "DONE", role: { in: ["user", "assistant", "system"] }, ...(through !== null ? { seq: { gt: through } } : {}) },
    orderBy: { seq: "asc" },
    select: { seq: true, role: true, content: true },
  });
  return { w, rows, through };
}

/**
 * Summarises the older messages when the history of the turn writing `replyId` is too long for a
 * `window`-token model. Resolves true when it wrote a new summary.
 */
export async function summariseIfLong(todoId: string, replyId: string, model: LanguageModelV3, window: number, opts: { signal?: AbortSignal; maxRetries?: number } = {}): Promise<boolean> {
  const { w, rows, through } = await unsummarised(todoId, replyId);
  const total = estimateTokens(w.contextSummary ?? "") + rows.reduce((n, r) => n + estimateTokens(r.content) + 4, 0);
  if (total <= window * SUMMARY_AT) return false;
  const older = rows.slice(0, Math.max(0, rows.length - KEEP_RECENT));
  if (older.length === 0) return false;
  // What the summary reads is bounded too: the newest part of the older messages that fits.
  const budget = Math.floor(window * SUMMARY_AT * 4);
  let transcript = older.map((r) => `${r.role}: ${r.content}`).join("\n\n");
  if (transcript.length > budget) transcript = transcript.slice(transcript.length - budget);
  const previous = through !== null && w.contextSummary ? `Summary of what came before:\n${w.contextSummary}\n\n` : "";
  const { text } = await generateText({ model, system: SUMMARY_PROMPT, prompt: `${previous}Conversation:\n${transcript}`, maxRetries: opts.maxRetries ?? 2, abortSignal: opts.signal });
  const summary = text.trim();
  if (!summary) return false;
  await changeTodo(todoId, async (tx, current, fx) => {
    const workflow = { ...asObject(current.workflow), contextSummary: summary, contextSummaryThrough: older.at(-1)!.seq.toString(), contextSummaryUsed: false };
    await tx.todo.update({ where: { id: todoId }, data: { workflow: workflow as Prisma.InputJsonValue } });
    // The todo's Details panel shows what the agent keeps of the conversation.
    fx.emit("todo.workflow", toWorkflow(todoId, workflow));
  });
  return true;
}
