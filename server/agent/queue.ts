import { Queue, Worker, type Job } from "bullmq";
import { createClient } from "redis";
import type { Prisma } from "../db/generated/client.ts";
import { log } from "../log.ts";
import { db } from "../runtime.ts";
import { publishStatus } from "../services/todos/events.ts";
import { asObject } from "../services/todos/serialize.ts";
import type { AgentRunner } from "./runner.ts";
import type { TurnRunner } from "./turn-runner.ts";

const QUEUE = "agent-turns";

/**
 * With REDIS_URL, turns are jobs on a BullMQ queue: every server process runs a worker, so the
 * processes share the work. A job whose worker died (its lock lapses) is retried once by another
 * worker; the turn itself resumes where it stopped (TurnRunner leases and workflow state). A job
 * that stalls again leaves the todo ERROR with the reason.
 */
export class QueuedRunner implements AgentRunner {
  private queue!: Queue;
  private worker!: Worker;
  private clients: { quit(): Promise<unknown> }[] = [];

  constructor(
    private readonly runner: TurnRunner,
    private readonly redisUrl: string,
    private readonly concurrency: number,
    private readonly prefix = "todo-service",
  ) {}

  async init(): Promise<void> {
    const connection = createClient({ url: this.redisUrl });
    const workerConnection = createClient({ url: this.redisUrl });
    for (const c of [connection, workerConnection]) c.on("error", (err) => log.warn("redis (queue) error", { error: String(err) }));
    await Promise.all([connection.connect(), workerConnection.connect()]);
    this.clients.push(connection, workerConnection);
    this.queue = new Queue(QUEUE, { connection, prefix: this.prefix });
    this.worker = new Worker(QUEUE, (job: Job<{ todoId: string }>) => this.runner.runNow(job.data.todoId), {
      connection: workerConnection,
      prefix: this.prefix,
      concurrency: this.concurrency,
      maxStalledCount: 1, // a crashed worker's turn is retried once
      lockDuration: 30_000,
    });
    this.worker.on("failed", (job, err) => {
      if (job) void markFailed(job.data.todoId, err.message).catch(() => undefined);
    });
    this.worker.on("error", (err) => log.warn("agent queue worker error", { error: err.message }));
    this.worker.on("completed", () => this.done++);
  }

  /** Jobs this worker has completed (tests and the benchmark). */
  get processed(): number {
    return this.done;
  }
  private done = 0;

  start(todoId: string): void {
    void this.queue.add("turn", { todoId }, { removeOnComplete: true, removeOnFail: 1000 }).catch((err: Error) => {
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

  async stop(): Promise<void> {
    await this.worker?.close();
    await this.runner.stop();
    await this.queue?.close();
    await Promise.allSettled(this.clients.map((c) => c.quit()));
  }
}

async function markFailed(todoId: string, reason: string) {
  const todo = await db().todo.findUnique({ where: { id: todoId }, select: { id: true, projectId: true, status: true, metadata: true } });
  if (!todo || todo.status !== "RUNNING") return;
  const error = `The agent turn could not finish: ${reason}`;
  await db().todo.update({ where: { id: todoId }, data: { status: "ERROR", metadata: { ...asObject(todo.metadata), error } as Prisma.InputJsonValue } });
  publishStatus(todo, "ERROR", "RUNNING");
}
