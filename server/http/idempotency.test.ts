import { beforeEach, describe, test } from "node:test";
import assert from "node:assert/strict";
import { z } from "zod";
import type { Base, Caller } from "../auth/caller.ts";
import { ANY_CREDENTIAL, defineOperation } from "./define.ts";
import { ApiError } from "./errors.ts";
import { IDEMPOTENCY_LOCK_MS, IDEMPOTENCY_TTL_MS, IdempotencyStore, readIdempotencyKey } from "./idempotency.ts";
import { createPipeline, type ResolveCaller } from "./pipeline.ts";
import { Router } from "./router.ts";
import { startTestRuntime, unlessPostgresUnavailable, suiteTestRuntime } from "../testing/runtime.ts";

// Pipeline-level: fake operations over the real store (an in-memory PGlite; the cross-process
// case on PostgreSQL), so what is tested is exactly what the server runs.

const ada: Caller = { credential: "apiKey", userId: "u_1", email: "ada@example.com", name: "Ada", isAdmin: false, apiKeyId: "k_1" };
const adaSecondKey: Caller = { ...ada, apiKeyId: "k_2" };
const resolveCaller: ResolveCaller = async (_base: Base, headers) => {
  const key = headers.get("x-api-key");
  return key === "key-1" ? ada : key === "key-2" ? adaSecondKey : null;
};

let runs = 0;
let created = 0;
let nextFailure: unknown;
let gate: Promise<void> | undefined;

const ops = [
  defineOperation({
    id: "thing_create",
    method: "POST",
    path: "/things",
    summary: "create",
    tag: "T",
    auth: ANY_CREDENTIAL,
    body: z.object({ name: z.string().min(1) }),
    response: z.object({ id: z.string(), name: z.string(), n: z.number() }),
    handler: async ({ body }) => {
      runs++;
      if (gate) await gate;
      if (nextFailure !== undefined) {
        const failure = nextFailure;
        nextFailure = undefined;
        throw failure;
      }
      created++;
      return { id: `thing_${created}`, name: body.name, n: Math.random() };
    },
  }),
  defineOperation({
    id: "thing_touch",
    method: "POST",
    path: "/things/touch",
    summary: "touch",
    tag: "T",
    auth: ANY_CREDENTIAL,
    idempotent: false,
    response: z.object({ n: z.number() }),
    handler: async () => {
      runs++;
      return { n: runs };
    },
  }),
];

const rt = suiteTestRuntime({ setup });
let clock = Date.now();
let store: IdempotencyStore;
let handle: ReturnType<typeof createPipeline>;

function post(path: string, opts: { key?: string; apiKey?: string; body?: unknown; raw?: string } = {}): Promise<Response> {
  const headers: Record<string, string> = { "x-api-key": opts.apiKey ?? "key-1", "content-type": "application/json" };
  if (opts.key !== undefined) headers["idempotency-key"] = opts.key;
  return handle("api", new Request(`http://app.test/api/v1${path}`, { method: "POST", headers, body: opts.raw ?? JSON.stringify(opts.body ?? { name: "A" }) }));
}

const rows = () => rt.prisma.idempotencyKey.count();

function setup() {
  store = new IdempotencyStore(() => rt.prisma, () => clock);
  handle = createPipeline(new Router(ops), resolveCaller, "http://app.test", { idempotency: store });
}
beforeEach(async () => {
  runs = 0;
  nextFailure = undefined;
  gate = undefined;
  clock += IDEMPOTENCY_TTL_MS * 2;
  await store.sweep(clock, true);
});

