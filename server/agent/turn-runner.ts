import { randomUUID } from "node:crypto";
import { log } from "../log.ts";
import { db } from "../runtime.ts";
import type { AgentProvider } from "./provider.ts";
import type { AgentRunner, RunOutcome } from "./runner.ts";
import type { AgentToolDef } from "./tools/index.ts";
import { failTurn } from "./turn-store.ts";
import { runTurn } from "./turn-stream.ts";

export { leaseIsLive, MAX_RECOVERIES, TURN_LOST_TWICE } from "./turn-lease.ts";

export type RunnerOptions = {
  providers: Record<string, AgentProvider>;
  defaultProvider: string;
  /** Turns at once in this process, and per user. */
  maxConcurrent: number;
  maxPerUser: number;
  /** Streamed text is published (message.delta) at most this often (default 50 ms). */
  flushMs?: number;
  /** Streamed text is written to the reply at most this often, and at every tool call and the end (default PERSIST_MS, 500 ms). */
  persistMs?: number;
  /** How long a process holds a turn without renewing it; a dead process's turns are taken over after it. */
  leaseMs?: number;
  /** A todo whose user is at the per-user limit is looked at again after this long (default 500 ms). */
  busyRetryMs?: number;
  /** How long a model may stay silent before the turn fails (0 or absent: no limit). */
  idleTimeoutMs?: number;
  /** Retries of a failed model call (default 2). */
  maxRetries?: number;
  /** Model calls one turn may take (default MAX_STEPS). */
  maxSteps?: number;
  /** The tools offered to models that take tools (default AGENT_TOOLS). */
  tools?: readonly AgentToolDef[];
};

export type { RunOutcome } from "./runner.ts";

/**
 * Runs agent turns in this process. The todo's status in the database is the control: the
 * lifecycle signals every change that takes a todo out of RUNNING to its turn, in this process or
 * (through the bus) another (./turn-signals.ts), and the turn stops at once; its coalesced writes
 * append only while the todo runs, a backstop for a signal that never arrives. A lease (the todo's leaseOwner, leaseUntil) keeps two processes from running one todo; a turn
 * whose process died is taken over (and resumed) once its lease ran out.
 */
export class TurnRunner implements AgentRunner {
  readonly owner = randomUUID();
  private readonly active = new Map<string, { userId: string; run: Promise<void> }>();
  /** Turns in `active` per user (the per-user limit, without a scan of every active turn). */
  private readonly perUser = new Map<string, number>();
  private readonly queue: { todoId: string; userId: string }[] = [];
  private readonly again = new Set<string>();
  /** Todos a job waits for in runNow (their "busy" or "held" goes back to the job queue, not to a timer). */
  private readonly awaited = new Set<string>();
  /** runNow's answer for an awaited todo that could not start: look again in this many ms. */
  private readonly deferred = new Map<string, Exclude<RunOutcome, { done: true }>>();
  private enqueuing = 0;
  private stopping = false;
  /** Turns in flight abort their model call when the runner stops. */
  private readonly onStop = new Set<() => void>();
  private readonly flushMs: number;
  readonly leaseMs: number;
  private readonly busyRetryMs: number;

  constructor(private readonly opts: RunnerOptions) {
    this.flushMs = opts.flushMs ?? 50;
    this.leaseMs = opts.leaseMs ?? 30_000;
    this.busyRetryMs = opts.busyRetryMs ?? 500;
  }

