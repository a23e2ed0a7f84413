// `npm run cluster -- --workers N [--port P]`: N server processes on one machine as one service,
// behind the small load balancer of server/cluster/balancer.ts (sticky Socket.IO sessions), on
// PostgreSQL (DATABASE_URL) and Redis (REDIS_URL), which they share. The reference for a
// multi-machine deployment (docs/deploy.md); `npm test` runs the PostgreSQL API suite through it.
//
//   balancer   0.0.0.0:P (--host)         what clients use; APP_URL defaults to http://localhost:P
//   processes  127.0.0.1:P+1 … P+N        TRUST_PROXY=1, so they see clients' addresses
//   Stripe     127.0.0.1:P+N+1            without STRIPE_SECRET_KEY: one shared stand-in
//
// A process that dies is started again after a second. SIGINT/SIGTERM: the balancer stops
// accepting, each process drains its requests and sockets (server/main.ts), then the stand-in ends.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { Command, InvalidArgumentError } from "commander";
import { Balancer } from "../server/cluster/balancer.ts";
import { serverNodeArgs } from "./server-node.mjs";
import { ensureAuthSecret } from "../server/auth/secret.ts";
import { ConfigError, loadConfig } from "../server/config.ts";

const root = path.resolve(import.meta.dirname, "..");

const whole = (min: number, max: number) => (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) throw new InvalidArgumentError(`must be a whole number from ${min} to ${max}`);
  return n;
};

const program = new Command("cluster")
  .description("Run several server processes behind a local load balancer (PostgreSQL and Redis required)")
  .option("-w, --workers <n>", "server processes", whole(1, 64), 2)
  .option("-p, --port <port>", "the balancer's port; the processes take the next ones", whole(1, 65_000), Number(process.env.PORT ?? 3000))
  .option("--host <address>", "the balancer's address (the processes listen on 127.0.0.1 only)", "0.0.0.0")
  .option("--no-build", "do not build the web app first (it must be built)")
  .parse();
const opts = program.opts<{ workers: number; port: number; host: string; build: boolean }>();

let config;
try {
  config = loadConfig({ ...process.env, PORT: String(opts.port) });
} catch (err) {
  console.error(err instanceof ConfigError ? err.message : String(err));
  process.exit(1);
}
if (!config.databaseUrl || !config.redisUrl) {
  console.error("npm run cluster needs DATABASE_URL (PostgreSQL) and REDIS_URL: the embedded database serves one process only.");
  process.exit(1);
}

if (opts.build) {
  const built = spawnSync(process.execPath, [path.join(root, "scripts/start.mjs"), "--build-only"], { cwd: root, stdio: "inherit" });
  if (built.status !== 0) process.exit(built.status ?? 1);
}

const host = opts.host;
const appUrl = process.env.APP_URL || `http://${host === "0.0.0.0" ? "localhost" : host}:${opts.port}`;
// One secret for all (made once in the data directory unless AUTH_SECRET is set).
const authSecret = ensureAuthSecret(config).authSecret!;
const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1", APP_URL: appUrl, TRUST_PROXY: "1", AUTH_SECRET: authSecret };

const children = new Set<ChildProcess>();
let stopping = false;

function run(name: string, args: string[], extra: Record<string, string | undefined>, onExit?: (code: number | null) => void): ChildProcess {
  const child = spawn(process.execPath, args, { cwd: root, env: { ...env, ...extra }, stdio: ["ignore", "pipe", "pipe"] });
  children.add(child);
  const prefix = (stream: NodeJS.WriteStream) => (chunk: Buffer) => {
    for (const line of String(chunk).split("\n")) if (line) stream.write(`[${name}] ${line}\n`);
  };
  child.stdout!.on("data", prefix(process.stdout));
  child.stderr!.on("data", prefix(process.stderr));
  child.on("exit", (code) => {
    children.delete(child);
    onExit?.(code);
  });
  return child;
}

/** Until `origin` answers `path` with a 2xx (or, `anyAnswer`, with anything at all). */
async function waitReady(origin: string, path = "/readyz", ms = 120_000, anyAnswer = false): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (stopping) return;
    const ok = await fetch(`${origin}${path}`).then(
      (r) => anyAnswer || r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${origin} was not ready within ${ms / 1000} s`);
}

if (!config.stripe.secretKey && !config.stripe.standinUrl) {
  const port = opts.port + opts.workers + 1;
  const webhookSecret = `whsec_${randomBytes(24).toString("hex")}`;
  run("stripe", ["--import", "tsx", "scripts/stripe-standin.ts"], {
    PORT: String(port),
    STRIPE_WEBHOOK_SECRET: webhookSecret,
    STRIPE_WEBHOOK_URL: `http://127.0.0.1:${opts.port}/webhooks/stripe`,
    STRIPE_STANDIN_STATE: path.join(config.dataDir, "stripe-standin.json"),
  });
  env.STRIPE_STANDIN_URL = `http://127.0.0.1:${port}`;
  env.STRIPE_WEBHOOK_SECRET = webhookSecret;
  await waitReady(env.STRIPE_STANDIN_URL, "/", 30_000, true);
}

const targets: string[] = [];
function worker(i: number) {
  const port = opts.port + i;
  run(`w${i}`, serverNodeArgs(), { PORT: String(port), HOSTNAME: "127.0.0.1", ...(env.E2E_RECORD_STATUSES ? { E2E_RECORD_STATUSES: env.E2E_RECORD_STATUSES.replace(/\.jsonl$/, `-w${i}.jsonl`) } : {}) }, (code) => {
    if (stopping) return;
    console.error(`[cluster] process w${i} exited (${code}); starting it again in 1 s`);
    setTimeout(() => worker(i), 1000);
  });
}
for (let i = 1; i <= opts.workers; i++) {
  targets.push(`http://127.0.0.1:${opts.port + i}`);
  worker(i);
}
await Promise.all(targets.map((t) => waitReady(t)));

const balancer = new Balancer({ targets });
await balancer.listen(opts.port, host);
console.log(`[cluster] ${opts.workers} processes behind ${appUrl} (balancer on ${host}:${opts.port})`);

async function stop(signal: NodeJS.Signals) {
  if (stopping) return;
  stopping = true;
  console.log(`[cluster] ${signal}: draining`);
  const closed = balancer.close(10_000);
  const exits = [...children].map((c) => new Promise((r) => c.once("exit", r)));
  for (const c of children) c.kill("SIGTERM");
  await Promise.race([Promise.all(exits), new Promise((r) => setTimeout(r, 15_000))]);
  for (const c of children) c.kill("SIGKILL");
  await closed;
  process.exit(0);
}
process.on("SIGINT", () => void stop("SIGINT"));
process.on("SIGTERM", () => void stop("SIGTERM"));
