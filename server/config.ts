import path from "node:path";
import { z } from "zod";
import { parseRateLimitOverrides, type RateLimitOverrides } from "./http/rate-limit.ts";
import { parseModelList, priceOf, type ModelAllowList } from "./services/billing/prices.ts";

// Every variable the server reads, validated once at start with a message per problem.
const ZEnv = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOSTNAME: z.string().min(1).default("0.0.0.0"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgresql:// URL (leave it unset for the embedded database)")
    .optional(),
  // Connections of this process to PostgreSQL (pg's default is 10): streaming agent turns hold one
  // per transaction, and with a busy event loop for several round trips, so requests would queue
  // behind them (bench/README.md agent_turns).
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(1000).default(20),
  DATA_DIR: z.string().min(1).default("data"),
  REDIS_URL: z.string().regex(/^rediss?:\/\//, "must be a redis:// URL").optional(),
  REDIS_PREFIX: z.string().regex(/^[A-Za-z0-9_.:-]{1,64}$/, "must be 1-64 letters, digits, '_', '.', ':' or '-'").default("todo-service"),
  APP_URL: z.string().url("must be an absolute URL such as http://localhost:3000").optional(),
  AUTH_SECRET: z.string().min(16, "must be at least 16 characters").optional(),
  RESEND_API_KEY: z.string().min(1).optional(),
  EMAIL_FROM: z.string().min(3).default("Todo Service <no-reply@todo.localhost>"),
  AGENT_PROVIDER: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$/, "must be local (the built-in agent) or the name of a configured provider (openai, or one of AGENT_PROVIDERS)").default("local"),
  // The model providers users may pick by name: a JSON array (docs/api.md "Model providers").
  AGENT_PROVIDERS: z.string().max(100_000).optional(),
  OPENAI_BASE_URL: z.string().url("must be an absolute URL such as https://api.openai.com/v1 or http://localhost:11434/v1").optional(),
  OPENAI_API_KEY: z.string().min(1).optional(),
  AGENT_MODEL: z.string().min(1).max(200).optional(),
  // The models users may pick (each with a price), and the most tokens one reply may take.
  AGENT_MODELS: z
    .string()
    .max(10_000)
    .transform((value, ctx) => {
      try {
        return parseModelList(value);
      } catch (err) {
        ctx.addIssue({ code: "custom", message: (err as Error).message });
        return z.NEVER;
      }
    })
    .optional(),
  AGENT_MAX_TOKENS: z.coerce.number().int().min(1).max(200_000).default(4096),
  AGENT_STEP_MS: z.coerce.number().int().min(0).max(60_000).default(200),
  COURSE_MAIL_PER_SECOND: z.coerce.number().min(0.1).max(1000).default(10),
  // "off": this server mails no replies (the users' setting is then moot).
  REPLY_MAIL_DELAY_MS: z.union([z.literal("off"), z.coerce.number().int().min(0).max(86_400_000)], "must be milliseconds (0 to 86400000) or off").default(60_000),
  AGENT_IDLE_TIMEOUT_MS: z.coerce.number().int().min(0).max(3_600_000).default(60_000),
  AGENT_MAX_RETRIES: z.coerce.number().int().min(0).max(10).default(2),
  // Default: 8 on the embedded database, 16 on PostgreSQL (what one process sustains, bench/README.md).
  AGENT_MAX_CONCURRENT: z.coerce.number().int().min(1).max(10_000).optional(),
  AGENT_MAX_CONCURRENT_PER_USER: z.coerce.number().int().min(1).max(10_000).default(4),
  // Semantic search (docs/api.md "Search"): the offline lexical embedding, or an OpenAI-compatible
  // /embeddings endpoint (EMBEDDING_BASE_URL and EMBEDDING_API_KEY default to OPENAI_BASE_URL and OPENAI_API_KEY).
  EMBEDDING_PROVIDER: z.enum(["lexical", "openai"], "must be lexical (offline, built in) or openai (an OpenAI-compatible endpoint)").default("lexical"),
  EMBEDDING_BASE_URL: z.string().url("must be an absolute URL such as https://api.openai.com/v1").optional(),
  EMBEDDING_API_KEY: z.string().min(1).optional(),
  EMBEDDING_MODEL: z.string().min(1).max(200).default("text-embedding-3-small"),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
  // Rate limits (docs/api.md "Rate limits"): a factor on every policy, and per-policy overrides.
  RATE_LIMIT_SCALE: z.coerce.number().positive("must be a positive number").max(1_000_000).default(1),
  RATE_LIMITS: z
    .string()
    .default("")
    .transform((text, ctx) => {
      try {
        return parseRateLimitOverrides(text);
      } catch (e) {
        ctx.addIssue({ code: "custom", message: `must be name=points/seconds, comma-separated: ${(e as Error).message}` });
        return z.NEVER;
      }
    }),
  // Only behind a proxy that sets (and overwrites) X-Forwarded-*: otherwise any client could claim a host or address.
  TRUST_PROXY: z.enum(["0", "1", "false", "true"], "must be 1 (behind a trusted reverse proxy) or 0").default("0"),
  // Stripe: with a secret key the app talks to Stripe; without one, to the local stand-in (docs/api.md "Billing").
  STRIPE_SECRET_KEY: z.string().regex(/^(sk|rk)_(test|live)_[A-Za-z0-9_]+$/, "must be a Stripe secret key (sk_test_… or sk_live_…)").optional(),
  STRIPE_WEBHOOK_SECRET: z.string().regex(/^whsec_[A-Za-z0-9_]+$/, "must be a webhook signing secret (whsec_…)").optional(),
  STRIPE_PUBLISHABLE_KEY: z.string().regex(/^pk_(test|live)_[A-Za-z0-9_]+$/, "must be a Stripe publishable key (pk_test_… or pk_live_…)").optional(),
  // Without a secret key: a Stripe stand-in already running there (scripts/stripe-standin.ts), shared
  // by several server processes (`npm run cluster`); unset, each process starts its own.
  STRIPE_STANDIN_URL: z.url({ protocol: /^https?$/, error: "must be the http(s) URL of a running Stripe stand-in" }).optional(),
  // Test mode only: each new Stripe customer on a test clock of its own, so a test (or a developer)
  // can move that customer's time forward with Stripe's test-clock API and see renewals happen.
  STRIPE_TEST_CLOCKS: z.enum(["0", "1", "false", "true"], "must be 1 (a test clock per new customer) or 0").default("0"),
  // Charging agent turns against plans and credit (0 turns it off: every turn is allowed and free).
  BILLING_ENABLED: z.enum(["0", "1", "false", "true"], "must be 1 (charge agent turns) or 0").default("1"),
}).superRefine((e, ctx) => {
  if (e.STRIPE_STANDIN_URL && e.STRIPE_SECRET_KEY) ctx.addIssue({ code: "custom", path: ["STRIPE_STANDIN_URL"], message: "is for test mode without Stripe: leave it out with STRIPE_SECRET_KEY" });
  if (e.STRIPE_STANDIN_URL && !e.STRIPE_WEBHOOK_SECRET) ctx.addIssue({ code: "custom", path: ["STRIPE_WEBHOOK_SECRET"], message: "is required with STRIPE_STANDIN_URL (the stand-in signs its webhooks with it)" });
  if ((e.STRIPE_TEST_CLOCKS === "1" || e.STRIPE_TEST_CLOCKS === "true") && /^(sk|rk)_live_/.test(e.STRIPE_SECRET_KEY ?? "")) ctx.addIssue({ code: "custom", path: ["STRIPE_TEST_CLOCKS"], message: "is for test mode: Stripe has no test clocks with a live key" });
  if (e.STRIPE_SECRET_KEY && !e.STRIPE_WEBHOOK_SECRET) ctx.addIssue({ code: "custom", path: ["STRIPE_WEBHOOK_SECRET"], message: "is required with STRIPE_SECRET_KEY (the signing secret of the webhook endpoint /webhooks/stripe)" });
});

