import { DelayedError, Queue, Worker, type Job } from "bullmq";
import { createClient } from "redis";
import { log } from "../log.ts";
import { db } from "../runtime.ts";
import type { AgentRunner } from "./runner.ts";
import { leaseIsLive, TURN_LOST_TWICE } from "./turn-lease.ts";
import type { TurnRunner } from "./turn-runner.ts";

const QUEUE = "agent-turns";

export type QueueOptions = {
  /** Key prefix in Redis (tests use their own). */
  prefix?: string;
  /** BullMQ's job lock: a job whose worker stopped renewing it this long is stalled (default 30 s). */
  lockMs?: number;
  /** How often each worker looks for stalled jobs (default: lockMs). */
  stalledCheckMs?: number;
  /** A job whose user is at the turn limit goes back to the queue for this long (default 500 ms). */
  busyDelayMs?: number;
};

/**
 * With REDIS_URL, turns are jobs on a BullMQ queue: every server process runs a worker, so the
 * processes share the work. A job whose worker died (its lock lapses) is retried once by another
 * worker; the turn itself resumes where it stopped (TurnRunner leases and workflow state), and
 * since the turn's lease is at most half the job lock, the lease has lapsed by the time the retry
 * runs. A job that stalls again leaves the todo ERROR with the reason. One job per todo at a
 * time (the job id is the todo's), so repeated starts and the recovery sweep queue nothing twice.
 */
export class QueuedRunner implements AgentRunner {
  private queue!: Queue;
  private worker!: Worker;
  private clients: { quit(): Promise<unknown> }[] = [];
  private readonly prefix: string;
  private readonly lockMs: number;
  private readonly stalledCheckMs: number;
  private readonly busyDelayMs: number;

  constructor(
    private readonly runner: TurnRunner,
    private readonly redisUrl: string,
    private readonly concurrency: number,
    opts: QueueOptions = {},
  ) {
    this.prefix = opts.prefix ?? "todo-service";
    this.lockMs = opts.lockMs ?? 30_000;
    this.stalledCheckMs = opts.stalledCheckMs ?? this.lockMs;
    this.busyDelayMs = opts.busyDelayMs ?? 500;
    if (runner.leaseMs > this.lockMs / 2) throw new Error(`the turn lease (${runner.leaseMs} ms) must be at most half the queue's job lock (${this.lockMs} ms)`);
  }

  async init(): Promise<void> {
    const connection = createClient({ url: this.redisUrl });
    const workerConnection = createClient({ url: this.redisUrl });
    for (const c of [connection, workerConnection]) c.on("error", (err) => log.warn("redis (queue) error", { error: String(err) }));
    await Promise.all([connection.connect(), workerConnection.connect()]);
    this.clients.push(connection, workerConnection);
    this.queue = new Queue(QUEUE, { connection, prefix: this.prefix });
    this.worker = new Worker(QUEUE, (job: Job<{ todoId: string }>, token?: string) => this.process(job, token), {
      connection: workerConnection,
      prefix: this.prefix,
      concurrency: this.concurrency,
      maxStalledCount: 1, // a crashed worker's turn is retried once
      lockDuration: this.lockMs,
      stalledInterval: this.stalledCheckMs,
    });
    this.worker.on("failed", (job, err) => {
      if (job) void this.markFailed(job.data.todoId, err.message).catch(() => undefined);
    });
    this.worker.on("error", (err) => log.warn("agent queue worker error", { error: err.message }));
    this.worker.on("completed", () => this.done++);
  }

  /** Jobs this worker has completed (tests and the benchmark). */
  get processed(): number {
    return this.done;
  }
  private done = 0;

  private async process(job: Job<{ todoId: string }>, token: string | undefined): Promise<void> {
    const { todoId } = job.data;
    for (let round = 0; round < 5; round++) {
      if ((await this.runner.runNow(todoId)) === "busy") {
        // The user's turns fill their limit in some process: back to the queue, looked at again soon.
        await job.moveToDelayed(Date.now() + this.busyDelayMs, token);
        throw new DelayedError();
      }
      // A start that came while this job was active was not queued again (same job id): run it here.
      if (!(await waitsForTurn(todoId))) return;
    }
  }

  start(todoId: string): void {
    void this.queue.add("turn", { todoId }, { jobId: `turn-${todoId}`, removeOnComplete: true, removeOnFail: true }).catch((err: Error) => {
      // Without the queue, run it here rather than not at all.
      log.warn("could not queue an agent turn; running it in this process", { todoId, error: err.message });
      this.runner.start(todoId);
    });
  }

  async idle(): Promise<void> {
    for (;;) {
      const counts = await this.queue.getJobCounts("waiting", "active", "delayed", "prioritized");
      if (Object.values(counts).every((n) => n === 0)) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    await this.runner.idle();
  }

  /** A job that failed outside the turn (stalled twice: its workers died) fails the turn, if it still runs. */
  private async markFailed(todoId: string, reason: string) {
    const todo = await db().todo.findUnique({ where: { id: todoId }, select: { status: true } });
    if (todo?.status !== "RUNNING") return;
    await this.runner.fail(todoId, new Error(/stalled more than allowable limit/.test(reason) ? TURN_LOST_TWICE : `The agent turn could not finish: ${reason}`));
  }

  async stop(): Promise<void> {
    await this.worker?.close();
    await this.runner.stop();
    await this.queue?.close();
    await Promise.allSettled(this.clients.map((c) => c.quit()));
  }
}

/** RUNNING with no live lease: nobody works on it. */
async function waitsForTurn(todoId: string): Promise<boolean> {
  const todo = await db().todo.findUnique({ where: { id: todoId }, select: { status: true, leaseUntil: true } });
  return todo?.status === "RUNNING" && !leaseIsLive(todo);
}

