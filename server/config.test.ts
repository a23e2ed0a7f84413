import { describe, test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { ConfigError, loadConfig } from "./config.ts";

// NodeJS.ProcessEnv is augmented (by Next) to require NODE_ENV; loadConfig treats every key as optional.
const load = (env: Record<string, string | undefined>) => loadConfig(env as NodeJS.ProcessEnv);

function configError(names: string[], absent: string[] = []) {
  return (err: unknown) => {
    assert.ok(err instanceof ConfigError, `expected a ConfigError, got ${String(err)}`);
    assert.match(err.message, /^Invalid environment:/);
    for (const n of names) assert.match(err.message, new RegExp(`^  ${n}: .+`, "m"), `${n} not named in:\n${err.message}`);
    for (const n of absent) assert.doesNotMatch(err.message, new RegExp(`\\b${n}\\b`), `${n} wrongly named in:\n${err.message}`);
    return true;
  };
}

describe("defaults", () => {
  test("an empty environment gives the documented defaults", () => {
    assert.deepEqual(load({}), {
      env: "development",
      port: 3000,
      hostname: "0.0.0.0",
      databaseUrl: undefined,
      dataDir: path.resolve("data"),
      databasePoolSize: 20,
      redisUrl: undefined,
      redisPrefix: "todo-service",
      appUrl: "http://localhost:3000",
      authSecret: undefined,
      resendApiKey: undefined,
      emailFrom: "Todo Service <no-reply@todo.localhost>",
      logLevel: "info",
      agentProvider: "local",
      agentProviders: [],
      agentIdleTimeoutMs: 60_000,
      agentMaxRetries: 2,
      agentStepMs: 200,
      agentMaxConcurrent: 8,
      agentMaxPerUser: 4,
      rateLimitScale: 1,
      rateLimits: {},
      trustProxy: false,
      stripe: { secretKey: undefined, webhookSecret: undefined, publishableKey: undefined, standinUrl: undefined, testClocks: false },
      billingEnabled: true,
      courseMailPerSecond: 10,
      replyMailDelayMs: 60_000,
      embeddings: { provider: "lexical" },
      agentModels: { "gpt-4o-mini": { inPerMTok: 15, outPerMTok: 60 } },
      agentMaxTokens: 4096,
    });
  });

  test("reads the given object, not process.env, and ignores unrelated variables", () => {
    const saved = process.env.PORT;
    process.env.PORT = "not-a-port";
    try {
      assert.equal(load({ PATH: "/usr/bin", HOME: "/root", SOMETHING_ELSE: "x" }).port, 3000);
    } finally {
      if (saved === undefined) delete process.env.PORT;
      else process.env.PORT = saved;
    }
  });

  test("every variable is read", () => {
    const c = load({
      NODE_ENV: "production",
      PORT: "8080",
      HOSTNAME: "127.0.0.1",
      DATABASE_URL: "postgresql://u:p@db:5432/todo",
      DATA_DIR: "/var/lib/todo",
      DATABASE_POOL_SIZE: "30",
      REDIS_URL: "rediss://cache:6380",
      REDIS_PREFIX: "shop-1",
      APP_URL: "https://todo.example.org/",
      AUTH_SECRET: "0123456789abcdef",
      RESEND_API_KEY: "re_123",
      EMAIL_FROM: "Todo <todo@example.org>",
      LOG_LEVEL: "warn",
      AGENT_PROVIDER: "openai",
      OPENAI_BASE_URL: "http://localhost:11434/v1",
      OPENAI_API_KEY: "sk-test",
      AGENT_MODEL: "llama3",
      AGENT_MODELS: "llama3=0/0, gpt-4o-2024-08-06",
      AGENT_MAX_TOKENS: "8000",
      AGENT_STEP_MS: "25",
      COURSE_MAIL_PER_SECOND: "2.5",
      REPLY_MAIL_DELAY_MS: "off",
      AGENT_IDLE_TIMEOUT_MS: "5000",
      AGENT_MAX_RETRIES: "1",
      AGENT_MAX_CONCURRENT: "64",
      AGENT_MAX_CONCURRENT_PER_USER: "2",
      RATE_LIMIT_SCALE: "0.5",
      RATE_LIMITS: "share=3/60, signInIp=10000/900",
      TRUST_PROXY: "1",
      STRIPE_SECRET_KEY: "sk_test_abc123",
      STRIPE_WEBHOOK_SECRET: "whsec_abc123",
      STRIPE_PUBLISHABLE_KEY: "pk_test_abc123",
      BILLING_ENABLED: "0",
      EMBEDDING_PROVIDER: "openai",
      EMBEDDING_API_KEY: "sk-embed",
      EMBEDDING_MODEL: "nomic-embed-text",
    });
    const models = { llama3: { inPerMTok: 0, outPerMTok: 0 }, "gpt-4o-2024-08-06": { inPerMTok: 250, outPerMTok: 1000 } };
    assert.deepEqual(c, {
      env: "production",
      port: 8080,
      hostname: "127.0.0.1",
      databaseUrl: "postgresql://u:p@db:5432/todo",
      dataDir: "/var/lib/todo",
      databasePoolSize: 30,
      redisUrl: "rediss://cache:6380",
      redisPrefix: "shop-1",
      appUrl: "https://todo.example.org",
      authSecret: "0123456789abcdef",
      resendApiKey: "re_123",
      emailFrom: "Todo <todo@example.org>",
      logLevel: "warn",
      agentProvider: "openai",
      agentProviders: [{ name: "openai", kind: "openai-compatible", baseUrl: "http://localhost:11434/v1", apiKey: "sk-test", models, defaultModel: "llama3", maxTokens: 8000, contextWindow: 128_000 }],
      agentIdleTimeoutMs: 5000,
      agentMaxRetries: 1,
      agentModels: models,
      agentMaxTokens: 8000,
      agentStepMs: 25,
      agentMaxConcurrent: 64,
      agentMaxPerUser: 2,
      rateLimitScale: 0.5,
      rateLimits: { share: { points: 3, window: 60 }, signInIp: { points: 10000, window: 900 } },
      trustProxy: true,
      stripe: { secretKey: "sk_test_abc123", webhookSecret: "whsec_abc123", publishableKey: "pk_test_abc123", standinUrl: undefined, testClocks: false },
      billingEnabled: false,
      courseMailPerSecond: 2.5,
      replyMailDelayMs: null,
      embeddings: { provider: "openai", baseUrl: "http://localhost:11434/v1", apiKey: "sk-embed", model: "nomic-embed-text" },
    });
  });

  test("a Stripe secret key needs the webhook secret; keys of the wrong kind name their variable", () => {
    assert.throws(() => load({ STRIPE_SECRET_KEY: "sk_test_abc" }), configError(["STRIPE_WEBHOOK_SECRET"]));
    assert.throws(() => load({ STRIPE_SECRET_KEY: "pk_test_abc", STRIPE_WEBHOOK_SECRET: "whsec_x" }), configError(["STRIPE_SECRET_KEY"]));
    assert.throws(() => load({ STRIPE_SECRET_KEY: "sk_live_abc", STRIPE_WEBHOOK_SECRET: "whsec_x", STRIPE_TEST_CLOCKS: "1" }), configError(["STRIPE_TEST_CLOCKS"]));
    assert.equal(load({ STRIPE_SECRET_KEY: "sk_test_abc", STRIPE_WEBHOOK_SECRET: "whsec_x", STRIPE_TEST_CLOCKS: "1" }).stripe.testClocks, true);
  });

  test("RATE_LIMITS names known policies as name=points/seconds; RATE_LIMIT_SCALE is positive", () => {
    assert.throws(() => load({ RATE_LIMITS: "nosuch=1/60" }), configError(["RATE_LIMITS"]));
    assert.throws(() => load({ RATE_LIMITS: "share=3" }), configError(["RATE_LIMITS"]));
    assert.throws(() => load({ RATE_LIMITS: "share=0/60" }), configError(["RATE_LIMITS"]));
    assert.throws(() => load({ RATE_LIMIT_SCALE: "0" }), configError(["RATE_LIMIT_SCALE"]));
    assert.throws(() => load({ RATE_LIMIT_SCALE: "lots" }), configError(["RATE_LIMIT_SCALE"]));
  });

  test("TRUST_PROXY is off unless set to 1 or true; anything else names it", () => {
    assert.equal(load({}).trustProxy, false);
    assert.equal(load({ TRUST_PROXY: "0" }).trustProxy, false);
    assert.equal(load({ TRUST_PROXY: "true" }).trustProxy, true);
    assert.throws(() => load({ TRUST_PROXY: "yes" }), configError(["TRUST_PROXY"]));
  });

  test("AGENT_MODELS: the models users may pick, each with a price; AGENT_MODEL is one of them; AGENT_MAX_TOKENS caps replies", () => {
    // Default: AGENT_MODEL alone (gpt-4o-mini), at its list price; 4096 tokens.
    assert.deepEqual(load({}).agentModels, { "gpt-4o-mini": { inPerMTok: 15, outPerMTok: 60 } });
    assert.equal(load({}).agentMaxTokens, 4096);
    assert.deepEqual(Object.keys(load({ AGENT_MODEL: "gpt-4.1" }).agentModels), ["gpt-4.1"]);
    // A list: AGENT_MODEL defaults to its first model.
    const c = load({ AGENT_PROVIDER: "openai", AGENT_MODELS: "gpt-4.1-nano,qwen2.5:7b=0/0,my/model=12.5/50" });
    assert.deepEqual(c.agentModels, { "gpt-4.1-nano": { inPerMTok: 10, outPerMTok: 40 }, "qwen2.5:7b": { inPerMTok: 0, outPerMTok: 0 }, "my/model": { inPerMTok: 12.5, outPerMTok: 50 } });
    assert.equal(c.agentProviders[0]?.defaultModel, "gpt-4.1-nano");
    assert.equal(c.agentProviders[0]?.models, c.agentModels);
    // A model without a price, a malformed price, an AGENT_MODEL outside the list: refused at start.
    assert.throws(() => load({ AGENT_MODEL: "llama3" }), /AGENT_MODEL: "llama3" has no known price.*AGENT_MODELS=llama3=0\/0/);
    assert.throws(() => load({ AGENT_MODELS: "gpt-4o,llama3" }), /AGENT_MODELS: "llama3" has no known price/);
    assert.throws(() => load({ AGENT_MODELS: "llama3=free" }), /AGENT_MODELS: "llama3=free": the price must be IN\/OUT/);
    assert.throws(() => load({ AGENT_MODELS: " , " }), /AGENT_MODELS: lists no model/);
    assert.throws(() => load({ AGENT_MODEL: "gpt-4o", AGENT_MODELS: "gpt-4o-mini" }), /AGENT_MODEL: "gpt-4o" must be one of AGENT_MODELS/);
    assert.throws(() => load({ AGENT_MAX_TOKENS: "200001" }), /AGENT_MAX_TOKENS/);
    assert.throws(() => load({ AGENT_MAX_TOKENS: "0" }), /AGENT_MAX_TOKENS/);
  });

  test("AGENT_MAX_CONCURRENT defaults to what one process sustains: 8 embedded, 16 on PostgreSQL", () => {
    assert.equal(load({}).agentMaxConcurrent, 8);
    assert.equal(load({ DATABASE_URL: "postgresql://db/todo" }).agentMaxConcurrent, 16);
    assert.equal(load({ DATABASE_URL: "postgresql://db/todo", AGENT_MAX_CONCURRENT: "3" }).agentMaxConcurrent, 3);
    assert.equal(load({ AGENT_PROVIDER: "openai" }).agentIdleTimeoutMs, 60_000);
    assert.throws(() => load({ AGENT_IDLE_TIMEOUT_MS: "-5" }), /AGENT_IDLE_TIMEOUT_MS/);
  });

  test("DATABASE_POOL_SIZE: 20 connections unless set, a bounded integer", () => {
    assert.equal(load({}).databasePoolSize, 20);
    assert.equal(load({ DATABASE_POOL_SIZE: "40" }).databasePoolSize, 40);
    assert.throws(() => load({ DATABASE_POOL_SIZE: "0" }), /DATABASE_POOL_SIZE/);
    assert.throws(() => load({ DATABASE_POOL_SIZE: "2.5" }), /DATABASE_POOL_SIZE/);
  });

  test("AGENT_PROVIDER names the built-in agent; AGENT_STEP_MS is a bounded integer", () => {
    assert.throws(() => load({ AGENT_PROVIDER: "gpt" }), /AGENT_PROVIDER/);
    assert.throws(() => load({ OPENAI_BASE_URL: "not a url" }), /OPENAI_BASE_URL/);
    // openai without a base URL means OpenAI itself; a base URL alone makes the provider available per todo.
    assert.equal(load({ AGENT_PROVIDER: "openai" }).agentProviders[0]?.baseUrl, "https://api.openai.com/v1");
    assert.equal(load({ OPENAI_BASE_URL: "http://127.0.0.1:8000/v1" }).agentProvider, "local");
    assert.equal(load({ OPENAI_BASE_URL: "http://127.0.0.1:8000/v1" }).agentProviders[0]?.defaultModel, "gpt-4o-mini");
    assert.throws(() => load({ AGENT_STEP_MS: "-1" }), /AGENT_STEP_MS/);
    assert.throws(() => load({ AGENT_STEP_MS: "fast" }), /AGENT_STEP_MS/);
  });

  test("AGENT_PROVIDERS: named providers with their kind, base URL, key (or the variable holding it), priced models and cap", () => {
    const c = load({
      AGENT_PROVIDERS: JSON.stringify([
        { name: "ollama", kind: "openai-compatible", baseUrl: "http://127.0.0.1:11434/v1", models: "llama3:8b=0/0,qwen2.5:7b=0/0", defaultModel: "qwen2.5:7b", maxTokens: 2048, contextWindow: 8192 },
        { name: "claude", kind: "anthropic", apiKeyEnv: "MY_ANTHROPIC_KEY", models: "claude-sonnet-4-5=300/1500" },
      ]),
      MY_ANTHROPIC_KEY: "sk-ant-123",
      AGENT_PROVIDER: "ollama",
    });
    assert.equal(c.agentProvider, "ollama");
    assert.deepEqual(c.agentProviders, [
      { name: "ollama", kind: "openai-compatible", baseUrl: "http://127.0.0.1:11434/v1", apiKey: undefined, models: { "llama3:8b": { inPerMTok: 0, outPerMTok: 0 }, "qwen2.5:7b": { inPerMTok: 0, outPerMTok: 0 } }, defaultModel: "qwen2.5:7b", maxTokens: 2048, contextWindow: 8192 },
      { name: "claude", kind: "anthropic", baseUrl: undefined, apiKey: "sk-ant-123", models: { "claude-sonnet-4-5": { inPerMTok: 300, outPerMTok: 1500 } }, defaultModel: "claude-sonnet-4-5", maxTokens: 4096, contextWindow: 128_000 },
    ]);
    assert.throws(() => load({ AGENT_PROVIDERS: "not json" }), /AGENT_PROVIDERS: must be a JSON array/);
    assert.throws(() => load({ AGENT_PROVIDERS: JSON.stringify([{ name: "x", kind: "openai-compatible", models: "a=0/0" }]) }), /AGENT_PROVIDERS: 0.baseUrl: an openai-compatible provider needs its base URL/);
    assert.throws(() => load({ AGENT_PROVIDERS: JSON.stringify([{ name: "local", kind: "openai", models: "gpt-4o" }]) }), /AGENT_PROVIDERS: 0.name/);
    assert.throws(() => load({ AGENT_PROVIDERS: JSON.stringify([{ name: "x", kind: "openai", models: "mystery" }]) }), /AGENT_PROVIDERS: 0.models: "mystery" has no known price/);
    assert.throws(() => load({ AGENT_PROVIDERS: JSON.stringify([{ name: "x", kind: "openai", models: "gpt-4o", apiKeyEnv: "NOPE" }]) }), /0.apiKeyEnv: NOPE is not set/);
    assert.throws(() => load({ AGENT_PROVIDER: "nosuch" }), /AGENT_PROVIDER: "nosuch" is not a configured provider/);
    // A key given inline is never part of a configuration error.
    assert.throws(() => load({ AGENT_PROVIDERS: JSON.stringify([{ name: "x", kind: "openai", models: "gpt-4o", apiKey: "sk-LEAK", extra: 1 }]) }), (e: Error) => !e.message.includes("sk-LEAK"));
  });

  test("APP_URL defaults to localhost on the configured PORT; a trailing slash is dropped", () => {
    assert.equal(load({ PORT: "4321" }).appUrl, "http://localhost:4321");
    assert.equal(load({ APP_URL: "http://a.test:9/" }).appUrl, "http://a.test:9");
    assert.equal(load({ APP_URL: "http://a.test/base/" }).appUrl, "http://a.test/base");
  });

  test("a relative DATA_DIR is made absolute", () => {
    const c = load({ DATA_DIR: "tmp/data" });
    assert.ok(path.isAbsolute(c.dataDir));
    assert.equal(c.dataDir, path.resolve("tmp/data"));
  });
});

describe("PORT", () => {
  test("accepts integers 0…65535", () => {
    for (const [raw, port] of [
      ["0", 0],
      ["1", 1],
      ["65535", 65535],
      ["3001", 3001],
    ] as const) {
      assert.equal(load({ PORT: raw }).port, port);
    }
  });

  test("rejects non-numbers, fractions, negatives and values over 65535, naming PORT", () => {
    for (const raw of ["abc", "3000.5", "-1", "65536", "99999", "80a"]) {
      assert.throws(() => load({ PORT: raw }), configError(["PORT"]), raw);
    }
  });
});

describe("REPLY_MAIL_DELAY_MS", () => {
  test("milliseconds, or off for no reply mails; anything else names it", () => {
    assert.equal(load({ REPLY_MAIL_DELAY_MS: "0" }).replyMailDelayMs, 0);
    assert.equal(load({ REPLY_MAIL_DELAY_MS: "500" }).replyMailDelayMs, 500);
    assert.equal(load({ REPLY_MAIL_DELAY_MS: "off" }).replyMailDelayMs, null);
    for (const raw of ["-1", "1.5", "never", "86400001"]) assert.throws(() => load({ REPLY_MAIL_DELAY_MS: raw }), configError(["REPLY_MAIL_DELAY_MS"]), raw);
  });
});

describe("DATABASE_URL", () => {
  test("accepts postgresql:// (and the postgres:// alias)", () => {
    assert.equal(load({ DATABASE_URL: "postgresql://localhost/todo" }).databaseUrl, "postgresql://localhost/todo");
    assert.equal(load({ DATABASE_URL: "postgres://localhost/todo" }).databaseUrl, "postgres://localhost/todo");
  });

  test("surrounding blanks are trimmed, as .env files often leave them", () => {
    assert.equal(load({ DATABASE_URL: "  postgresql://x/y " }).databaseUrl, "postgresql://x/y");
    assert.equal(load({ PORT: " 4000 " }).port, 4000);
  });

  test("anything else is an error naming DATABASE_URL and saying what is expected", () => {
    for (const raw of ["mysql://localhost/todo", "file:./dev.db", "localhost:5432/todo", "postgresql:/oops"]) {
      assert.throws(
        () => load({ DATABASE_URL: raw }),
        (err: unknown) => {
          configError(["DATABASE_URL"])(err);
          assert.match((err as Error).message, /postgresql:\/\//);
          return true;
        },
        raw,
      );
    }
  });
});

describe("empty strings count as unset", () => {
  test("every variable set to '' gives the defaults", () => {
    const blank = Object.fromEntries(
      ["NODE_ENV", "PORT", "HOSTNAME", "DATABASE_URL", "DATA_DIR", "REDIS_URL", "APP_URL", "AUTH_SECRET", "RESEND_API_KEY", "EMAIL_FROM", "LOG_LEVEL"].map((k) => [k, ""]),
    );
    assert.deepEqual(load(blank), load({}));
  });

  test("undefined values are unset too", () => {
    assert.equal(load({ PORT: undefined, DATABASE_URL: undefined }).port, 3000);
  });
});

describe("errors", () => {
  test("the message names each bad variable, one per line, and none of the good ones", () => {
    const env = {
      NODE_ENV: "staging",
      PORT: "http",
      DATABASE_URL: "mysql://x",
      REDIS_URL: "http://cache",
      APP_URL: "not a url",
      AUTH_SECRET: "short",
      LOG_LEVEL: "loud",
      HOSTNAME: "0.0.0.0",
      EMAIL_FROM: "ok@example.com",
    };
    assert.throws(
      () => load(env),
      (err: unknown) => {
        configError(["NODE_ENV", "PORT", "DATABASE_URL", "REDIS_URL", "APP_URL", "AUTH_SECRET", "LOG_LEVEL"], ["HOSTNAME", "EMAIL_FROM"])(err);
        const lines = (err as Error).message.split("\n").slice(1);
        assert.equal(lines.length, 7, (err as Error).message);
        assert.match((err as Error).message, /AUTH_SECRET: must be at least 16 characters/);
        assert.match((err as Error).message, /REDIS_URL: must be a redis:\/\/ URL/);
        assert.match((err as Error).message, /APP_URL: must be an absolute URL/);
        return true;
      },
    );
  });

  test("a single bad variable gives a single line", () => {
    assert.throws(
      () => load({ LOG_LEVEL: "verbose" }),
      (err: unknown) => {
        configError(["LOG_LEVEL"])(err);
        assert.equal((err as Error).message.split("\n").length, 2);
        return true;
      },
    );
  });

  test("ConfigError is an Error", () => {
    assert.ok(new ConfigError("x") instanceof Error);
  });
});
