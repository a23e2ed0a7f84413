import { randomUUID } from "node:crypto";
import type { TAgentSettings } from "../../lib/schemas/agent.ts";
import type { Prisma } from "../db/generated/client.ts";
import { log } from "../log.ts";
import { db } from "../runtime.ts";
import { publishStatus, publishTodo } from "../services/todos/events.ts";
import { afterTurn } from "../../lib/todo-lifecycle.ts";
import { asObject, messageWithBlocks, toBlock, toMessage } from "../services/todos/serialize.ts";
import { countTokens } from "./local-reply.ts";
import type { AgentProvider, ChatMessage, TurnUsage } from "./provider.ts";
import type { AgentRunner } from "./runner.ts";

type Turn = { messageId: string; startedAt: number; userMessages: string[]; /** times a process took this turn over from one that died */ recoveries?: number };
type TodoRef = { id: string; projectId: string };
type Workflow = Record<string, unknown> & { currentTurn?: Turn; lease?: { owner: string; until: number }; contextSummary?: string | null; contextSummaryUsed?: boolean; turn?: number };

export type RunnerOptions = {
  providers: Record<string, AgentProvider>;
  defaultProvider: string;
  /** Turns at once in this process, and per user. */
  maxConcurrent: number;
  maxPerUser: number;
  /** Streamed text is written and published at most this often (a "step" for pause and cancel). */
  flushMs?: number;
  /** How long a process holds a turn without renewing it; a dead process's turns are taken over after it. */
  leaseMs?: number;
  /** A todo whose user is at the per-user limit is looked at again after this long (default 500 ms). */
  busyRetryMs?: number;
};

/** A turn whose process died is taken over (and resumed) this many times; once more, it ends in ERROR. */
export const MAX_RECOVERIES = 1;
export const TURN_LOST_TWICE = "The agent turn was interrupted twice by a server failure (a crash or a kill) and was not retried again";

/** Whether a live process holds the turn of a todo with this workflow (a lease that has not run out). */
export function leaseIsLive(workflow: unknown, now = Date.now()): boolean {
  const until = (workflow as Workflow | null)?.lease?.until;
  return typeof until === "number" && until > now;
}

/** What taking the lease found: ours now, another live process's, or the user's limit reached. */
type LeaseResult = "ok" | "held" | "busy";

/** The outcome of `runNow`: "busy" when the user's turn limit (across all processes) kept it from starting. */
export type RunOutcome = "done" | "busy";

/**
 * Runs agent turns in this process. The todo's status in the database is the control: the runner
 * looks at it at every step, so pause, complete and cancel from any process take effect at the
 * next step. A lease in the todo's workflow keeps two processes from running one todo; a turn
 * whose process died is taken over (and resumed) once its lease ran out.
 */
export class TurnRunner implements AgentRunner {
  readonly owner = randomUUID();
  private readonly active = new Map<string, { userId: string; run: Promise<void> }>();
  private readonly queue: { todoId: string; userId: string }[] = [];
  private readonly again = new Set<string>();
  /** Todos a queue worker waits for in runNow (their "busy" goes back to the queue, not to a timer). */
  private readonly awaited = new Set<string>();
  private readonly busy = new Set<string>();
  private enqueuing = 0;
  private stopping = false;
  private readonly flushMs: number;
  readonly leaseMs: number;
  private readonly busyRetryMs: number;

  constructor(private readonly opts: RunnerOptions) {
    this.flushMs = opts.flushMs ?? 50;
    this.leaseMs = opts.leaseMs ?? 30_000;
    this.busyRetryMs = opts.busyRetryMs ?? 500;
  }

  start(todoId: string): void {
    if (this.stopping) return;
    if (this.active.has(todoId)) {
      this.again.add(todoId); // looked at again when the current turn ends
      return;
    }
    if (this.queue.some((q) => q.todoId === todoId)) return;
    this.enqueuing++;
    void db()
      .todo.findUnique({ where: { id: todoId }, select: { userId: true } })
      .then((row) => {
        if (row && !this.active.has(todoId) && !this.queue.some((q) => q.todoId === todoId)) this.queue.push({ todoId, userId: row.userId });
      })
      .catch(() => undefined)
      .finally(() => {
        this.enqueuing--;
        this.pump();
      });
  }

