import { createHash } from "node:crypto";
import type { Config } from "../../config.ts";
import { Prisma } from "../../db/generated/client.ts";
import { newRowId } from "../../db/ids.ts";
import { db, runtime } from "../../runtime.ts";

// Embeddings for the related tail of todo_searchUnified, behind one interface:
//
// - `lexical-hash-v1` (default, offline): NOT a language model. A text becomes the counts of its
//   lower-cased words (weight 1) and of the character trigrams of each word, with `#` marking the
//   word's ends (weight 0.5), each feature hashed (FNV-1a) into one of 256 signed buckets, then
//   L2-normalised. Two texts are near when they share words or pieces of words ("deploy" and
//   "deployment"), never because they mean the same thing ("car" and "automobile" are far apart).
// - `openai:<model>`: any OpenAI-compatible `POST {base}/embeddings` (EMBEDDING_PROVIDER=openai).
//
// Vectors are unit length, so cosine distance = 1 − dot product. Each stored vector names its
// model; vectors of different models are never compared.

export interface EmbeddingProvider {
  /** Stored with every vector: a query is only compared with vectors of the same model. */
  readonly model: string;
  /**
   * The largest cosine distance still called related. Hashing makes unrelated texts share a few
   * buckets by chance (distances just under 1), so the lexical tail needs real overlap.
   */
  readonly maxDistance: number;
  embed(texts: string[]): Promise<number[][]>;
}

export const LEXICAL_DIMS = 256;

function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function normalise(v: number[]): number[] {
  const norm = Math.sqrt(v.reduce((a, x) => a + x * x, 0));
  return norm === 0 ? v : v.map((x) => x / norm);
}

/** The offline lexical embedding described above; the same text always gives the same vector. */
export function lexicalEmbedding(text: string): number[] {
  const v = new Array<number>(LEXICAL_DIMS).fill(0);
  const add = (feature: string, weight: number) => {
    const h = fnv1a(feature);
    v[h % LEXICAL_DIMS]! += h & 0x80000000 ? -weight : weight;
  };
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    add(`w:${word}`, 1);
    const padded = `#${word}#`;
    for (let i = 0; i + 3 <= padded.length; i++) add(`t:${padded.slice(i, i + 3)}`, 0.5);
  }
  return normalise(v);
}

export const lexicalProvider: EmbeddingProvider = {
  model: "lexical-hash-v1",
  maxDistance: 0.85,
  embed: async (texts) => texts.map(lexicalEmbedding),
};

/** An OpenAI-compatible embeddings endpoint. Errors name the status, never the key. */
export function openAiProvider(o: { baseUrl: string; apiKey?: string; model: string }, fetchImpl: typeof fetch = fetch): EmbeddingProvider {
  return {
    model: `openai:${o.model}`,
    // Typical for OpenAI-style models: unrelated texts sit near 0.8–0.9.
    maxDistance: 0.75,
    async embed(texts) {
      const res = await fetchImpl(`${o.baseUrl}/embeddings`, {
        method: "POST",
        headers: { "content-type": "application/json", ...(o.apiKey ? { authorization: `Bearer ${o.apiKey}` } : {}) },
        body: JSON.stringify({ model: o.model, input: texts }),
        signal: AbortSignal.timeout(15_000),
      });
      if (!res.ok) throw new Error(`embeddings endpoint answered ${res.status}`);
      const body = (await res.json()) as { data?: { index?: number; embedding?: unknown }[] };
      const rows = [...(body.data ?? [])].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
      if (rows.length !== texts.length) throw new Error(`embeddings endpoint returned ${rows.length} vectors for ${texts.length} texts`);
      return rows.map((r) => {
        if (!Array.isArray(r.embedding) || r.embedding.length === 0 || r.embedding.length > 8192 || !r.embedding.every((x) => typeof x === "number" && Number.isFinite(x)))
          throw new Error("embeddings endpoint returned a malformed vector");
        return normalise(r.embedding as number[]);
      });
    },
  };
}

const cache = new WeakMap<Config, EmbeddingProvider>();

/** The provider the configuration names (one per runtime configuration). */
export function embeddingProvider(config: Config = runtime().config): EmbeddingProvider {
  let p = cache.get(config);
  if (!p) {
    const e = config.embeddings;
    p = e.provider === "openai" ? openAiProvider(e) : lexicalProvider;
    cache.set(config, p);
  }
  return p;
}

export function sourceHash(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** Whose vector a SearchEmbedding row holds. */
export type EmbeddedItem = { todoId: string } | { noteId: string };

/**
 * Stores (inserts or replaces) the vector of a todo or note in one statement. Raw SQL rather than
 * Prisma's `upsert`: Prisma writes a scalar list such as the vector into the query itself instead
 * of as a parameter, so every vector compiled a query plan of its own (about a millisecond of
 * CPU) and filled the client's plan cache with plans used once, pushing out the ones in use.
 * Throws when the todo or note is gone (its foreign key).
 */
export async function storeEmbedding(item: EmbeddedItem, data: { model: string; vector: readonly number[]; sourceHash: string }): Promise<void> {
  const [column, id] = "todoId" in item ? [Prisma.raw(`"todoId"`), item.todoId] : [Prisma.raw(`"noteId"`), item.noteId];
  const now = new Date();
  await db().$executeRaw`
    INSERT INTO "SearchEmbedding" ("id", ${column}, "model", "vector", "sourceHash", "updatedAt")
    VALUES (${newRowId()}, ${id}, ${data.model}, ${[...data.vector]}::real[], ${data.sourceHash}, ${now}::timestamp(3))
    ON CONFLICT (${column}) DO UPDATE SET "model" = EXCLUDED."model", "vector" = EXCLUDED."vector", "sourceHash" = EXCLUDED."sourceHash", "updatedAt" = EXCLUDED."updatedAt"`;
}

/** Cosine distance of two unit vectors (0 identical … 2 opposite). */
export function cosineDistance(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) dot += a[i]! * b[i]!;
  return 1 - dot;
}
