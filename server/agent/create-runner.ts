import type { Config } from "../config.ts";
import type { AgentProvider } from "./provider.ts";
import { LocalProvider } from "./providers/local.ts";
import { OpenAIProvider } from "./providers/openai.ts";
import { TurnRunner } from "./turn-runner.ts";
import { QueuedRunner } from "./queue.ts";
import type { AgentRunner } from "./runner.ts";

/** The runner with every provider this server is configured for; AGENT_PROVIDER picks the default. */
export function createRunner(config: Config): TurnRunner {
  const providers: Record<string, AgentProvider> = { local: new LocalProvider(config.agentStepMs) };
  if (config.openai) providers.openai = new OpenAIProvider(config.openai);
  return new TurnRunner({
    providers,
    defaultProvider: config.agentProvider,
    maxConcurrent: config.agentMaxConcurrent,
    maxPerUser: config.agentMaxPerUser,
  });
}

/** The agent for a server process: with REDIS_URL, turns go through the shared Redis queue. */
export async function createAgent(config: Config): Promise<AgentRunner> {
  const runner = createRunner(config);
  if (!config.redisUrl) return runner;
  const queued = new QueuedRunner(runner, config.redisUrl, config.agentMaxConcurrent);
  await queued.init();
  return queued;
}
