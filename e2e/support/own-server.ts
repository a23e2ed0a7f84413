import { spawn, type ChildProcess } from "node:child_process";
import { serverNodeArgs } from "../../scripts/server-node.mjs";

// A production server of a test's own (embedded database unless `env` says otherwise, no Redis),
// for what the run's shared servers cannot show: crashes, start-up, settings of its own.

/**
 * The port `offset` above E2E_PORT_BASE (default 3100). In use: 0–4 and 20 (playwright.config.ts),
 * 19 restart.spec, 23 jobs.spec, 24–27 faults.spec, 28–29 reply-mail.spec.
 */
export function ownPort(offset: number): number {
  return Number(process.env.E2E_PORT_BASE ?? 3100) + offset;
}

/** Starts `server/main.ts` in production mode on `port` with `dataDir`; `env` adds to or overrides the defaults. */
export function startOwnServer(port: number, dataDir: string, env: Record<string, string> = {}): ChildProcess {
  return spawn(process.execPath, serverNodeArgs(), {
    env: { ...process.env, NODE_ENV: "production", PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: "warn", AUTH_SECRET: "own-server-test-secret-0123456789abcdef", DATABASE_URL: "", REDIS_URL: "", ...env },
    stdio: "ignore",
  });
}

/** Resolves once `base` serves its OpenAPI document; up to 2 minutes (tsx compiles the server at start, slow on a loaded 2-core machine). */
export async function waitUp(base: string): Promise<void> {
  for (let i = 0; i < 480; i++) {
    try {
      if ((await fetch(`${base}/api/v1/openapi.json`)).ok) return;
    } catch {
      // not yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the server at ${base} did not start`);
}

/** Stops the process with `signal` unless it has exited; resolves with its exit code. */
export async function stopOwnServer(server: ChildProcess, signal: NodeJS.Signals = "SIGTERM"): Promise<number | null> {
  if (server.exitCode !== null || server.signalCode !== null) return server.exitCode;
  const exited = new Promise<number | null>((r) => server.once("exit", (code) => r(code)));
  server.kill(signal);
  return exited;
}
