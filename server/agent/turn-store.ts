// What a turn writes: its reply message, the turn record, and at the end the todo's next status
// (through the lifecycle, the one writer of Todo.status).
import type { TAgentSettings } from "../../lib/schemas/agent.ts";
import { noticeTurnEnded } from "./reply-mail.ts";
import { afterTurn } from "../../lib/todo-lifecycle.ts";
import { Prisma } from "../db/generated/client.ts";
import { newRowId } from "../db/ids.ts";
import { db } from "../runtime.ts";
import { chargeTurn } from "../services/billing/usage.ts";
import { publishTodo } from "../services/todos/events.ts";
import { changeTodo, setStatus, type LockedTodo, type TodoRef } from "../services/todos/lifecycle.ts";
import { asObject, messageWithBlocks, toBlock, toMessage, toWorkflow, type MessageRow } from "../services/todos/serialize.ts";
import { linksOf, SHELL_WAIT_PREFIX } from "../services/todos/sub-todos.ts";
import { blockInsert, mergeBlockContent } from "../services/todos/blocks.ts";
import { unsummarised } from "./context-summary.ts";
import { countTokens } from "./local-reply.ts";
import type { AgentProvider, BlockDraft, ChatMessage, TurnUsage } from "./provider.ts";
import { claimSql, dropLease, holdLease, leaseFor, NO_LEASE, type LeaseHolder, type Turn, type Workflow } from "./turn-lease.ts";
import type { ReplyWriter } from "./reply-writer.ts";

/**
 * The conversation before this turn's reply: the finished messages, and the summary that goes
 * before them (null: none). A summary the agent made stands in for the messages it covers (then
 * come the messages after it); a summary set by hand (todo_updateWorkflow) is sent once, while it
 * is not used.
 */
export async function history(todoId: string, replyId: string, workflow?: Workflow): Promise<{ summary: string | null; messages: ChatMessage[] }> {
  const { w, rows, through } = await unsummarised(todoId, replyId, workflow);
  const summary = w.contextSummary && (through !== null || !w.contextSummaryUsed) ? w.contextSummary : null;
  return { summary, messages: rows.map((r) => ({ role: r.role as ChatMessage["role"], content: r.content })) };
}

/** Message's columns as raw statements return them (MessageRow: its enums as text). */
const MESSAGE_COLUMNS = Prisma.sql`"id", "todoId", "role"::text AS "role", "authorId", "content", "state"::text AS "state", "scheduledAt", "usage", "createdAt", "updatedAt"`;

/** What a todo has waiting once its turn ends: input for a next turn, and scheduled messages. */
type Waiting = { pending: number; scheduled: number };
/** The query that counts them (one row). */
const waitingInput = (todoId: string) => Prisma.sql`
  SELECT (count(*) FILTER (WHERE "state" = 'PENDING'))::int AS "pending", (count(*) FILTER (WHERE "state" = 'SCHEDULED'))::int AS "scheduled"
  FROM "Message" WHERE "todoId" = ${todoId} AND (("role" IN ('user', 'system') AND "state" = 'PENDING') OR "state" = 'SCHEDULED')`;

/** A turn as beginTurn hands it out: `created` when its reply was created just now (empty, no blocks). */
export type OpenedTurn = Turn & { created?: boolean };

/** What beginTurn found: the todo (as locked) with its workflow and the turn to stream (null: nothing waits), or why not. */
export type Begun = { todo: LockedTodo; workflow: Workflow; turn: OpenedTurn | null } | "stopped" | "held" | "busy";

/**
 * In one transaction under the todo's row lock: checks that it still runs, takes the holder's
 * lease (./turn-lease.ts leaseFor, holdLease last) and opens the turn, the one in progress or a new one over the
 * user messages that wait for it. "stopped" when the todo no longer runs (or waits for its
 * sub-todos: the last one to settle starts the next turn), null when it does not exist.
 */