export type Config = {
  env: "development" | "production" | "test";
  port: number;
  hostname: string;
  databaseUrl?: string;
  /** Connections to PostgreSQL at most (DATABASE_POOL_SIZE). */
  databasePoolSize: number;
  dataDir: string;
  redisUrl?: string;
  /** Namespace of every Redis key and channel, so services (or test runs) sharing one Redis stay apart. */
  redisPrefix: string;
  appUrl: string;
  authSecret?: string;
  resendApiKey?: string;
  emailFrom: string;
  logLevel: "debug" | "info" | "warn" | "error" | "silent";
  /** The provider of a todo whose settings name none: "local" or a configured provider's name. */
  agentProvider: string;
  /** The model providers agent settings may name (AGENT_PROVIDERS, and "openai" from OPENAI_BASE_URL); "local" is always there. */
  agentProviders: AgentProviderConfig[];
  /** How long a model endpoint may stay silent before the turn fails (0: no limit). */
  agentIdleTimeoutMs: number;
  /** Retries of a failed model call, with backoff (AGENT_MAX_RETRIES). */
  agentMaxRetries: number;
  /** Embeddings for the related tail of todo_searchUnified (server/services/search/embeddings.ts). */
  embeddings: { provider: "lexical" } | { provider: "openai"; baseUrl: string; apiKey?: string; model: string };
  /** The models agent settings may name, each with its price (AGENT_MODELS; default: AGENT_MODEL alone). */
  agentModels: ModelAllowList;
  /** The most tokens one reply may take; agent settings may ask for fewer (AGENT_MAX_TOKENS). */
  agentMaxTokens: number;
  /** Pause between the local agent's steps. */
  agentStepMs: number;
  /** Course bulk mail: messages per second one run sends at most (COURSE_MAIL_PER_SECOND). */
  courseMailPerSecond: number;
  /** How long after an agent's reply its owner, away, is mailed about it; null: never (REPLY_MAIL_DELAY_MS=off). */
  replyMailDelayMs: number | null;
  /** Agent turns at once in one server process, and per user. */
  agentMaxConcurrent: number;
  agentMaxPerUser: number;
  /** Multiplies every rate-limit policy's points; `rateLimits` replaces named policies outright. */
  rateLimitScale: number;
  rateLimits: RateLimitOverrides;
  /** Honour X-Forwarded-Host/Proto/For (set only behind a reverse proxy that overwrites them). */
  trustProxy: boolean;
  /** Stripe's keys; without `secretKey` the local Stripe stand-in serves the SDK. */
  stripe: { secretKey?: string; webhookSecret?: string; publishableKey?: string; standinUrl?: string; testClocks: boolean };
  /** Whether agent turns are charged (BILLING_ENABLED). */
  billingEnabled: boolean;
};

