// Agent turns as the job `agent.turn` (docs/jobs.md "Agent turns"): the lifecycle's "start a turn"
// queues it (key: the todo, so one job per todo on both backends), and the process that takes the
// job runs the turn there (TurnRunner.runNow). The lease (./turn-lease.ts) still says who runs the
// turn; the job says that someone will.
import { z } from "zod";
import { enqueue } from "../jobs/enqueue.ts";
import { defineJob, type JobDefinition } from "../jobs/define.ts";
import { log } from "../log.ts";
import { db, runtime } from "../runtime.ts";
import type { AgentRunner, RunOutcome } from "./runner.ts";
import { TURN_LOST_TWICE } from "./turn-lease.ts";
import type { TurnRunner } from "./turn-runner.ts";
import { failTurn } from "./turn-store.ts";

export const TurnJobData = z.object({ todoId: z.string().min(1), /** the owner, when the enqueuer knew it (saves a read) */ userId: z.string().min(1).optional() });

/**
 * The job, running its turns on `agent()` (the runtime's runner; a test binds its own).
 * - The user's turns fill their limit, or a live process holds the todo: `ctx.defer`, no attempt counted.
 * - `attempts: 2`: a run cut off (its process died) is resumed once (the turn resumes where its reply
 *   stopped); cut off again, or a handler that throws twice, and the job fails, and its failure hook
 *   ends the todo in ERROR (TURN_LOST_TWICE for a lost run). A turn whose model fails ends in ERROR
 *   inside the run (the job then completes): retrying a model error is the provider's business.
 * - `rerun`: a start that comes while the job runs (a message added as the turn ended) runs it once more.
 * - Lane "agent": turns take AGENT_MAX_CONCURRENT slots of their own per process (createJobs).
 */
export function defineTurnJob(agent: () => Pick<AgentRunner, "runNow">): JobDefinition<typeof TurnJobData> {
  return defineJob(
    "agent.turn",
    TurnJobData,
    async ({ todoId, userId }, ctx) => {
      const outcome: RunOutcome = await agent().runNow(todoId, userId);
      if (!outcome.done) ctx.defer(outcome.retryInMs);
    },
    {
      attempts: 2,
      backoffMs: 1000,
      lane: "agent",
      rerun: true,
      onFailed: async ({ todoId }, failure) => {
        const todo = await db().todo.findUnique({ where: { id: todoId }, select: { status: true } });
        if (todo?.status !== "RUNNING") return;
        await failTurn(todoId, new Error(failure.lost ? TURN_LOST_TWICE : `The agent turn could not finish: ${failure.error}`));
      },
    },
  );
}

/** The job the server runs (server/jobs/registry.ts). */
export const agentTurnJob = defineTurnJob(() => runtime().agent);

/**
 * The server's AgentRunner: `start` queues the todo's turn job on the process's job backend (in
 * process on the database, or BullMQ with REDIS_URL); whichever process takes it runs the turn on
 * its TurnRunner. Without a backend (a script) or when the enqueue fails, the turn runs here.
 */
export class JobAgent implements AgentRunner {
  constructor(readonly runner: TurnRunner) {}

  start(todoId: string, userId?: string): void {
    let backend;
    try {
      backend = runtime().jobs;
    } catch {
      backend = undefined;
    }
    if (!backend) return this.runner.start(todoId, userId);
    enqueue(agentTurnJob, { todoId, ...(userId ? { userId } : {}) }, { key: todoId }, backend).catch((err: unknown) => {
      log.warn("could not queue an agent turn; running it in this process", { todoId, error: err instanceof Error ? err.message : String(err) });
      this.runner.start(todoId, userId);
    });
  }

  runNow(todoId: string, userId?: string): Promise<RunOutcome> {
    return this.runner.runNow(todoId, userId);
  }

  /** No turn job waits or runs (on the backend: every process's), and no turn runs here. */
  async idle(): Promise<void> {
    await runtime().jobs?.idle();
    await this.runner.idle();
  }

  async stop(): Promise<void> {
    await this.runner.stop();
  }
}