export async function beginTurn(holder: LeaseHolder, todoId: string): Promise<Begun | null> {
  try {
    // Under the row lock: a pause or cancel that committed a moment ago must not get a reply started.
    return await changeTodo(todoId, async (tx, current, fx): Promise<Begun> => {
      if (current.status !== "RUNNING" || linksOf(current.workflow).waitingFor?.length) return "stopped";
      const lease = leaseFor(holder, current);
      if (lease.result !== "ok") return lease.result;
      const w = lease.workflow;
      /** Claims the user's slot and writes the lease (with `workflow`) last: the claim serialises the user's turns until the commit. */
      const hold = async (workflow?: Prisma.InputJsonValue) => {
        if (!(await holdLease(tx, holder, current, lease, workflow))) throw new UserBusy();
      };
      if (w.currentTurn) {
        const open = await tx.message.findFirst({ where: { id: w.currentTurn.messageId, state: "PROCESSING" }, select: { id: true } });
        if (open) {
          await hold();
          return { todo: current, workflow: w, turn: w.currentTurn };
        }
      }
      // The user's messages, and results the system hands the agent (its sub-todos'), taken (DONE),
      // the reply over them created and (taking the lease) the user's slot claimed with the turn in
      // the workflow, in one statement; no row when nothing waits.
      const now = new Date();
      const messageId = newRowId();
      const turnRecord: Turn = { messageId, startedAt: now.getTime(), userMessages: [] };
      const workflow = { ...w, currentTurn: turnRecord, state: "running", turn: Number(w.turn ?? 0) + 1 };
      const written = Prisma.sql`jsonb_set(${JSON.stringify(workflow)}::jsonb, '{currentTurn,userMessages}', (SELECT to_jsonb(array_agg("content" ORDER BY "seq")) FROM "taken"))`;
      const [opened] = await tx.$queryRaw<(MessageRow & { userMessages: string[]; claimed: boolean | null })[]>`
        WITH "taken" AS (
          UPDATE "Message" SET "state" = 'DONE', "updatedAt" = ${now}::timestamp(3)
          WHERE "todoId" = ${todoId} AND "role" IN ('user', 'system') AND "state" = 'PENDING'
          RETURNING "content", "seq"),
        "reply" AS (
          INSERT INTO "Message" ("id", "todoId", "role", "content", "state", "createdAt", "updatedAt")
          SELECT ${messageId}, ${todoId}, 'assistant'::"MessageRole", '', 'PROCESSING'::"MessageState", ${now}::timestamp(3), ${now}::timestamp(3)
          WHERE EXISTS (SELECT 1 FROM "taken")
          RETURNING ${MESSAGE_COLUMNS})
        SELECT "reply".*, (SELECT array_agg("content" ORDER BY "seq") FROM "taken") AS "userMessages",
          ${lease.claim ? claimSql(holder, current, lease, written) : Prisma.sql`NULL::boolean`} AS "claimed"
        FROM "reply"`;
      if (!opened) {
        await hold();
        return { todo: current, workflow: w, turn: null };
      }
      const { userMessages, claimed, ...message } = opened;
      const turn: Turn = { ...turnRecord, userMessages };
      // The lease and the turn in one write: claimed above, or (a lease this process holds) here.
      if (claimed === false) throw new UserBusy();
      const running = { ...workflow, currentTurn: turn };
      if (claimed === null) await hold(running as Prisma.InputJsonValue);
      fx.emit("message.created", toMessage({ ...message, blocks: [] }));
      return { todo: current, workflow: running, turn: { ...turn, created: true } };
    });
  } catch (err) {
    // The user's turns fill their limit: nothing of this transaction stays.
    if (err instanceof UserBusy) return "busy";
    throw err;
  }
}

/** Thrown to roll beginTurn's transaction back when the user has no turn slot left. */
class UserBusy extends Error {}

