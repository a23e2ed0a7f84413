import { log } from "../log.ts";
import { db, runtime } from "../runtime.ts";
import { scheduleMessage } from "./schedule-message.ts";
import { leaseIsLive, voidLeases } from "./turn-lease.ts";

/** Scheduled messages read per query of a sweep. */
const SWEEP_PAGE = 500;

/**
 * Queues the fire job (`message.fire`, server/agent/fire-message-job.ts) of every scheduled message,
 * due or not. Services queue it after each commit; the sweep repairs what that missed: messages
 * scheduled before a deploy, a crash between a commit and its enqueue, a Redis that lost its data.
 * The job's key (message and time) makes it safe to run any number of times. Returns the messages seen.
 */
export async function sweepScheduled(): Promise<number> {
  let seen = 0;
  let cursor: { id: string } | undefined;
  for (;;) {
    const page = await db().message.findMany({
      where: { state: "SCHEDULED", scheduledAt: { not: null } },
      select: { id: true, scheduledAt: true },
      orderBy: [{ scheduledAt: "asc" }, { id: "asc" }],
      take: SWEEP_PAGE,
      ...(cursor ? { cursor, skip: 1 } : {}),
    });
    for (const m of page) await scheduleMessage({ id: m.id, scheduledAt: m.scheduledAt! });
    seen += page.length;
    if (page.length < SWEEP_PAGE) return seen;
    cursor = { id: page.at(-1)!.id };
  }
}

/**
 * The server's timer: the sweep of scheduled messages and the recovery of turns (at start, then
 * every `sweepEveryMs`, so one process on a shared PostgreSQL repairs a lost enqueue without a
 * restart). Messages come due and turns run through their jobs, so the server starts this after
 * the job backend.
 */
export function startScheduler(opts: { sweepEveryMs?: number } = {}): { stop(): void } {
  let busy = false;
  const tick = async () => {
    if (busy) return;
    busy = true;
    for (const [name, fn] of [
      ["scheduled-message sweep", sweepScheduled],
      ["turn recovery", recoverTurns],
    ] as const) {
      try {
        await fn();
      } catch (err) {
        log.warn(`${name} failed`, { error: err instanceof Error ? err.message : String(err) });
      }
    }
    busy = false;
  };
  const timer = setInterval(() => void tick(), opts.sweepEveryMs ?? 60_000);
  timer.unref();
  void tick();
  return { stop: () => clearInterval(timer) };
}

/**
 * Queues the turn job (`agent.turn`, ./turn-job.ts) of every RUNNING todo that no live process works
 * on (no lease, or one that ran out). Its key makes it idempotent: a todo whose job waits or runs
 * gets no second one. Turn jobs are kept by the backend across restarts (the database, or Redis);
 * this repairs what that does not cover: todos left RUNNING by a version without turn jobs, a crash
 * between a commit and its enqueue, a Redis that lost its data. Returns the todos queued.
 */
export async function recoverTurns(): Promise<number> {
  const running = await db().todo.findMany({ where: { status: "RUNNING" }, select: { id: true, userId: true, leaseUntil: true }, take: 500 });
  const now = Date.now();
  let queued = 0;
  for (const todo of running) {
    if (leaseIsLive(todo, now)) continue;
    runtime().agent.start(todo.id, todo.userId);
    queued++;
  }
  return queued;
}

/** At start on the embedded database: see voidLeases. */
export const releaseLeases = voidLeases;