  start(todoId: string, userId?: string): void {
    if (this.stopping) return;
    if (this.active.has(todoId)) {
      this.again.add(todoId); // looked at again when the current turn ends
      return;
    }
    if (this.queue.some((q) => q.todoId === todoId)) return;
    // The lifecycle knows whose todo it is; otherwise it is read.
    if (userId !== undefined) {
      this.queue.push({ todoId, userId });
      this.pump();
      return;
    }
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

  /**
   * Runs the todo's turns here and resolves when they are over: the `agent.turn` job's handler.
   * When the user is at the per-user limit (in this process or, through the leases, in all) or another
   * live process holds the todo, it does not wait here but answers when to look again, so the job
   * goes back to the queue and its slot goes to another user's turn.
   */
  async runNow(todoId: string, userId?: string): Promise<RunOutcome> {
    this.awaited.add(todoId);
    try {
      this.start(todoId, userId);
      while (this.active.has(todoId) || this.enqueuing || this.queue.some((q) => q.todoId === todoId)) {
        const mine = this.active.get(todoId);
        if (mine) await mine.run.catch(() => undefined);
        else await new Promise((r) => setTimeout(r, 10));
      }
    } finally {
      this.awaited.delete(todoId);
    }
    const later = this.deferred.get(todoId);
    this.deferred.delete(todoId);
    // Stopped by a shutdown: the job goes back to the queue without using an attempt, so a restart is no lost run.
    if (!later && this.stopping) return { done: false, reason: "stopping", retryInMs: 0 };
    return later ?? { done: true };
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
    for (const fn of this.onStop) fn();
    await Promise.allSettled([...this.active.values()].map((a) => a.run));
  }

  private pump() {
    for (let i = 0; i < this.queue.length && this.active.size < this.opts.maxConcurrent; ) {
      const next = this.queue[i]!;
      const mine = this.perUser.get(next.userId) ?? 0;
      if (mine >= this.opts.maxPerUser) {
        // A job's turn does not wait here: its job goes back to the queue (runNow).
        if (this.awaited.has(next.todoId)) {
          this.queue.splice(i, 1);
          this.deferred.set(next.todoId, { done: false, reason: "busy", retryInMs: this.busyRetryMs });
        } else i++;
        continue;
      }
      this.queue.splice(i, 1);
      const run = this.run(next.todoId).finally(() => {
        this.active.delete(next.todoId);
        const left = (this.perUser.get(next.userId) ?? 1) - 1;
        if (left > 0) this.perUser.set(next.userId, left);
        else this.perUser.delete(next.userId);
        if (this.again.delete(next.todoId)) this.start(next.todoId);
        this.pump();
      });
      this.active.set(next.todoId, { userId: next.userId, run });
      this.perUser.set(next.userId, (this.perUser.get(next.userId) ?? 0) + 1);
    }
  }

  private async run(todoId: string): Promise<void> {
    try {
      for (;;) {
        if (this.stopping) return;
        const next = await this.turn(todoId);
        if (next === "busy") return this.onBusy(todoId);
        if (next === "held") {
          // Another live process holds the todo: a job looks again once that lease may have lapsed.
          if (this.awaited.has(todoId)) this.deferred.set(todoId, { done: false, reason: "held", retryInMs: Math.ceil(this.leaseMs / 3) });
          return;
        }
        if (!next) return;
      }
    } catch (err) {
      if (this.stopping) return;
      log.warn("agent turn failed", { todoId, error: err instanceof Error ? err.message : String(err) });
      await this.fail(todoId, err).catch((e) => log.error("could not record a failed turn", { todoId, error: String(e) }));
    }
  }

  /** The user is at the limit in every process together: a job goes back to the queue, else look again soon. */
  private onBusy(todoId: string) {
    if (this.awaited.has(todoId)) {
      this.deferred.set(todoId, { done: false, reason: "busy", retryInMs: this.busyRetryMs });
      return;
    }
    setTimeout(() => this.start(todoId), this.busyRetryMs).unref();
  }

  /** One turn, or its continuation after a pause or a restart (runTurn). */
  private turn(todoId: string): Promise<boolean | "busy" | "held"> {
    const ctx = {
      ...this.opts,
      owner: this.owner,
      leaseMs: this.leaseMs,
      flushMs: this.flushMs,
      stopping: () => this.stopping,
      onStopping: (fn: () => void) => {
        this.onStop.add(fn);
        return () => this.onStop.delete(fn);
      },
    };
    return runTurn(ctx, todoId);
  }

  /** A turn that throws leaves the todo ERROR with the reason in its metadata; the partial reply is kept. */
  async fail(todoId: string, err: unknown): Promise<void> {
    await failTurn(todoId, err);
  }
}