/**
 * The turn was stopped (a signal, the runner shutting down): everything it streamed is kept. Paused
 * (or shut down): the reply stays PROCESSING for resume. Completed or cancelled: the reply ends here.
 * True when the todo still runs (a stop signal that came late, after a resume): go on with it.
 */
export async function interrupted(todo: TodoRef, turn: Turn, writer: ReplyWriter, providerName: string): Promise<boolean> {
  await writer.settle();
  const written = writer.content;
  const status = (await db().todo.findUnique({ where: { id: todo.id }, select: { status: true } }))?.status;
  if (status && status !== "PAUSED" && status !== "RUNNING") {
    const usage = { provider: providerName, tokensIn: countTokens(turn.userMessages.join("\n")), tokensOut: countTokens(written), costCents: 0, durationMs: Date.now() - turn.startedAt, interrupted: true };
    const message = await db().message.update({ where: { id: turn.messageId }, data: { content: written, state: "DONE", usage }, include: messageWithBlocks });
    await dropLease(todo.id, (w) => ({ ...w, currentTurn: undefined, state: "idle" }));
    publishTodo("message.updated", todo, toMessage(message));
    return false;
  }
  await writer.finish();
  await dropLease(todo.id, (w) => ({ ...w, state: status === "PAUSED" ? "paused" : "idle" }));
  return status === "RUNNING";
}

/** What the stream learnt of the turn: the model, each model step's usage, the blocks on the reply and how many are checklist items, the summary it sent. */
export type TurnFacts = { modelId: string; steps: TurnUsage[]; toolBlocks: number; checklistBlocks?: number; /** the context summary the turn sent, if any */ summary?: string };

