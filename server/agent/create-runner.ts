import type { Config } from "../config.ts";
import type { AgentProvider } from "./provider.ts";
import { LocalProvider } from "./providers/local.ts";
import { ConfiguredProvider } from "./providers/configured.ts";
import { TurnRunner } from "./turn-runner.ts";
import { QueuedRunner } from "./queue.ts";
import type { AgentRunner } from "./runner.ts";

/** The runner with every provider this server is configured for; AGENT_PROVIDER picks the default. */
export function createRunner(config: Config, opts: { leaseMs?: number } = {}): TurnRunner {
  const providers: Record<string, AgentProvider> = { local: new LocalProvider(config.agentStepMs) };
  for (const p of config.agentProviders) providers[p.name] = new ConfiguredProvider(p);
  return new TurnRunner({
    idleTimeoutMs: config.agentIdleTimeoutMs,
    maxRetries: config.agentMaxRetries,
    providers,
    defaultProvider: config.agentProvider,
    maxConcurrent: config.agentMaxConcurrent,
    maxPerUser: config.agentMaxPerUser,
    leaseMs: opts.leaseMs,
  });
}

/** The agent for a server process: with REDIS_URL, turns go through the shared Redis queue. */
export async function createAgent(config: Config): Promise<AgentRunner> {
  if (!config.redisUrl) return createRunner(config);
  // The turn's lease is half BullMQ's 30 s job lock, so a stalled job's retry finds it lapsed.
  const queued = new QueuedRunner(createRunner(config, { leaseMs: 15_000 }), config.redisUrl, config.agentMaxConcurrent, { lockMs: 30_000, prefix: config.redisPrefix });
  await queued.init();
  return queued;
}
