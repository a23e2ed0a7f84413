// What models cost: the price table billing charges agent turns by. A provider names its models'
// prices in the server's configuration (AGENT_PROVIDERS, AGENT_MODELS; server/config.ts); the
// default table fills in well-known models listed without one.

/** Tokens a turn (or one of its steps) read and wrote. */
export type TurnUsage = { tokensIn: number; tokensOut: number };

/** Prices in cents per million tokens. */
export type ModelPrice = { inPerMTok: number; outPerMTok: number };

/** List prices of a few well-known models (cents per million tokens). Dated snapshots (`gpt-4o-2024-08-06`) match their base name. */
export const DEFAULT_PRICES: Readonly<Record<string, ModelPrice>> = Object.freeze({
  "gpt-4o": { inPerMTok: 250, outPerMTok: 1000 },
  "gpt-4o-mini": { inPerMTok: 15, outPerMTok: 60 },
  "gpt-4.1": { inPerMTok: 200, outPerMTok: 800 },
  "gpt-4.1-mini": { inPerMTok: 40, outPerMTok: 160 },
  "gpt-4.1-nano": { inPerMTok: 10, outPerMTok: 40 },
  "gpt-4-turbo": { inPerMTok: 1000, outPerMTok: 3000 },
  "gpt-3.5-turbo": { inPerMTok: 50, outPerMTok: 150 },
  "o3-mini": { inPerMTok: 110, outPerMTok: 440 },
  "o4-mini": { inPerMTok: 110, outPerMTok: 440 },
});

/**
 * The price of a model: its exact name, else the longest name it extends with `-…` (a dated
 * snapshot), also after a `vendor/` prefix (`openai/gpt-4o`). Undefined when it has none.
 */
export function priceOf(model: string, prices: Readonly<Record<string, ModelPrice>> = DEFAULT_PRICES): ModelPrice | undefined {
  return priceFor(model, prices) ?? priceFor(model.slice(model.lastIndexOf("/") + 1), prices);
}

function priceFor(model: string, prices: Readonly<Record<string, ModelPrice>>): ModelPrice | undefined {
  if (Object.hasOwn(prices, model)) return prices[model];
  let best: string | undefined;
  for (const name of Object.keys(prices)) {
    if (model.startsWith(`${name}-`) && (!best || name.length > best.length)) best = name;
  }
  return best ? prices[best] : undefined;
}

/**
 * What a turn cost, in whole cents (rounded up when not zero). `prices` replaces the default table;
 * a model in neither costs 0 (a server refuses turns on such a model: see AGENT_MODELS).
 */
export function costCents(model: string, usage: TurnUsage, prices: Readonly<Record<string, ModelPrice>> = DEFAULT_PRICES): number {
  const price = priceOf(model, prices);
  if (!price) return 0;
  const count = (n: number) => (Number.isFinite(n) && n > 0 ? n : 0);
  const rate = (n: number) => (Number.isFinite(n) && n > 0 ? n : 0);
  const millionths = count(usage.tokensIn) * rate(price.inPerMTok) + count(usage.tokensOut) * rate(price.outPerMTok);
  if (!(millionths > 0)) return 0;
  // Up to whole cents, but a float error (2.1000000000000001) is not a cent more.
  return Math.max(1, Math.ceil(millionths / 1_000_000 - 1e-9));
}

/** The models a server allows, each with its price (cents per million tokens). */
export type ModelAllowList = Readonly<Record<string, ModelPrice>>;

/**
 * Parses AGENT_MODELS: a comma-separated list of `name` (a model of the default price table) or
 * `name=IN/OUT` (its price in cents per million input/output tokens, e.g. `llama3:8b=0/0` for a
 * free local model). Throws a readable message for an entry without a price or a malformed one.
 */
export function parseModelList(value: string): ModelAllowList {
  const out: [string, ModelPrice][] = [];
  for (const raw of value.split(",")) {
    const entry = raw.trim();
    if (!entry) continue;
    const eq = entry.lastIndexOf("=");
    const name = (eq === -1 ? entry : entry.slice(0, eq)).trim();
    if (!name || name.length > 200) throw new Error(`"${entry}" needs a model name of 1-200 characters`);
    let price: ModelPrice | undefined;
    if (eq === -1) {
      price = priceOf(name);
      if (!price) throw new Error(`"${name}" has no known price: write it as ${name}=IN/OUT (cents per million input/output tokens, e.g. ${name}=0/0 for a free local model)`);
    } else {
      const m = /^(\d+(?:\.\d+)?)\/(\d+(?:\.\d+)?)$/.exec(entry.slice(eq + 1).trim());
      if (!m) throw new Error(`"${entry}": the price must be IN/OUT in cents per million tokens, e.g. ${name}=15/60`);
      price = { inPerMTok: Number(m[1]), outPerMTok: Number(m[2]) };
    }
    out.push([name, price]);
  }
  if (out.length === 0) throw new Error("lists no model");
  // fromEntries: own properties whatever the name (`__proto__` included).
  return Object.fromEntries(out);
}

/**
 * The built-in offline agent's price, so billing has something to charge without a model: one cent
 * per 100 words read and written, at least one cent a turn.
 */
export function localCostCents(usage: TurnUsage): number {
  return Math.max(1, Math.ceil((usage.tokensIn + usage.tokensOut) / 100));
}