/** Ends the turn: reply DONE with usage and blocks, todo READY (or SCHEDULED, or on to the next turn: true). */
export async function finishTurn(todo: TodoRef, turn: Turn | null, provider: AgentProvider, settings: TAgentSettings, text: string, reported: TurnUsage | null, facts: TurnFacts | null): Promise<boolean> {
  // Worked out before the transaction: reading user content may take a while (and yields). A reply
  // whose checklist the agent already wrote with its tool gets no second one from its text.
  const checklists = !turn ? 0 : (facts?.checklistBlocks ?? (await db().block.count({ where: { messageId: turn.messageId, type: "checklist_item" } })));
  const usedChecklistTool = checklists > 0;
  const blocks = turn && !usedChecklistTool ? await provider.blocksFor(text, turn.userMessages) : [];
  const next = await changeTodo(todo.id, async (tx, current, fx) => {
    const w = asObject(current.workflow) as Workflow;
    let waiting: Waiting | undefined;
    if (turn) {
      const counts = reported ?? { tokensIn: countTokens(turn.userMessages.join("\n")), tokensOut: countTokens(text) };
      const modelId = facts?.modelId ?? settings.model;
      const shownModel = modelId === "local" ? settings.model : modelId;
      const steps = facts && facts.steps.length > 1 ? { steps: facts.steps } : {};
      const usage = { provider: provider.name, ...(shownModel ? { model: shownModel } : {}), ...counts, ...steps, costCents: provider.costCents(counts, modelId ?? ""), durationMs: Date.now() - turn.startedAt };
      const first = facts?.toolBlocks ?? (await tx.block.count({ where: { messageId: turn.messageId } }));
      const now = new Date();
      const added = blockInsert(blocks.map((b, i) => ({ todoId: todo.id, messageId: turn.messageId, position: first + i, type: b.type, actionable: b.actionable, content: b.content })), now);
      // The blocks added, the reply DONE and the input that waits, in one statement (under the row
      // lock, so no message of this todo can come in between).
      const [done] = await tx.$queryRaw<(MessageRow & Waiting)[]>`
        WITH ${added ? Prisma.sql`"added" AS (${added.sql}),` : Prisma.empty}
        "reply" AS (
          UPDATE "Message" SET "content" = ${text}, "state" = 'DONE', "usage" = ${JSON.stringify(usage)}::jsonb, "updatedAt" = ${now}::timestamp(3)
          WHERE "id" = ${turn.messageId}
          RETURNING ${MESSAGE_COLUMNS})
        SELECT "reply".*, "waiting".* FROM "reply", (${waitingInput(todo.id)}) AS "waiting"`;
      if (!done) throw new Error(`The reply ${turn.messageId} of this turn no longer exists`);
      const { pending, scheduled, ...reply } = done;
      waiting = { pending, scheduled };
      // A reply without earlier blocks has just the ones added here: no read of its blocks.
      const message = {
        ...reply,
        blocks: first === 0 ? (added?.rows ?? []) : await tx.block.findMany({ where: { messageId: turn.messageId }, orderBy: messageWithBlocks.blocks.orderBy }),
      };
      // Charged in the transaction that ends the turn: the reply and its charge commit together, once.
      await chargeTurn(tx, { userId: current.userId, projectId: current.projectId, todoId: todo.id, messageId: turn.messageId, costCents: usage.costCents, tokensIn: counts.tokensIn, tokensOut: counts.tokensOut });
      fx.emit("message.updated", toMessage(message));
      for (const block of message.blocks.slice(first)) fx.emit("block.updated", toBlock(block));
    }
    // Input that waits (a next turn) and scheduled messages.
    const { pending, scheduled } = waiting ?? (await tx.$queryRaw<Waiting[]>(waitingInput(todo.id)))[0]!;
    const { currentTurn: _t, ...rest } = w;
    // Marked used only if it is the text this turn sent: one edited meanwhile is for the next turn.
    const usedSummary = turn && w.contextSummary && !w.contextSummaryUsed && facts?.summary === w.contextSummary ? { contextSummaryUsed: true } : {};
    // Waiting for sub-todos it started: it stays RUNNING, holding no turn, until the last settles.
    const waitsForLinks = (linksOf(w).waitingFor?.length ?? 0) > 0;
    // Only a turn that is still RUNNING moves on; a pause or cancel that came in first stands.
    const next = current.status !== "RUNNING" ? current.status : waitsForLinks ? "RUNNING" : afterTurn({ pendingInput: pending > 0, hasScheduled: scheduled > 0 });
    // A next turn is run by this runner's loop, not started again.
    const workflow = { ...rest, ...usedSummary, state: waitsForLinks ? "waiting" : "idle" };
    await setStatus(tx, current, fx, next, { ...NO_LEASE, workflow: workflow as Prisma.InputJsonValue }, { continued: true });
    // The owner, if away, hears of the reply, or of a shell command that waits for their approval,
    // by mail (the setting "Email notifications"); a sub-todo's reply goes to its parent, whose own
    // end is the one to hear of.
    const asksApproval = next === "RUNNING" && waitsForLinks && !!linksOf(w).waitingFor?.some((id) => id.startsWith(SHELL_WAIT_PREFIX));
    if ((next === "READY" || asksApproval) && !linksOf(w).parentTodoId) fx.later(() => noticeTurnEnded({ id: todo.id, userId: current.userId }));
    if ("contextSummaryUsed" in usedSummary) fx.emit("todo.workflow", toWorkflow(todo.id, workflow));
    return waitsForLinks ? "waiting" : next;
  });
  return next === "RUNNING";
}

/** A tool step as a block of the reply: what the agent did, its input, and (once done) its result. */
export type ToolStepContent = { tool: string; toolCallId: string; input: unknown; state: "running" | "done" | "error"; output?: unknown };

/**
 * The blocks a turn adds to its reply while it runs (tool steps, and what tools create), in order
 * after the ones it already has (a resumed turn keeps its earlier steps).
 */
export class ToolSteps {
  /** Blocks on the reply so far. */
  count = 0;
  /** Checklist items among them. */
  checklists = 0;
  private readonly stepBlocks = new Map<string, Promise<string>>();

