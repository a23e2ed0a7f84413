import { ZAgentProviderList } from "../../../lib/schemas/agent.ts";
import { configuredProviders } from "../../agent/policy.ts";
import { runtime } from "../../runtime.ts";
import { USER_CREDENTIAL, defineOperation } from "../../http/define.ts";

export default defineOperation({
  id: "settings_getAgentProviders",
  method: "GET",
  path: "/settings/agent-providers",
  tag: "Settings",
  summary: "The model providers and models agent settings may name (for the model picker)",
  description:
    "`local` (the built-in offline agent) and every provider the operator configured (AGENT_PROVIDERS, OPENAI_BASE_URL), each with its allowed models and their prices. Names only: no URL or key is ever part of it.",
  auth: USER_CREDENTIAL,
  response: ZAgentProviderList,
  handler: async () => ({ providers: configuredProviders(runtime().config) }),
});
