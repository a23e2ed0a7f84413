// Child processes of a benchmark: started here, always stopped on the way out (normal end,
// error or Ctrl-C), with the tail of their output kept for error messages.
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import http from "node:http";
import net from "node:net";

export type Child = {
  name: string;
  proc: ChildProcess;
  /** Resolves with the exit code (or the signal's name) when the process ends. */
  exited: Promise<number | string>;
  /** The last lines it wrote (stdout and stderr), for error messages. */
  tail(): string;
};

const running = new Set<Child>();
// Once we stop the servers, what they say while shutting down (aborted requests) is noise.
let stopping = false;

export type StartOptions = {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Called with each stdout line. */
  onLine?: (line: string) => void;
  /** Copy stderr lines to our stderr, prefixed by the name (warnings and errors of the servers). */
  echoStderr?: boolean;
  /** With echoStderr: echo the same line at most this many times (a warning repeated per request). */
  echoRepeats?: number;
};

export function start(name: string, cmd: string, args: string[], o: StartOptions): Child {
  const proc = spawn(cmd, args, { cwd: o.cwd, env: o.env, stdio: ["ignore", "pipe", "pipe"] });
  const lines: string[] = [];
  const keep = (line: string) => {
    lines.push(line);
    if (lines.length > 40) lines.shift();
  };
  const split = (stream: NodeJS.ReadableStream, each: (line: string) => void) => {
    let rest = "";
    stream.setEncoding("utf8");
    stream.on("data", (chunk: string) => {
      const parts = (rest + chunk).split("\n");
      rest = parts.pop() ?? "";
      parts.forEach(each);
    });
    stream.on("end", () => rest && each(rest));
  };
  split(proc.stdout!, (line) => {
    keep(line);
    o.onLine?.(line);
  });
  const seen = new Map<string, number>();
  split(proc.stderr!, (line) => {
    keep(line);
    if (!o.echoStderr || stopping || !line.trim()) return;
    const times = (seen.get(line) ?? 0) + 1;
    seen.set(line, times);
    if (o.echoRepeats === undefined || times <= o.echoRepeats) process.stderr.write(`[${name}] ${line}\n`);
    else if (times === o.echoRepeats + 1) process.stderr.write(`[${name}] (the line above again; further repeats not shown)\n`);
  });
  const exited = new Promise<number | string>((resolve) => {
    proc.on("error", (err) => {
      keep(String(err));
      resolve(-1);
    });
    proc.on("exit", (code, signal) => resolve(code ?? signal ?? -1));
  });
  const child: Child = { name, proc, exited, tail: () => lines.join("\n") };
  running.add(child);
  void exited.then(() => running.delete(child));
  return child;
}

/** Runs a command to its end; resolves with its stdout, rejects with its output when it fails. */
export async function run(name: string, cmd: string, args: string[], o: StartOptions): Promise<string> {
  const out: string[] = [];
  const child = start(name, cmd, args, { ...o, onLine: (l) => out.push(l) });
  const code = await child.exited;
  if (code !== 0) throw new Error(`${name} exited with ${code}:\n${child.tail()}`);
  return out.join("\n");
}

/** SIGTERM to every child still running, SIGKILL to those still there after graceMs. */
export async function stopAll(graceMs = 10_000): Promise<void> {
  stopping = true;
  const all = [...running];
  for (const c of all) c.proc.kill("SIGTERM");
  await Promise.all(
    all.map(async (c) => {
      const timer = setTimeout(() => c.proc.kill("SIGKILL"), graceMs);
      await c.exited;
      clearTimeout(timer);
    }),
  );
}

/** Last resort from a synchronous 'exit' handler. */
export function killAllNow(): void {
  for (const c of running) c.proc.kill("SIGKILL");
}

/**
 * What a benchmark undoes on the way out: push undo steps to `cleanups`; `cleanup()` stops every
 * child, then runs them once, in reverse order. SIGINT/SIGTERM run it and exit 130 (`what` names
 * what is being stopped); `stopping` turns true once it started, `interrupted` on such a signal.
 */
export function exitCleanup(what: string) {
  const cleanups: (() => Promise<void> | void)[] = [];
  let cleaning: Promise<void> | undefined;
  let started = false;
  const cleanup = (): Promise<void> => {
    started = true;
    cleaning ??= (async () => {
      await stopAll();
      for (const undo of cleanups.reverse()) {
        try {
          await undo();
        } catch (e) {
          console.error(`cleanup: ${String(e)}`);
        }
      }
    })();
    return cleaning;
  };
  let interrupted = false;
  process.on("exit", killAllNow);
  for (const sig of ["SIGINT", "SIGTERM"] as const) {
    process.on(sig, () => {
      if (interrupted) return;
      interrupted = true;
      console.error(`\n${sig}: stopping ${what}`);
      void cleanup().finally(() => process.exit(130));
    });
  }
  return {
    cleanups,
    cleanup,
    get stopping() {
      return started;
    },
    get interrupted() {
      return interrupted;
    },
  };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** Waits until the server answers any HTTP request at url; fails early if the child exits. */
export async function waitForHttp(url: string, child: Child, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let gone: number | string | undefined;
  void child.exited.then((code) => (gone = code));
  for (;;) {
    if (gone !== undefined) throw new Error(`${child.name} exited (${gone}) before answering ${url}:\n${child.tail()}`);
    const answered = await new Promise<boolean>((resolve) => {
      const req = http.get(url, { agent: false }, (res) => {
        res.resume();
        resolve(true);
      });
      req.setTimeout(2000, () => req.destroy());
      req.on("error", () => resolve(false));
    });
    if (answered) return;
    if (Date.now() > deadline) throw new Error(`${child.name} did not answer ${url} within ${timeoutMs / 1000} s:\n${child.tail()}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * CPU time (user + system) a process has used so far, in ms, from /proc (Linux; clock ticks of
 * 10 ms, the usual CLK_TCK of 100). undefined where /proc is not available.
 */
export function cpuMs(pid: number | undefined): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" "); // fields from the 3rd (state) on
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime
  } catch {
    return undefined;
  }
}