  /** Turns running or waiting for a slot in this process. */
  get load(): { active: number; queued: number } {
    return { active: this.active.size, queued: this.queue.length };
  }

  /** Runs the todo's turns here (within the per-user limit) and resolves when they are over: for queue workers. */
  async runNow(todoId: string): Promise<RunOutcome> {
    this.awaited.add(todoId);
    try {
      this.start(todoId);
      while (this.active.has(todoId) || this.enqueuing || this.queue.some((q) => q.todoId === todoId)) {
        const mine = this.active.get(todoId);
        if (mine) await mine.run.catch(() => undefined);
        else await new Promise((r) => setTimeout(r, 10));
      }
    } finally {
      this.awaited.delete(todoId);
    }
    return this.busy.delete(todoId) ? "busy" : "done";
  }

  async idle(): Promise<void> {
    while (this.active.size || this.queue.length || this.enqueuing) {
      await Promise.allSettled([...this.active.values()].map((a) => a.run));
      await new Promise((r) => setTimeout(r, 5));
    }
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.queue.length = 0;
    await Promise.allSettled([...this.active.values()].map((a) => a.run));
  }

  private pump() {
    for (let i = 0; i < this.queue.length && this.active.size < this.opts.maxConcurrent; ) {
      const next = this.queue[i]!;
      const mine = [...this.active.values()].filter((a) => a.userId === next.userId).length;
      if (mine >= this.opts.maxPerUser) {
        i++;
        continue;
      }
      this.queue.splice(i, 1);
      const run = this.run(next.todoId).finally(() => {
        this.active.delete(next.todoId);
        if (this.again.delete(next.todoId)) this.start(next.todoId);
        this.pump();
      });
      this.active.set(next.todoId, { userId: next.userId, run });
    }
  }

  private async run(todoId: string): Promise<void> {
    try {
      for (;;) {
        if (this.stopping) return;
        const next = await this.turn(todoId);
        if (next === "busy") return this.onBusy(todoId);
        if (!next) return;
      }
    } catch (err) {
      if (this.stopping) return;
      log.warn("agent turn failed", { todoId, error: err instanceof Error ? err.message : String(err) });
      await this.fail(todoId, err).catch((e) => log.error("could not record a failed turn", { todoId, error: String(e) }));
    }
  }

  /** The user is at the limit in every process together: a queue worker hands the job back, else look again soon. */
  private onBusy(todoId: string) {
    if (this.awaited.has(todoId)) {
      this.busy.add(todoId);
      return;
    }
    setTimeout(() => this.start(todoId), this.busyRetryMs).unref();
  }

