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
 * The server's two timers: the sweep of scheduled messages (at start, then every `sweepEveryMs`, so
 * one process on a shared PostgreSQL repairs a lost enqueue without a restart), and the recovery of
 * turns no live process works on (every `recoverEveryMs`). Messages come due through their jobs, so
 * the server starts this after the job backend.
 */
export function startScheduler(opts: { sweepEveryMs?: number; recoverEveryMs?: number } = {}): { stop(): void } {
  const every = (ms: number, name: string, fn: () => Promise<unknown>) => {
    let busy = false;
    const tick = async () => {
      if (busy) return;
      busy = true;
      try {
        await fn();
      } catch (err) {
        log.warn(`${name} failed`, { error: err instanceof Error ? err.message : String(err) });
      } finally {
        busy = false;
      }
    };
    const timer = setInterval(() => void tick(), ms);
    timer.unref();
    void tick();
    return timer;
  };
  const timers = [every(opts.sweepEveryMs ?? 60_000, "scheduled-message sweep", sweepScheduled), every(opts.recoverEveryMs ?? 5_000, "turn recovery", recoverTurns)];
  return { stop: () => timers.forEach(clearInterval) };
}

/**
 * RUNNING todos that no live process works on (no lease, or one that ran out: its process died)
 * are handed to this process's runner, which resumes the turn where it stopped. On start this
 * picks up what a crash or restart left RUNNING, so nothing stays RUNNING forever.
 */
async function recoverTurns() {
  const running = await db().todo.findMany({ where: { status: "RUNNING" }, select: { id: true, leaseUntil: true }, take: 500 });
  const now = Date.now();
  for (const todo of running) {
    if (!leaseIsLive(todo, now)) runtime().agent.start(todo.id);
  }
}

/** At start on the embedded database: see voidLeases. */
export const releaseLeases = voidLeases;