describe("Idempotency-Key", () => {
  test("the first answer is replayed byte for byte with Idempotent-Replayed; the handler ran once", async () => {
    const first = await post("/things", { key: "k-replay", body: { name: "A" } });
    const firstText = await first.text();
    assert.equal(first.status, 200);
    assert.equal(first.headers.get("idempotent-replayed"), null);
    const again = await post("/things", { key: "k-replay", body: { name: "A" } });
    assert.equal(again.status, 200);
    assert.equal(again.headers.get("idempotent-replayed"), "true");
    assert.equal(again.headers.get("content-type"), first.headers.get("content-type"));
    // Math.random() in the answer: a second run could not produce the same bytes.
    assert.equal(await again.text(), firstText);
    assert.equal(runs, 1);
    // Each answer carries its own request id and rate-limit state.
    assert.notEqual(again.headers.get("x-request-id"), first.headers.get("x-request-id"));
    assert.ok(again.headers.get("ratelimit"));
    // Whitespace does not make another request: the body is compared as parsed JSON.
    const spaced = await post("/things", { key: "k-replay", raw: '{ "name" : "A" }' });
    assert.equal(await spaced.text(), firstText);
    assert.equal(runs, 1);
  });

  test("the same key with another body or path is 422 and runs nothing", async () => {
    assert.equal((await post("/things", { key: "k-diff", body: { name: "A" } })).status, 200);
    const other = await post("/things", { key: "k-diff", body: { name: "B" } });
    assert.equal(other.status, 422);
    assert.deepEqual(Object.keys(await other.json()).sort(), ["code", "message"]);
    const otherPath = await post("/things/touch", { key: "k-diff" });
    assert.equal(otherPath.status, 200, "a non-idempotent operation ignores the header");
    assert.equal(runs, 2);
    const otherQuery = await post("/things?x=1", { key: "k-diff", body: { name: "A" } });
    assert.equal(otherQuery.status, 422);
    assert.equal(runs, 2);
  });

  test("two concurrent requests with one key run the handler once; the second is 409 while the first runs", async () => {
    let open!: () => void;
    gate = new Promise<void>((resolve) => (open = resolve));
    const first = post("/things", { key: "k-race" });
    let second: Response;
    try {
      while (runs === 0) await new Promise((r) => setTimeout(r, 5));
      second = await post("/things", { key: "k-race" });
    } finally {
      open();
    }
    assert.equal(second.status, 409);
    assert.match((await second.json()).message, /in progress/);
    const done = await first;
    assert.equal(done.status, 200);
    const third = await post("/things", { key: "k-race" });
    assert.equal(third.headers.get("idempotent-replayed"), "true");
    assert.equal(await third.text(), await done.text());
    assert.equal(runs, 1);
  });

  test("keys are per credential: the same key from another API key is another request", async () => {
    const mine = await post("/things", { key: "k-cred", apiKey: "key-1" });
    const theirs = await post("/things", { key: "k-cred", apiKey: "key-2", body: { name: "other" } });
    assert.equal(theirs.status, 200);
    assert.equal(theirs.headers.get("idempotent-replayed"), null);
    assert.notEqual(await theirs.text(), await mine.text());
    assert.equal(runs, 2);
  });

  test("a bad key is 400 in the error shape and runs and stores nothing", async () => {
    const before = await rows();
    for (const key of ["", "x".repeat(256), "tab\there", "é"]) {
      const res = await handle(
        "api",
        new Request("http://app.test/api/v1/things", {
          method: "POST",
          headers: { "x-api-key": "key-1", "content-type": "application/json", "idempotency-key": key },
          body: '{"name":"A"}',
        }),
      );
      assert.equal(res.status, 400, JSON.stringify(key));
      const body = await res.json();
      assert.equal(body.code, "BAD_REQUEST");
      assert.equal(body.data.issues[0].path, "header.idempotency-key");
    }
    assert.equal(readIdempotencyKey(new Headers({ "idempotency-key": "x".repeat(255) })), "x".repeat(255));
    assert.equal(runs, 0);
    assert.equal(await rows(), before);
  });

  test("a 5xx is not stored (the retry runs); a 4xx from the handler is (the retry gets it again)", async () => {
    nextFailure = new Error("database hiccup");
    assert.equal((await post("/things", { key: "k-5xx" })).status, 500);
    const retry = await post("/things", { key: "k-5xx" });
    assert.equal(retry.status, 200);
    assert.equal(retry.headers.get("idempotent-replayed"), null);
    assert.equal(runs, 2);

    nextFailure = new ApiError("CONFLICT", "taken");
    const refused = await post("/things", { key: "k-4xx" });
    assert.equal(refused.status, 409);
    const replayed = await post("/things", { key: "k-4xx" });
    assert.equal(replayed.status, 409);
    assert.equal(replayed.headers.get("idempotent-replayed"), "true");
    assert.equal(await replayed.text(), await refused.text());
    assert.equal(runs, 3);
  });

  test("invalid input is 400 and keeps no key: the corrected request runs", async () => {
    assert.equal((await post("/things", { key: "k-invalid", body: { name: "" } })).status, 400);
    assert.equal((await post("/things", { key: "k-invalid", body: { name: "fixed" } })).status, 200);
    assert.equal(runs, 1);
  });

  test("after 24 h the key is forgotten and expired rows are swept", async () => {
    const first = await post("/things", { key: "k-ttl" });
    clock += IDEMPOTENCY_TTL_MS - 1000;
    assert.equal((await post("/things", { key: "k-ttl" })).headers.get("idempotent-replayed"), "true");
    clock += 2000;
    const later = await post("/things", { key: "k-ttl" });
    assert.equal(later.headers.get("idempotent-replayed"), null);
    assert.notEqual(await later.text(), await first.text());
    assert.equal(runs, 2);
    clock += IDEMPOTENCY_TTL_MS + 1;
    assert.ok((await store.sweep(clock, true)) >= 1);
    assert.equal(await rows(), 0);
  });

  test("a claim left running by a dead process is taken over after the lock time", async () => {
    const claim = await post("/things", { key: "k-lock" });
    assert.equal(claim.status, 200);
    // As if the first request's process had died mid-handler: the row has no answer.
    await rt.prisma.idempotencyKey.updateMany({ where: { key: "k-lock" }, data: { status: null, body: null } });
    assert.equal((await post("/things", { key: "k-lock" })).status, 409);
    clock += IDEMPOTENCY_LOCK_MS;
    const taken = await post("/things", { key: "k-lock" });
    assert.equal(taken.status, 200);
    assert.equal(taken.headers.get("idempotent-replayed"), null);
    assert.equal(runs, 2);
  });

  test("without the header nothing is stored", async () => {
    const before = await rows();
    assert.equal((await post("/things")).status, 200);
    assert.equal((await post("/things")).status, 200);
    assert.equal(runs, 2);
    assert.equal(await rows(), before);
  });
});

