/**
 * The agent behind every todo. Services move a todo to RUNNING in the database and then call
 * `start`; the runner does the turn and moves it on (READY, or ERROR with the reason). Pause,
 * complete and cancel are status changes through the lifecycle, which signals the running turn
 * after the commit, in whichever process it runs (./turn-signals.ts); the turn stops at once.
 */
export interface AgentRunner {
  /** Runs (or continues) a turn of the todo if it is RUNNING; no-op when a turn already runs here. */
  start(todoId: string, /** the todo's owner, when the caller knows it (saves a read) */ userId?: string): void;
  /** Resolves when no turn runs in this process (tests). */
  idle(): Promise<void>;
  /** Stops taking steps (turns stay RUNNING in the database) and resolves once none runs: for shutdown. */
  stop(): Promise<void>;
}