  constructor(
    private readonly todo: TodoRef,
    readonly messageId: string,
  ) {}

  /** Counts the blocks a resumed reply has already (a new one has none). */
  async init(): Promise<void> {
    const rows = await db().block.groupBy({ by: ["type"], where: { messageId: this.messageId }, _count: { _all: true } });
    this.count = rows.reduce((n, r) => n + r._count._all, 0);
    this.checklists = rows.find((r) => r.type === "checklist_item")?._count._all ?? 0;
  }

  /** Adds a block to the reply and publishes it. */
  async add(draft: BlockDraft & { subTodoIds?: string[] }) {
    const position = this.count++;
    if (draft.type === "checklist_item") this.checklists++;
    const block = await db().block.create({
      data: { todoId: this.todo.id, messageId: this.messageId, position, type: draft.type, actionable: draft.actionable, content: draft.content as Prisma.InputJsonValue, subTodoIds: draft.subTodoIds ?? [] },
    });
    publishTodo("block.updated", this.todo, toBlock(block));
    return block;
  }

  /** The block of a tool call (the "calling block" of what it creates), by the call's id. */
  blockOf(toolCallId: string): Promise<string> | undefined {
    return this.stepBlocks.get(toolCallId);
  }

  /** The call's step block, created once (the tool's run and the stream both ask, whichever comes first). */
  called(toolCallId: string, tool: string, input: unknown): Promise<string> {
    let block = this.stepBlocks.get(toolCallId);
    if (!block) {
      const content: ToolStepContent = { tool, toolCallId, input: jsonOf(input), state: "running" };
      block = this.add({ type: "tool_call", actionable: false, content }).then((b) => b.id);
      this.stepBlocks.set(toolCallId, block);
    }
    return block;
  }

  async ended(toolCallId: string, state: "done" | "error", output: unknown): Promise<void> {
    const id = await this.stepBlocks.get(toolCallId)?.catch(() => undefined);
    if (!id) return;
    // The result merged into the step's content in one statement.
    const block = await mergeBlockContent(id, { state, output: jsonOf(output) });
    if (block) publishTodo("block.updated", this.todo, toBlock(block));
  }
}

/** A value as stored JSON (undefined as null), at most 20 000 characters of it. */
function jsonOf(value: unknown): unknown {
  const text = JSON.stringify(value ?? null);
  return text.length <= 20_000 ? (JSON.parse(text) as unknown) : { truncated: true, preview: text.slice(0, 2000) };
}

/** A turn that throws leaves the todo ERROR with the reason in its metadata; the partial reply is kept. */
export async function failTurn(todoId: string, err: unknown): Promise<void> {
  const reason = (err instanceof Error ? err.message : String(err)).slice(0, 1000);
  await changeTodo(todoId, async (tx, todo, fx) => {
    const replies = await tx.message.findMany({ where: { todoId, role: "assistant", state: "PROCESSING" }, select: { id: true } });
    await tx.message.updateMany({ where: { id: { in: replies.map((r) => r.id) } }, data: { state: "ERROR", usage: { error: reason } } });
    const { currentTurn: _t, ...rest } = asObject(todo.workflow) as Workflow;
    const metadata = { ...asObject(todo.metadata), error: reason } as Prisma.InputJsonValue;
    await setStatus(tx, todo, fx, "ERROR", { ...NO_LEASE, metadata, workflow: { ...rest, state: "error" } as Prisma.InputJsonValue });
    if (!linksOf(todo.workflow).parentTodoId) fx.later(() => noticeTurnEnded({ id: todoId, userId: todo.userId }));
    const messages = await tx.message.findMany({ where: { id: { in: replies.map((r) => r.id) } }, include: messageWithBlocks });
    for (const m of messages) fx.emit("message.updated", toMessage(m));
  });
}
