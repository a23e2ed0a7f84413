/**
 * The agent behind every todo. Services move a todo to RUNNING in the database and then call
 * `start`; the runner does the turn and moves it on (READY, or ERROR with the reason). Pause,
 * complete and cancel are status changes through the lifecycle, which signals the running turn
 * after the commit, in whichever process it runs (./turn-signals.ts); the turn stops at once.
 * The server's runner (./turn-job.ts, JobAgent) queues the turn as the job `agent.turn`, whose
 * handler calls `runNow` in the process that takes the job.
 */
export interface AgentRunner {
  /** Queues (or runs) a turn of the todo if it is RUNNING; no-op when one is already queued or runs. */
  start(todoId: string, /** the todo's owner, when the caller knows it (saves a read) */ userId?: string): void;
  /** Runs the todo's turns in this process and resolves when they are over (the job's handler). */
  runNow(todoId: string, userId?: string): Promise<RunOutcome>;
  /** Resolves when no turn runs (or waits) in this process (tests). */
  idle(): Promise<void>;
  /** Stops taking steps (turns stay RUNNING in the database) and resolves once none runs: for shutdown. */
  stop(): Promise<void>;
}

/**
 * What `runNow` did: ran what there was to run (`done`), or did not finish and should be looked at
 * again in `retryInMs`: the user's turns fill their limit (in some process), another live process
 * holds the todo's lease, or this runner is stopping (a shutdown: the next process carries on).
 */
export type RunOutcome = { done: true } | { done: false; reason: "busy" | "held" | "stopping"; retryInMs: number };