/** One operator-configured model provider. Its base URL and key never leave the server. */
export type AgentProviderConfig = {
  name: string;
  /** openai: OpenAI's Responses API; openai-compatible: any chat-completions endpoint (Ollama, vLLM, LM Studio, LiteLLM); anthropic: Claude. */
  kind: AgentProviderKind;
  baseUrl?: string;
  apiKey?: string;
  /** The models it allows, each with its price (cents per million input/output tokens). */
  models: ModelAllowList;
  /** The model when settings name none (one of `models`). */
  defaultModel: string;
  /** The most tokens one reply may take. */
  maxTokens: number;
  /** The models' context window in tokens: a longer history is summarised (default 128 000). */
  contextWindow: number;
};

/** A provider's context window when its configuration names none. */
export const DEFAULT_CONTEXT_WINDOW = 128_000;

export const AGENT_PROVIDER_KINDS = ["openai", "openai-compatible", "anthropic"] as const;
export type AgentProviderKind = (typeof AGENT_PROVIDER_KINDS)[number];

const ZProviderEntry = z
  .object({
    name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$/, "must be 1-32 letters, digits, '_' or '-'").refine((n) => n !== "local", "local is the built-in agent"),
    kind: z.enum(AGENT_PROVIDER_KINDS),
    baseUrl: z.string().url().regex(/^https?:\/\//, "must be an http(s) URL").optional(),
    apiKey: z.string().min(1).optional(),
    /** The variable that holds the key, so the JSON need not. */
    apiKeyEnv: z.string().regex(/^[A-Z_][A-Z0-9_]*$/).optional(),
    /** AGENT_MODELS syntax: `name` (a model of the price table) or `name=IN/OUT`, comma-separated. */
    models: z.string().min(1).max(10_000),
    defaultModel: z.string().min(1).max(200).optional(),
    maxTokens: z.number().int().min(1).max(200_000).optional(),
    contextWindow: z.number().int().min(1024).max(10_000_000).optional(),
  })
  .strict();

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // Empty (or blank) values count as unset, as in most .env tooling.
  const cleaned = Object.fromEntries(
    Object.entries(env)
      .filter(([, v]) => v !== undefined && v.trim() !== "")
      .map(([k, v]) => [k, v!.trim()]),
  );
  const parsed = ZEnv.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`Invalid environment:\n${lines.join("\n")}`);
  }
  const e = parsed.data;
  const models = agentModelsOf(e.AGENT_MODEL, e.AGENT_MODELS);
  const model = e.AGENT_MODEL ?? Object.keys(models)[0]!;
  const providers = agentProvidersOf(e.AGENT_PROVIDERS, cleaned, e.AGENT_MAX_TOKENS);
  // OPENAI_BASE_URL (or AGENT_PROVIDER=openai): an OpenAI-compatible endpoint named "openai", with AGENT_MODELS.
  if ((e.OPENAI_BASE_URL || e.AGENT_PROVIDER === "openai") && !providers.some((p) => p.name === "openai")) {
    providers.push({ name: "openai", kind: "openai-compatible", baseUrl: e.OPENAI_BASE_URL ?? "https://api.openai.com/v1", apiKey: e.OPENAI_API_KEY, models, defaultModel: model, maxTokens: e.AGENT_MAX_TOKENS, contextWindow: DEFAULT_CONTEXT_WINDOW });
  }
  if (e.AGENT_PROVIDER !== "local" && !providers.some((p) => p.name === e.AGENT_PROVIDER)) {
    throw new ConfigError(`Invalid environment:\n  AGENT_PROVIDER: "${e.AGENT_PROVIDER}" is not a configured provider (local${providers.map((p) => `, ${p.name}`).join("")})`);
  }
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    hostname: e.HOSTNAME,
    databaseUrl: e.DATABASE_URL,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    dataDir: path.resolve(e.DATA_DIR),
    redisUrl: e.REDIS_URL,
    redisPrefix: e.REDIS_PREFIX,
    appUrl: (e.APP_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ""),
    authSecret: e.AUTH_SECRET,
    resendApiKey: e.RESEND_API_KEY,
    emailFrom: e.EMAIL_FROM,
    logLevel: e.LOG_LEVEL,
    agentProvider: e.AGENT_PROVIDER,
    agentProviders: providers,
    agentIdleTimeoutMs: e.AGENT_IDLE_TIMEOUT_MS,
    agentMaxRetries: e.AGENT_MAX_RETRIES,
    embeddings:
      e.EMBEDDING_PROVIDER === "openai"
        ? { provider: "openai", baseUrl: (e.EMBEDDING_BASE_URL ?? e.OPENAI_BASE_URL ?? "https://api.openai.com/v1").replace(/\/$/, ""), apiKey: e.EMBEDDING_API_KEY ?? e.OPENAI_API_KEY, model: e.EMBEDDING_MODEL }
        : { provider: "lexical" },
    agentModels: models,
    agentMaxTokens: e.AGENT_MAX_TOKENS,
    agentStepMs: e.AGENT_STEP_MS,
    courseMailPerSecond: e.COURSE_MAIL_PER_SECOND,
    replyMailDelayMs: e.REPLY_MAIL_DELAY_MS === "off" ? null : e.REPLY_MAIL_DELAY_MS,
    agentMaxConcurrent: e.AGENT_MAX_CONCURRENT ?? (e.DATABASE_URL ? 16 : 8),
    agentMaxPerUser: e.AGENT_MAX_CONCURRENT_PER_USER,
    rateLimitScale: e.RATE_LIMIT_SCALE,
    rateLimits: e.RATE_LIMITS,
    trustProxy: e.TRUST_PROXY === "1" || e.TRUST_PROXY === "true",
    stripe: { secretKey: e.STRIPE_SECRET_KEY, webhookSecret: e.STRIPE_WEBHOOK_SECRET, publishableKey: e.STRIPE_PUBLISHABLE_KEY, standinUrl: e.STRIPE_STANDIN_URL, testClocks: e.STRIPE_TEST_CLOCKS === "1" || e.STRIPE_TEST_CLOCKS === "true" },
    billingEnabled: e.BILLING_ENABLED === "1" || e.BILLING_ENABLED === "true",
  };
}