describe("Idempotency-Key across processes (PostgreSQL)", () => {
  test("two pipelines on one database, racing with one key, run the handler once", async (t) => {
    const start = await unlessPostgresUnavailable(() => startTestRuntime({ database: "postgres" }));
    if (start.skip !== undefined) return t.skip(start.skip);
    const pg = start.started;
    try {
      // Each "process" has its own store over its own client; only the database is shared.
      const { openDatabase } = await import("../db/open.ts");
      const second = await openDatabase({ databaseUrl: pg.databaseUrl! });
      try {
        const a = createPipeline(new Router(ops), resolveCaller, "http://app.test", { idempotency: new IdempotencyStore(() => pg.prisma) });
        const b = createPipeline(new Router(ops), resolveCaller, "http://app.test", { idempotency: new IdempotencyStore(() => second.prisma) });
        const req = () =>
          new Request("http://app.test/api/v1/things", {
            method: "POST",
            headers: { "x-api-key": "key-1", "content-type": "application/json", "idempotency-key": "k-pg" },
            body: '{"name":"A"}',
          });
        const answers = await Promise.all([a("api", req()), b("api", req()), a("api", req()), b("api", req())]);
        const statuses = answers.map((r) => r.status);
        assert.equal(runs, 1, `statuses ${statuses.join(",")}`);
        assert.ok(statuses.every((s) => s === 200 || s === 409), statuses.join(","));
        const texts = await Promise.all(answers.filter((r) => r.status === 200).map((r) => r.text()));
        assert.equal(new Set(texts).size, 1);
      } finally {
        await second.close();
      }
    } finally {
      await pg.close();
    }
  });
});
