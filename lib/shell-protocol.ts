import { z } from "zod";

// The agent's `shell` tool between the server and a bridge (`todo bridge`), over the bridge's
// Socket.IO connection (its dst_ token). One module for both ends, so they cannot drift.
//
//   server → bridge  `shell:run`    {runId, command, cwd, timeoutMs, maxOutputBytes}, ack {ok} or {ok: false, error}
//   server → bridge  `shell:cancel` {runId}
//   bridge → server  `shell:output` {runId, text}, ack {ok}: the output so far, at most every OUTPUT_EVERY_MS, in order
//   bridge → server  `shell:exit`   {runId, exitCode, signal, timedOut, truncated, error?}, ack {ok}, after the last output's ack
//
// The server sends `shell:run` and `shell:cancel` only to the room of the device the run is for
// (`credential:device:<id>`), which only that device's connections join; it accepts output and
// the exit of a run only from a connection of that device.

export const SHELL_RUN = "shell:run";
export const SHELL_CANCEL = "shell:cancel";
export const SHELL_OUTPUT = "shell:output";
export const SHELL_EXIT = "shell:exit";

/** A command runs at most this long by default, and never longer than SHELL_MAX_TIMEOUT_MS. */
export const SHELL_DEFAULT_TIMEOUT_MS = 60_000;
export const SHELL_MAX_TIMEOUT_MS = 10 * 60_000;
/** Output kept of one run (stdout and stderr together, in arrival order); a command that writes more is stopped. */
export const SHELL_MAX_OUTPUT_BYTES = 64 * 1024;
/** The bridge sends what a command wrote at most this often. */
export const SHELL_OUTPUT_EVERY_MS = 200;

export const ZShellRun = z.object({
  runId: z.string().min(1).max(128),
  command: z.string().min(1).max(4000),
  cwd: z.string().min(1).max(4096),
  timeoutMs: z.number().int().min(1000).max(SHELL_MAX_TIMEOUT_MS),
  maxOutputBytes: z.number().int().min(1).max(SHELL_MAX_OUTPUT_BYTES),
});
export type TShellRun = z.infer<typeof ZShellRun>;

export const ZShellCancel = z.object({ runId: z.string().min(1).max(128) });

export const ZShellOutput = z.object({ runId: z.string().min(1).max(128), text: z.string().max(SHELL_MAX_OUTPUT_BYTES * 2) });
export type TShellOutput = z.infer<typeof ZShellOutput>;

export const ZShellExit = z.object({
  runId: z.string().min(1).max(128),
  exitCode: z.number().int().nullable(),
  signal: z.string().max(32).nullable(),
  timedOut: z.boolean(),
  truncated: z.boolean(),
  /** It could not start (no such directory, outside the bridge's paths) or was stopped by a cancel. */
  error: z.string().max(1000).optional(),
});
export type TShellExit = z.infer<typeof ZShellExit>;

export type ShellAck = { ok: true } | { ok: false; error: string };

/** What an approval block (type `shell`) holds; `state` moves pending → running → done | failed, or pending → denied, or → cancelled. */
export type ShellBlockState = "pending" | "running" | "done" | "failed" | "denied" | "cancelled";
export type ShellBlockContent = {
  command: string;
  path: string;
  deviceId: string;
  deviceName: string;
  state: ShellBlockState;
  toolCallId?: string;
  /** The tool_call step block of the call that proposed it. */
  stepBlockId?: string;
  timeoutMs: number;
  output?: string;
  truncated?: boolean;
  exitCode?: number | null;
  signal?: string | null;
  timedOut?: boolean;
  error?: string;
  decidedBy?: string;
  startedAt?: number;
  endedAt?: number;
};

export const SHELL_SETTLED: ReadonlySet<ShellBlockState> = new Set(["done", "failed", "denied", "cancelled"]);

/** Whether `child` is `root` or inside it (both absolute and normalised, POSIX or Windows). */
export function isInside(root: string, child: string): boolean {
  const windows = /^[A-Za-z]:[\\/]/.test(root);
  const norm = (p: string) => (windows ? p.replace(/\\/g, "/").toLowerCase() : p).replace(/\/+$/, "");
  const r = norm(root);
  const c = norm(child);
  return c === r || c.startsWith(`${r}/`);
}
