import type { Config } from "../config.ts";
import type { AgentProvider } from "./provider.ts";
import { LocalProvider } from "./providers/local.ts";
import { ConfiguredProvider } from "./providers/configured.ts";
import { TurnRunner } from "./turn-runner.ts";
import { JobAgent } from "./turn-job.ts";

/** The runner with every provider this server is configured for; AGENT_PROVIDER picks the default. */
export function createRunner(config: Config, opts: { leaseMs?: number } = {}): TurnRunner {
  const providers: Record<string, AgentProvider> = { local: new LocalProvider(config.agentStepMs) };
  for (const p of config.agentProviders) providers[p.name] = new ConfiguredProvider(p);
  return new TurnRunner({
    idleTimeoutMs: config.agentIdleTimeoutMs,
    maxConcurrent: config.agentMaxConcurrent,
    maxRetries: config.agentMaxRetries,
    providers,
    defaultProvider: config.agentProvider,
    maxPerUser: config.agentMaxPerUser,
    leaseMs: opts.leaseMs,
  });
}

/**
 * The agent for a server process: turns are `agent.turn` jobs (./turn-job.ts). The turn's lease is
 * half the job lock of the backend (BullMQ's 30 s, the in-process backend's 60 s), so a run taken
 * over from a dead process finds the lease lapsed.
 */
export function createAgent(config: Config): JobAgent {
  return new JobAgent(createRunner(config, { leaseMs: config.redisUrl ? 15_000 : 30_000 }));
}
