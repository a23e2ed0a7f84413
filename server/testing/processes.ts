// Child processes of a unit test that are killed on purpose (the crash tests): started from a
// script under the repository, ready when it prints "ready", SIGKILLed by the test, and never left
// running after it.
import { after } from "node:test";
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));

/**
 * Worker processes for this test file: `start(script, env)` runs `node --import tsx <script>` from
 * the repository root and resolves once it printed "ready"; every one still alive is SIGKILLed
 * after the file's tests.
 */
export function workerProcesses() {
  const children: ChildProcess[] = [];
  after(() => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
  });
  return async function start(script: string, env: Record<string, string>): Promise<ChildProcess> {
    const child = spawn(process.execPath, ["--import", "tsx", script], { cwd: root, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    children.push(child);
    let err = "";
    child.stderr!.on("data", (d) => (err += d));
    await new Promise<void>((resolve, reject) => {
      child.stdout!.on("data", (d) => String(d).includes("ready") && resolve());
      child.once("exit", (code) => reject(new Error(`worker exited (${code}) before it was ready: ${err}`)));
    });
    return child;
  };
}

/** SIGKILLs `child` and resolves once it is gone. */
export async function killHard(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  child.kill("SIGKILL");
  await exited;
}

/** Polls `probe` every `everyMs` until it gives a truthy value, which it resolves with; throws after `ms`. */
export async function until<T>(what: string, probe: () => Promise<T | undefined | null | false>, ms = 30_000, everyMs = 20): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