/**
 * The allowed models: AGENT_MODELS, else AGENT_MODEL alone (default gpt-4o-mini). AGENT_MODEL must
 * be one of AGENT_MODELS, and have a price; unset, it is the first of AGENT_MODELS.
 */
function agentModelsOf(model: string | undefined, list: ModelAllowList | undefined): ModelAllowList {
  const fail = (message: string): never => {
    throw new ConfigError(`Invalid environment:\n  ${message}`);
  };
  if (list) {
    if (model !== undefined && !Object.hasOwn(list, model)) fail(`AGENT_MODEL: "${model}" must be one of AGENT_MODELS (${Object.keys(list).join(", ")})`);
    return list;
  }
  const name = model ?? "gpt-4o-mini";
  const price = priceOf(name) ?? fail(`AGENT_MODEL: "${name}" has no known price: list it with its price in AGENT_MODELS, e.g. AGENT_MODELS=${name}=0/0 (cents per million input/output tokens)`);
  return { [name]: price };
}

/** AGENT_PROVIDERS: a JSON array of providers; each problem is named with its place. */
function agentProvidersOf(json: string | undefined, env: Record<string, string>, maxTokens: number): AgentProviderConfig[] {
  if (!json) return [];
  const fail = (message: string): never => {
    throw new ConfigError(`Invalid environment:\n  AGENT_PROVIDERS: ${message}`);
  };
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    fail("must be a JSON array of providers, e.g. [{\"name\":\"ollama\",\"kind\":\"openai-compatible\",\"baseUrl\":\"http://localhost:11434/v1\",\"models\":\"llama3=0/0\"}]");
  }
  const parsed = z.array(ZProviderEntry).max(32).safeParse(raw);
  if (!parsed.success) fail(parsed.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; "));
  const out: AgentProviderConfig[] = [];
  for (const [i, p] of parsed.data!.entries()) {
    if (out.some((o) => o.name === p.name)) fail(`${i}.name: "${p.name}" is listed twice`);
    if (p.kind === "openai-compatible" && !p.baseUrl) fail(`${i}.baseUrl: an openai-compatible provider needs its base URL`);
    let models: ModelAllowList = {};
    try {
      models = parseModelList(p.models);
    } catch (err) {
      fail(`${i}.models: ${(err as Error).message}`);
    }
    const defaultModel = p.defaultModel ?? Object.keys(models)[0]!;
    if (!Object.hasOwn(models, defaultModel)) fail(`${i}.defaultModel: "${defaultModel}" must be one of its models`);
    const apiKey = p.apiKey ?? (p.apiKeyEnv ? (env[p.apiKeyEnv] ?? fail(`${i}.apiKeyEnv: ${p.apiKeyEnv} is not set`)) : undefined);
    out.push({ name: p.name, kind: p.kind, baseUrl: p.baseUrl, apiKey, models, defaultModel, maxTokens: p.maxTokens ?? maxTokens, contextWindow: p.contextWindow ?? DEFAULT_CONTEXT_WINDOW });
  }
  return out;
}
