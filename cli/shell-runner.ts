import { spawn } from "node:child_process";
import { realpath } from "node:fs/promises";
import path from "node:path";
import type { Socket } from "socket.io-client";
import {
  isInside,
  SHELL_CANCEL,
  SHELL_EXIT,
  SHELL_MAX_OUTPUT_BYTES,
  SHELL_MAX_TIMEOUT_MS,
  SHELL_OUTPUT,
  SHELL_OUTPUT_EVERY_MS,
  SHELL_RUN,
  ZShellCancel,
  ZShellRun,
  type ShellAck,
  type TShellExit,
  type TShellRun,
} from "../lib/shell-protocol.ts";

// The bridge's side of the agent's shell commands (lib/shell-protocol.ts): a command the user
// approved comes in as `shell:run`; it runs in its cwd only when that is inside one of this
// bridge's own --path roots (whatever the server said), with a timeout and an output cap, its
// process group stopped at either; what it writes goes back in order, at most every 200 ms, each
// piece acknowledged before the next, then its exit. A run the server no longer wants (its ack
// says so, or `shell:cancel`) is stopped.

type Run = { kill(reason: string): void };

/** The environment a command gets: the bridge's, without its own credentials. */
function commandEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const k of Object.keys(env)) if (k.startsWith("TODO_")) delete env[k];
  return env;
}

/** Whether `cwd` (resolved, symlinks followed) is inside one of `roots`; the real path when it is. */
export async function allowedCwd(roots: string[], cwd: string): Promise<string | null> {
  if (!path.isAbsolute(cwd)) return null;
  let real: string;
  try {
    real = await realpath(cwd);
  } catch {
    return null;
  }
  for (const root of roots) {
    const r = await realpath(root).catch(() => path.resolve(root));
    if (isInside(r, real)) return real;
  }
  return null;
}

export class ShellRunner {
  private readonly runs = new Map<string, Run>();
  private readonly seen = new Set<string>();

  constructor(
    private readonly roots: string[],
    /** The connection to send on now (a renewal replaces it mid-run). */
    private readonly socket: () => Socket | undefined,
    private readonly say: (line: string) => void,
  ) {}

  /** Listens on a (new) connection. */
  attach(socket: Socket): void {
    socket.on(SHELL_RUN, (raw: unknown, ack?: (a: ShellAck) => void) => {
      const parsed = ZShellRun.safeParse(raw);
      if (!parsed.success) return ack?.({ ok: false, error: "malformed run" });
      void this.start(parsed.data).then((a) => ack?.(a));
    });
    socket.on(SHELL_CANCEL, (raw: unknown) => {
      const parsed = ZShellCancel.safeParse(raw);
      if (parsed.success) this.runs.get(parsed.data.runId)?.kill("cancelled");
    });
  }

  /** Stops every command (the bridge is stopping). */
  stopAll(): void {
    for (const run of this.runs.values()) run.kill("the bridge stopped");
  }

  private async start(run: TShellRun): Promise<ShellAck> {
    // Every connection of this device hears it (two while a token is renewed): it runs once.
    if (this.seen.has(run.runId)) return { ok: true };
    const cwd = await allowedCwd(this.roots, run.cwd);
    if (!cwd) return { ok: false, error: `${run.cwd} is not an existing directory inside this bridge's workspace paths (${this.roots.join(", ")})` };
    this.seen.add(run.runId);
    this.say(`Running (approved in the chat) in ${cwd}: ${run.command}`);
    void this.execute(run, cwd);
    return { ok: true };
  }

  private async send(event: string, payload: unknown): Promise<boolean> {
    for (let attempt = 0; attempt < 50; attempt++) {
      const socket = this.socket();
      if (socket?.connected) {
        try {
          const ack = (await socket.timeout(10_000).emitWithAck(event, payload)) as ShellAck;
          return ack.ok;
        } catch {
          // No answer in time: try again (on the next connection, if this one went).
        }
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    return false;
  }

  private async execute(run: TShellRun, cwd: string): Promise<void> {
    const max = Math.min(run.maxOutputBytes, SHELL_MAX_OUTPUT_BYTES);
    const child = spawn(run.command, { cwd, shell: true, env: commandEnv(), detached: process.platform !== "win32", stdio: ["ignore", "pipe", "pipe"] });
    let pending = "";
    let bytes = 0;
    let truncated = false;
    let timedOut = false;
    let stopReason: string | undefined;
    const killTree = () => {
      try {
        if (child.pid && process.platform !== "win32") process.kill(-child.pid, "SIGKILL");
        else child.kill("SIGKILL");
      } catch {
        // Gone already.
      }
    };
    this.runs.set(run.runId, {
      kill: (reason) => {
        stopReason ??= reason;
        killTree();
      },
    });
    const take = (chunk: Buffer) => {
      if (truncated) return;
      const room = max - bytes;
      const piece = chunk.length > room ? chunk.subarray(0, room) : chunk;
      bytes += piece.length;
      pending += piece.toString("utf8");
      if (chunk.length > room) {
        truncated = true;
        stopReason ??= `it wrote more than ${max} bytes`;
        killTree();
      }
    };
    child.stdout.on("data", take);
    child.stderr.on("data", take);
    const timer = setTimeout(() => {
      timedOut = true;
      killTree();
    }, Math.min(run.timeoutMs, SHELL_MAX_TIMEOUT_MS));
    const exited = new Promise<{ code: number | null; signal: string | null; error?: string }>((resolve) => {
      child.once("error", (err) => resolve({ code: null, signal: null, error: err.message }));
      child.once("close", (code, signal) => resolve({ code, signal }));
    });
    // The output in order: one piece in flight at a time, at most every SHELL_OUTPUT_EVERY_MS.
    let done = false;
    const pump = (async () => {
      while (!done || pending) {
        if (pending) {
          const text = pending;
          pending = "";
          if (!(await this.send(SHELL_OUTPUT, { runId: run.runId, text }))) {
            stopReason ??= "the server no longer wants it";
            killTree();
          }
        }
        if (!done) await new Promise((r) => setTimeout(r, SHELL_OUTPUT_EVERY_MS));
      }
    })();
    const result = await exited;
    clearTimeout(timer);
    done = true;
    await pump;
    this.runs.delete(run.runId);
    const exit: TShellExit = {
      runId: run.runId,
      exitCode: timedOut ? null : result.code,
      signal: result.signal,
      timedOut,
      truncated,
      ...(result.error ? { error: result.error.slice(0, 1000) } : stopReason && !timedOut && !truncated ? { error: `stopped: ${stopReason}` } : {}),
    };
    await this.send(SHELL_EXIT, exit);
    this.say(`Finished (${timedOut ? "timed out" : result.code !== null ? `exit code ${result.code}` : `signal ${result.signal}`}): ${run.command}`);
  }
}
