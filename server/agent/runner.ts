/**
 * The agent behind every todo. Services move a todo to RUNNING in the database and then call
 * `start`; the runner does the turn and moves it on (READY, or ERROR with the reason). Pause,
 * complete and cancel are plain status changes in the database: a runner checks the status
 * between steps and stops when it is no longer RUNNING, so it works across processes too.
 */
export interface AgentRunner {
  /** Runs (or continues) a turn of the todo if it is RUNNING; no-op when a turn already runs here. */
  start(todoId: string): void;
  /** Resolves when no turn runs in this process (tests). */
  idle(): Promise<void>;
  /** Stops taking steps (turns stay RUNNING in the database) and resolves once none runs: for shutdown. */
  stop(): Promise<void>;
}
