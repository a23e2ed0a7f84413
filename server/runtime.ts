import type { Config } from "./config.ts";
import type { PrismaClient } from "./db/generated/client.ts";
import type { EventBus } from "./realtime/bus.ts";
import type { Mailer } from "./email/mailer.ts";
import type { AgentRunner } from "./agent/runner.ts";
import type { Server as SocketServer } from "socket.io";
import type { RateLimits } from "./http/rate-limit.ts";
import type { JobBackend } from "./jobs/define.ts";
import type { StripeGateway } from "./services/billing/gateway.ts";

/**
 * The process-wide services, set once by the server at start (or by a test). Services read them
 * through `runtime()` rather than importing singletons, so a test can swap in its own database.
 */
export type Runtime = {
  config: Config;
  prisma: PrismaClient;
  /** Which database `prisma` talks to (server/db/open.ts); unset in scripts that do not say, read as the embedded one. */
  database?: "pglite" | "postgres";
  bus: EventBus;
  mailer: Mailer;
  /** Runs agent turns; services hand it a todo once it is RUNNING. */
  agent: AgentRunner;
  /** Absent in processes that serve no sockets (scripts, unit tests). */
  io?: SocketServer;
  /** The process's rate limiter (server/http/rate-limit.ts); absent in scripts and unit tests. */
  limits?: RateLimits;
  /** Background jobs (server/jobs/): the server starts it; absent in unit tests that set none. */
  jobs?: JobBackend;
  /** Stripe through its SDK (real, or the local stand-in); made on first use when absent (server/services/billing/stripe.ts). */
  stripe?: StripeGateway;
};

let current: Runtime | undefined;

export function setRuntime(next: Runtime | undefined): void {
  current = next;
}

export function runtime(): Runtime {
  if (!current) throw new Error("Runtime not initialised: start the app through server/main.ts (npm start / npm run dev)");
  return current;
}

export function db(): PrismaClient {
  return runtime().prisma;
}