  /**
   * Takes this process's lease on the todo, or with `renew` only extends the one it holds. Taking
   * it counts the user's other live leases (in every process, under a per-user advisory lock), so
   * the per-user limit holds across processes. Taking over the lapsed lease of a process that died
   * mid-turn counts a recovery; past MAX_RECOVERIES the turn fails.
   */
  private async lease(todoId: string, renew = false): Promise<LeaseResult> {
    return db().$transaction(async (tx) => {
      const [row] = await tx.$queryRaw<{ userId: string; workflow: unknown }[]>`SELECT "userId", "workflow" FROM "Todo" WHERE "id" = ${todoId} FOR UPDATE`;
      if (!row) return "held";
      const w = asObject(row.workflow) as Workflow;
      const now = Date.now();
      const mine = w.lease?.owner === this.owner;
      if (renew && !mine) return "held";
      if (!mine && leaseIsLive(w, now)) return "held";
      let turn = w.currentTurn;
      if (!mine) {
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`agent-user:${row.userId}`}))`;
        const [{ n }] = await tx.$queryRaw<{ n: number }[]>`
          SELECT count(*)::int AS n FROM "Todo"
          WHERE "userId" = ${row.userId} AND "id" <> ${todoId} AND "status" = 'RUNNING'
            AND ("workflow"->'lease'->>'until')::bigint > ${now}`;
        if (n >= this.opts.maxPerUser) return "busy";
        if (w.lease && turn) {
          const recoveries = (turn.recoveries ?? 0) + 1;
          if (recoveries > MAX_RECOVERIES) throw new Error(TURN_LOST_TWICE);
          turn = { ...turn, recoveries };
        }
      }
      await tx.todo.update({ where: { id: todoId }, data: { workflow: { ...w, currentTurn: turn, lease: { owner: this.owner, until: now + this.leaseMs } } as Prisma.InputJsonValue } });
      return "ok";
    });
  }

  /** One turn, or its continuation after a pause or a restart. True when another turn should follow. */
  private async turn(todoId: string): Promise<boolean | "busy"> {
    const todo = await db().todo.findUnique({ where: { id: todoId }, select: { id: true, projectId: true, status: true, agentSettings: true } });
    if (!todo || todo.status !== "RUNNING") return false;
    const leased = await this.lease(todoId);
    if (leased !== "ok") return leased === "busy" ? "busy" : false;
    const settings = asObject(todo.agentSettings) as TAgentSettings;
    const providerName = settings.provider ?? this.opts.defaultProvider;
    const provider = this.opts.providers[providerName];
    if (!provider) throw new Error(`Agent provider "${providerName}" is not configured on this server`);

    const turn = await this.turnFor(todo);
    if (turn === "stopped") {
      await this.updateWorkflow(todoId, (w) => ({ ...w, lease: undefined }));
      return false;
    }
    if (!turn) return this.finish(todo, null, provider, settings, "", null);
    const history = await this.history(todoId, turn.messageId);
    const current = await db().message.findUniqueOrThrow({ where: { id: turn.messageId }, select: { content: true } });
    const controller = new AbortController();
    const stream = provider.stream({ messages: history, settings, resumeFrom: current.content }, controller.signal);

    let written = current.content;
    let buffer = "";
    let lastFlush = Date.now();
    // The lease is renewed on a timer, not per piece, so a slow model does not lose it; losing it
    // (another process took the turn over) stops this one without writing anything more.
    let lost = false;
    let renewing: Promise<unknown> = Promise.resolve();
    const heartbeat = setInterval(() => {
      renewing = this.lease(todoId, true)
        .then((r) => {
          if (r !== "ok") {
            lost = true;
            controller.abort();
          }
        })
        .catch(() => undefined);
    }, this.leaseMs / 3);
    heartbeat.unref();
    /** Appends what was streamed since the last step, in one statement that also checks the todo still runs. */
    const flush = async (): Promise<"go" | "stop"> => {
      if (lost || this.stopping) return "stop";
      if (!buffer) {
        const status = (await db().todo.findUnique({ where: { id: todoId }, select: { status: true } }))?.status;
        return status === "RUNNING" ? "go" : "stop";
      }
      const appended = await db().$executeRaw`
        UPDATE "Message" SET "content" = "content" || ${buffer}, "updatedAt" = (now() AT TIME ZONE 'UTC')
        WHERE "id" = ${turn.messageId} AND EXISTS (SELECT 1 FROM "Todo" WHERE "id" = ${todoId} AND "status" = 'RUNNING')`;
      if (appended === 0) return "stop";
      written += buffer;
      publishTodo("message.delta", todo, { messageId: turn.messageId, delta: buffer });
      buffer = "";
      lastFlush = Date.now();
      return "go";
    };
    const stop = async () => {
      clearInterval(heartbeat);
      await renewing;
      return lost ? false : this.interrupted(todo, turn, written, provider.name);
    };
    try {
      for await (const delta of stream.deltas) {
        buffer += delta;
        if (Date.now() - lastFlush >= this.flushMs && (await flush()) === "stop") {
          controller.abort();
          return stop();
        }
      }
    } catch (err) {
      if (controller.signal.aborted) return stop();
      // The provider failed: what it did send is kept with the reply, which then fails.
      await flush().catch(() => undefined);
      throw err;
    } finally {
      clearInterval(heartbeat);
    }
    if ((await flush()) === "stop") return stop();
    await renewing;
    if (lost) return false;
    return this.finish(todo, turn, provider, settings, written, stream.usage());
  }

  /** The conversation before this turn's reply, with a pending context summary first. */
  private async history(todoId: string, replyId: string): Promise<ChatMessage[]> {
    const [rows, todo] = await Promise.all([
      db().message.findMany({ where: { todoId, id: { not: replyId }, state: "DONE", role: { in: ["user", "assistant", "system"] } }, orderBy: { seq: "asc" }, select: { role: true, content: true } }),
      db().todo.findUniqueOrThrow({ where: { id: todoId }, select: { workflow: true } }),
    ]);
    const w = asObject(todo.workflow) as Workflow;
    const summary = w.contextSummary && !w.contextSummaryUsed ? [{ role: "system" as const, content: `Summary of the conversation so far:\n${w.contextSummary}` }] : [];
    return [...summary, ...rows.map((r) => ({ role: r.role as ChatMessage["role"], content: r.content }))];
  }

  /** The turn in progress, or a new one over the user messages that wait for it. */
  private async turnFor(todo: TodoRef): Promise<Turn | null | "stopped"> {
    const started = await db().$transaction(async (tx) => {
      // Under the row lock: a pause or cancel that committed a moment ago must not get a reply started.
      await tx.$executeRaw`SELECT 1 FROM "Todo" WHERE "id" = ${todo.id} FOR UPDATE`;
      const { workflow, status } = await tx.todo.findUniqueOrThrow({ where: { id: todo.id }, select: { workflow: true, status: true } });
      if (status !== "RUNNING") return "stopped" as const;
      const w = asObject(workflow) as Workflow;
      if (w.currentTurn) {
        const open = await tx.message.findFirst({ where: { id: w.currentTurn.messageId, state: "PROCESSING" }, select: { id: true } });
        if (open) return { turn: w.currentTurn, message: null };
      }
      const waiting = await tx.message.findMany({ where: { todoId: todo.id, role: "user", state: "PENDING" }, orderBy: { seq: "asc" } });
      if (waiting.length === 0) return null;
      await tx.message.updateMany({ where: { id: { in: waiting.map((m) => m.id) } }, data: { state: "DONE" } });
      const message = await tx.message.create({ data: { todoId: todo.id, role: "assistant", content: "", state: "PROCESSING" }, include: messageWithBlocks });
      const turn: Turn = { messageId: message.id, startedAt: Date.now(), userMessages: waiting.map((m) => m.content) };
      await tx.todo.update({ where: { id: todo.id }, data: { workflow: { ...w, currentTurn: turn, state: "running", turn: Number(w.turn ?? 0) + 1 } as Prisma.InputJsonValue } });
      return { turn, message };
    });
    if (!started || started === "stopped") return started ? "stopped" : null;
    if (started.message) publishTodo("message.created", todo, toMessage(started.message));
    return started.turn;
  }

  /** Paused: the reply stays PROCESSING for resume. Completed or cancelled: the reply ends here. */
  private async interrupted(todo: TodoRef, turn: Turn, written: string, providerName: string): Promise<false> {
    const status = (await db().todo.findUnique({ where: { id: todo.id }, select: { status: true } }))?.status;
    if (status && status !== "PAUSED" && status !== "RUNNING") {
      const usage = { provider: providerName, tokensIn: countTokens(turn.userMessages.join("\n")), tokensOut: countTokens(written), costCents: 0, durationMs: Date.now() - turn.startedAt, interrupted: true };
      const message = await db().message.update({ where: { id: turn.messageId }, data: { content: written, state: "DONE", usage }, include: messageWithBlocks });
      await this.updateWorkflow(todo.id, (w) => ({ ...w, currentTurn: undefined, lease: undefined, state: "idle" }));
      publishTodo("message.updated", todo, toMessage(message));
    } else {
      await this.updateWorkflow(todo.id, (w) => ({ ...w, lease: undefined, state: status === "PAUSED" ? "paused" : "idle" }));
    }
    return false;
  }

  private async updateWorkflow(todoId: string, change: (w: Workflow) => Workflow) {
    await db().$transaction(async (tx) => {
      await tx.$executeRaw`SELECT 1 FROM "Todo" WHERE "id" = ${todoId} FOR UPDATE`;
      const row = await tx.todo.findUnique({ where: { id: todoId }, select: { workflow: true } });
      if (row) await tx.todo.update({ where: { id: todoId }, data: { workflow: JSON.parse(JSON.stringify(change(asObject(row.workflow) as Workflow))) as Prisma.InputJsonValue } });
    });
  }

  /** Ends the turn: reply DONE with usage and blocks, todo READY (or SCHEDULED, or on to the next turn). */
  private async finish(todo: TodoRef, turn: Turn | null, provider: AgentProvider, settings: TAgentSettings, text: string, reported: TurnUsage | null): Promise<boolean> {
    // Worked out before the transaction: reading user content may take a while (and yields).
    const blocks = turn ? await provider.blocksFor(text, turn.userMessages) : [];
    const result = await db().$transaction(async (tx) => {
      await tx.$executeRaw`SELECT 1 FROM "Todo" WHERE "id" = ${todo.id} FOR UPDATE`;
      const current = await tx.todo.findUniqueOrThrow({ where: { id: todo.id }, select: { status: true, workflow: true } });
      const w = asObject(current.workflow) as Workflow;
      let message = null;
      if (turn) {
        const counts = reported ?? { tokensIn: countTokens(turn.userMessages.join("\n")), tokensOut: countTokens(text) };
        const usage = { provider: provider.name, ...(settings.model ? { model: settings.model } : {}), ...counts, costCents: provider.costCents?.(counts, settings) ?? 0, durationMs: Date.now() - turn.startedAt };
        await tx.block.createMany({ data: blocks.map((b, position) => ({ todoId: todo.id, messageId: turn.messageId, position, type: b.type, actionable: b.actionable, content: b.content as Prisma.InputJsonValue })) });
        message = await tx.message.update({ where: { id: turn.messageId }, data: { content: text, state: "DONE", usage }, include: messageWithBlocks });
      }
      const [pending, scheduled] = await Promise.all([
        tx.message.count({ where: { todoId: todo.id, role: "user", state: "PENDING" } }),
        tx.message.count({ where: { todoId: todo.id, state: "SCHEDULED" } }),
      ]);
      const { currentTurn: _t, lease: _l, ...rest } = w;
      const usedSummary = turn && w.contextSummary && !w.contextSummaryUsed ? { contextSummaryUsed: true } : {};
      // Only a turn that is still RUNNING moves on; a pause or cancel that came in first stands.
      const next = current.status === "RUNNING" ? afterTurn({ pendingInput: pending > 0, hasScheduled: scheduled > 0 }) : current.status;
      await tx.todo.update({ where: { id: todo.id }, data: { status: next, lastActivityAt: new Date(), workflow: { ...rest, ...usedSummary, state: "idle" } as Prisma.InputJsonValue } });
      return { message, previous: current.status, next };
    });
    if (result.message) {
      publishTodo("message.updated", todo, toMessage(result.message));
      for (const block of result.message.blocks) publishTodo("block.updated", todo, toBlock(block));
    }
    publishStatus(todo, result.next, result.previous);
    return result.next === "RUNNING";
  }

  /** A turn that throws leaves the todo ERROR with the reason in its metadata; the partial reply is kept. */
  async fail(todoId: string, err: unknown) {
    const reason = (err instanceof Error ? err.message : String(err)).slice(0, 1000);
    const result = await db().$transaction(async (tx) => {
      await tx.$executeRaw`SELECT 1 FROM "Todo" WHERE "id" = ${todoId} FOR UPDATE`;
      const todo = await tx.todo.findUnique({ where: { id: todoId }, select: { id: true, projectId: true, status: true, metadata: true, workflow: true } });
      if (!todo) return null;
      const replies = await tx.message.findMany({ where: { todoId, role: "assistant", state: "PROCESSING" }, select: { id: true } });
      await tx.message.updateMany({ where: { id: { in: replies.map((r) => r.id) } }, data: { state: "ERROR", usage: { error: reason } } });
      const { currentTurn: _t, lease: _l, ...rest } = asObject(todo.workflow) as Workflow;
      await tx.todo.update({
        where: { id: todoId },
        data: { status: "ERROR", metadata: { ...asObject(todo.metadata), error: reason } as Prisma.InputJsonValue, workflow: { ...rest, state: "error" } as Prisma.InputJsonValue, lastActivityAt: new Date() },
      });
      const messages = await tx.message.findMany({ where: { id: { in: replies.map((r) => r.id) } }, include: messageWithBlocks });
      return { todo, messages };
    });
    if (!result) return;
    for (const m of result.messages) publishTodo("message.updated", result.todo, toMessage(m));
    publishStatus(result.todo, "ERROR", result.todo.status);
  }
}
