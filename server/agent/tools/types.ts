// The shape of one agent tool (./index.ts lists them); its own module so each tool's file can
// name it without importing the list that imports the tool.
import type { ToolSet } from "ai";
import type { Caller } from "../../auth/caller.ts";
import type { TodoRef } from "../../services/todos/lifecycle.ts";
import type { ToolSteps } from "../turn-store.ts";

export type ToolContext = {
  todo: TodoRef & { userId: string };
  /** The todo's owner, as whom every tool acts. */
  caller: Caller;
  /** The reply this turn writes. */
  messageId: string;
  /** Blocks of the reply: tools add theirs here. */
  steps: ToolSteps;
  /** Aborted on pause, cancel, or a lost lease. */
  signal: AbortSignal;
};

export type AgentToolDef = {
  name: string;
  /** Whether the turn gets this tool (absent: always). */
  available?(ctx: ToolContext): boolean | Promise<boolean>;
  create(ctx: ToolContext): ToolSet[string];
  /** Whether a successful call (given its result) ends the turn: the todo then waits (spawn_subtodos, shell). */
  endsTurn?(output: unknown): boolean;
};
