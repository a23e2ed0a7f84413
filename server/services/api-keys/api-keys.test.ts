import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import type { Caller } from "../../auth/caller.ts";
import { resolveApiKey } from "../../auth/resolve.ts";
import { API_KEY_PATTERN, sha256 } from "../../auth/tokens.ts";
import { ApiError } from "../../http/errors.ts";
import { createTestUser, suiteTestRuntime, withPostgresRuntime } from "../../testing/runtime.ts";
import {
  createApiKey,
  createKeyForUser,
  deleteApiKey,
  DEFAULT_KEY_NAME,
  getApiKey,
  getDefaultApiKey,
  listApiKeys,
  setDefaultApiKey,
  validateApiKey,
} from "./api-keys.ts";

const t = suiteTestRuntime();

const MASKED = /^tsk_…[0-9A-Za-z]{4}$/;

function apiError(code: string, status: number) {
  return (err: unknown) => {
    assert.ok(err instanceof ApiError, `expected an ApiError, got ${String(err)}`);
    assert.equal(err.code, code);
    assert.equal(err.status, status);
    return true;
  };
}

/** A caller for the user with this id (these services read only its userId). */
function as(userId: string): Caller {
  return { credential: "apiKey", userId, email: "", name: null, isAdmin: false };
}

async function newUser() {
  return (await createTestUser(t.prisma)).id;
}

async function defaults(userId: string) {
  return t.prisma.apiKey.findMany({ where: { userId, isDefault: true }, select: { name: true } });
}

describe("createApiKey", () => {
  test("returns the full key once; the first key becomes the default, later ones do not", async () => {
    const userId = await newUser();
    const first = await createApiKey(as(userId), "laptop");
    assert.match(first.key, API_KEY_PATTERN);
    assert.equal(first.name, "laptop");
    assert.equal(first.isDefault, true);
    assert.equal(first.lastUsedAt, null);
    assert.ok(Math.abs(first.createdAt - Date.now()) < 10_000);
    const second = await createApiKey(as(userId), "ci");
    assert.match(second.key, API_KEY_PATTERN);
    assert.notEqual(second.key, first.key);
    assert.equal(second.isDefault, false);
    assert.deepEqual(await defaults(userId), [{ name: "laptop" }]);
  });

  test("the created key works as a credential", async () => {
    const userId = await newUser();
    const created = await createApiKey(as(userId), "works");
    const caller = await resolveApiKey(created.key);
    assert.equal(caller?.userId, userId);
    assert.equal(caller?.apiKeyId, created.id);
  });

  test("names are unique per user: a taken name → 409 CONFLICT; other users may use it", async () => {
    const userId = await newUser();
    await createApiKey(as(userId), "deploy");
    await assert.rejects(createApiKey(as(userId), "deploy"), apiError("CONFLICT", 409));
    assert.equal(await t.prisma.apiKey.count({ where: { userId } }), 1);
    const other = await newUser();
    const theirs = await createApiKey(as(other), "deploy");
    assert.equal(theirs.isDefault, true);
  });

  test("the reserved name 'default' (any case) → 400 BAD_REQUEST, unless explicitly allowed", async () => {
    const userId = await newUser();
    for (const name of [DEFAULT_KEY_NAME, "Default", "DEFAULT"]) {
      await assert.rejects(createApiKey(as(userId), name), (err: unknown) => {
        apiError("BAD_REQUEST", 400)(err);
        assert.deepEqual((err as ApiError).data, { issues: [{ path: "body.name", message: "reserved", code: "custom" }] });
        return true;
      });
    }
    assert.equal(await t.prisma.apiKey.count({ where: { userId } }), 0);
    const allowed = await createKeyForUser(userId, "default", { allowReservedName: true });
    assert.equal(allowed.name, "default");
    // Only the exact word is reserved.
    assert.equal((await createApiKey(as(userId), "default-ci")).name, "default-ci");
  });

  test("for a user that does not exist it fails and stores nothing", async () => {
    await assert.rejects(createApiKey(as("no-such-user"), "x"));
    assert.equal(await t.prisma.apiKey.count({ where: { userId: "no-such-user" } }), 0);
  });
});

describe("storage", () => {
  test("keys are stored only as a sha256 hash plus the last four characters", async () => {
    const userId = await newUser();
    const created = await createApiKey(as(userId), "stored");
    const rows = await t.prisma.$queryRawUnsafe<Record<string, unknown>[]>(`SELECT * FROM "ApiKey" WHERE "id" = $1`, created.id);
    assert.equal(rows.length, 1);
    const row = rows[0]!;
    assert.equal(row.keyHash, sha256(created.key));
    assert.equal(row.last4, created.key.slice(-4));
    const secretPart = created.key.slice(4, -4);
    for (const [column, value] of Object.entries(row)) {
      const text = value instanceof Date ? value.toISOString() : String(value);
      assert.ok(!text.includes(created.key), `column ${column} holds the key`);
      assert.ok(!text.includes(secretPart), `column ${column} holds part of the key`);
    }
  });

  test("list, get and getDefault show the key masked, never in full", async () => {
    const userId = await newUser();
    const created = await createApiKey(as(userId), "masked");
    const masked = `tsk_…${created.key.slice(-4)}`;
    const listed = await listApiKeys(as(userId));
    assert.deepEqual(
      listed.map((k) => k.key),
      [masked],
    );
    assert.equal((await getApiKey(as(userId), "masked")).key, masked);
    const def = await getDefaultApiKey(as(userId));
    assert.equal(def.id, created.id);
    assert.equal(def.key, masked);
    assert.match(def.key, MASKED);
  });
});

describe("listApiKeys and getApiKey", () => {
  test("list returns only the user's keys, oldest first", async () => {
    const userId = await newUser();
    const other = await newUser();
    await createApiKey(as(other), "foreign");
    for (const name of ["one", "two", "three"]) await createApiKey(as(userId), name);
    const listed = await listApiKeys(as(userId));
    assert.deepEqual(
      listed.map((k) => [k.name, k.isDefault]),
      [
        ["one", true],
        ["two", false],
        ["three", false],
      ],
    );
    assert.deepEqual(await listApiKeys(as(await newUser())), []);
  });

  test("get of an unknown name, or of another user's key → 404 NOT_FOUND", async () => {
    const userId = await newUser();
    const other = await newUser();
    await createApiKey(as(other), "theirs");
    await assert.rejects(getApiKey(as(userId), "theirs"), apiError("NOT_FOUND", 404));
    await assert.rejects(getApiKey(as(userId), "nothing"), apiError("NOT_FOUND", 404));
  });
});

describe("getDefaultApiKey", () => {
  test("creates exactly one key when called 5× concurrently; only that call gets the full key", async () => {
    const userId = await newUser();
    const results = await Promise.all(Array.from({ length: 5 }, () => getDefaultApiKey(as(userId))));
    const rows = await t.prisma.apiKey.findMany({ where: { userId } });
    assert.equal(rows.length, 1, `created ${rows.length} keys`);
    assert.equal(rows[0]!.isDefault, true);
    assert.equal(rows[0]!.name, DEFAULT_KEY_NAME);
    assert.ok(results.every((r) => r.id === rows[0]!.id && r.isDefault));
    const full = results.filter((r) => API_KEY_PATTERN.test(r.key));
    assert.equal(full.length, 1, `full key returned ${full.length} times`);
    assert.equal(sha256(full[0]!.key), rows[0]!.keyHash);
    assert.ok(results.filter((r) => r !== full[0]).every((r) => MASKED.test(r.key)));
    assert.equal((await resolveApiKey(full[0]!.key))?.userId, userId);
  });

  test("returns the existing default, masked, and creates nothing", async () => {
    const userId = await newUser();
    await createApiKey(as(userId), "a");
    const b = await createApiKey(as(userId), "b");
    await setDefaultApiKey(as(userId), "b");
    const def = await getDefaultApiKey(as(userId));
    assert.equal(def.id, b.id);
    assert.match(def.key, MASKED);
    assert.equal(await t.prisma.apiKey.count({ where: { userId } }), 2);
  });

  test("when the default was deleted, a new one is created under a free name", async () => {
    const userId = await newUser();
    const first = await getDefaultApiKey(as(userId)); // named "default"
    assert.equal(first.name, "default");
    await createApiKey(as(userId), "work");
    await setDefaultApiKey(as(userId), "work");
    await deleteApiKey(as(userId), "work");
    assert.deepEqual(await defaults(userId), []);
    const next = await getDefaultApiKey(as(userId));
    assert.equal(next.name, "default-2");
    assert.equal(next.isDefault, true);
    assert.match(next.key, API_KEY_PATTERN);
    assert.deepEqual(await defaults(userId), [{ name: "default-2" }]);
  });
});

describe("setDefaultApiKey", () => {
  test("moves the flag: exactly one default afterwards", async () => {
    const userId = await newUser();
    for (const name of ["a", "b", "c"]) await createApiKey(as(userId), name);
    assert.equal(await setDefaultApiKey(as(userId), "c"), null);
    assert.deepEqual(await defaults(userId), [{ name: "c" }]);
    await setDefaultApiKey(as(userId), "b");
    assert.deepEqual(await defaults(userId), [{ name: "b" }]);
    await setDefaultApiKey(as(userId), "b"); // already the default: no change
    assert.deepEqual(await defaults(userId), [{ name: "b" }]);
    assert.deepEqual(
      (await listApiKeys(as(userId))).map((k) => [k.name, k.isDefault]),
      [
        ["a", false],
        ["b", true],
        ["c", false],
      ],
    );
  });

  test("concurrent moves still leave exactly one default", async () => {
    const userId = await newUser();
    const names = ["p", "q", "r", "s"];
    for (const name of names) await createApiKey(as(userId), name);
    await Promise.all(names.map((n) => setDefaultApiKey(as(userId), n)));
    assert.equal((await defaults(userId)).length, 1);
  });

  test("an unknown name, or another user's key → 404, and the default stays", async () => {
    const userId = await newUser();
    const other = await newUser();
    await createApiKey(as(userId), "mine");
    await createApiKey(as(other), "theirs");
    await assert.rejects(setDefaultApiKey(as(userId), "nope"), apiError("NOT_FOUND", 404));
    await assert.rejects(setDefaultApiKey(as(userId), "theirs"), apiError("NOT_FOUND", 404));
    assert.deepEqual(await defaults(userId), [{ name: "mine" }]);
    assert.deepEqual(await defaults(other), [{ name: "theirs" }]);
  });

  test("the flag is per user: setting one user's default leaves another's alone", async () => {
    const a = await newUser();
    const b = await newUser();
    await createApiKey(as(a), "x");
    await createApiKey(as(a), "y");
    await createApiKey(as(b), "x");
    await setDefaultApiKey(as(a), "y");
    assert.deepEqual(await defaults(b), [{ name: "x" }]);
  });
});

describe("deleteApiKey", () => {
  test("deletes the key: 404 afterwards, and the key stops working", async () => {
    const userId = await newUser();
    const created = await createApiKey(as(userId), "temp");
    assert.equal(await deleteApiKey(as(userId), "temp"), null);
    await assert.rejects(getApiKey(as(userId), "temp"), apiError("NOT_FOUND", 404));
    await assert.rejects(deleteApiKey(as(userId), "temp"), apiError("NOT_FOUND", 404));
    assert.equal(await resolveApiKey(created.key), null);
    assert.deepEqual(await listApiKeys(as(userId)), []);
  });

  test("deletes only the caller's key of that name", async () => {
    const a = await newUser();
    const b = await newUser();
    await createApiKey(as(a), "shared");
    const theirs = await createApiKey(as(b), "shared");
    await deleteApiKey(as(a), "shared");
    assert.equal((await getApiKey(as(b), "shared")).id, theirs.id);
    await assert.rejects(deleteApiKey(as(a), "shared"), apiError("NOT_FOUND", 404));
  });

  test("after deleting the default, the next created key becomes the default", async () => {
    const userId = await newUser();
    await createApiKey(as(userId), "first");
    await createApiKey(as(userId), "second");
    await deleteApiKey(as(userId), "first");
    assert.deepEqual(await defaults(userId), []);
    const third = await createApiKey(as(userId), "third");
    assert.equal(third.isDefault, true);
  });
});

describe("validateApiKey", () => {
  const callerFor = (userId: string, email: string, apiKeyId?: string): Caller => ({ credential: "apiKey", userId, email, name: null, isAdmin: false, apiKeyId });

  test("describes the caller's key", async () => {
    const user = await createTestUser(t.prisma);
    const created = await createApiKey(as(user.id), "probe");
    const caller = await resolveApiKey(created.key);
    assert.ok(caller);
    assert.deepEqual(await validateApiKey(caller), { valid: true, keyId: created.id, name: "probe", isDefault: true, userId: user.id, email: user.email });
  });

  test("a caller without a key, or with a deleted key → 401", async () => {
    const user = await createTestUser(t.prisma);
    await assert.rejects(validateApiKey(callerFor(user.id, user.email)), apiError("UNAUTHORIZED", 401));
    const created = await createApiKey(as(user.id), "gone");
    await deleteApiKey(as(user.id), "gone");
    await assert.rejects(validateApiKey(callerFor(user.id, user.email, created.id)), apiError("UNAUTHORIZED", 401));
  });
});

// PGlite is a single connection, so there the transactions above run one after another. On a
// PostgreSQL server they really overlap: this is where the per-user row lock earns its keep.
describe("on a PostgreSQL server (overlapping transactions)", () => {
  const pg = withPostgresRuntime(before, after);

  test("getDefault 5× concurrently creates exactly one key and shows it in full once", async (ctx) => {
    const pgRt = pg.get();
    if (!pgRt) return ctx.skip(pg.reason());
    const userId = (await createTestUser(pgRt.prisma)).id;
    const results = await Promise.all(Array.from({ length: 5 }, () => getDefaultApiKey(as(userId))));
    const rows = await pgRt.prisma.apiKey.findMany({ where: { userId } });
    assert.equal(rows.length, 1, `created ${rows.length} keys`);
    assert.equal(results.filter((r) => API_KEY_PATTERN.test(r.key)).length, 1);
    assert.ok(results.every((r) => r.id === rows[0]!.id));
  });

  test("concurrent creates of one name: one succeeds, the others are 409, one default", async (ctx) => {
    const pgRt = pg.get();
    if (!pgRt) return ctx.skip(pg.reason());
    const userId = (await createTestUser(pgRt.prisma)).id;
    const settled = await Promise.allSettled(Array.from({ length: 5 }, () => createApiKey(as(userId), "race")));
    assert.equal(settled.filter((s) => s.status === "fulfilled").length, 1);
    for (const s of settled) if (s.status === "rejected") apiError("CONFLICT", 409)(s.reason);
    const differentNames = await Promise.all(["n1", "n2", "n3", "n4"].map((n) => createApiKey(as(userId), n)));
    assert.equal(differentNames.filter((k) => k.isDefault).length, 0);
    assert.equal(await pgRt.prisma.apiKey.count({ where: { userId, isDefault: true } }), 1);
  });

  test("concurrent first keys: exactly one becomes the default", async (ctx) => {
    const pgRt = pg.get();
    if (!pgRt) return ctx.skip(pg.reason());
    const userId = (await createTestUser(pgRt.prisma)).id;
    const created = await Promise.all(["a", "b", "c", "d", "e"].map((n) => createApiKey(as(userId), n)));
    assert.equal(created.filter((k) => k.isDefault).length, 1);
    assert.equal(await pgRt.prisma.apiKey.count({ where: { userId, isDefault: true } }), 1);
  });

  test("concurrent setDefault calls leave exactly one default", async (ctx) => {
    const pgRt = pg.get();
    if (!pgRt) return ctx.skip(pg.reason());
    const userId = (await createTestUser(pgRt.prisma)).id;
    const names = ["p", "q", "r", "s", "t"];
    for (const n of names) await createApiKey(as(userId), n);
    await Promise.all(names.map((n) => setDefaultApiKey(as(userId), n)));
    assert.equal(await pgRt.prisma.apiKey.count({ where: { userId, isDefault: true } }), 1);
  });
});

describe("apiKey.updated", () => {
  test("create, default, delete and the default created on demand each tell the user's own connections, never with the key", async () => {
    const userId = await newUser();
    const seen: { type: string; userId?: string; projectId?: string; data: unknown }[] = [];
    const stop = t.bus.subscribe((e) => void seen.push(e));
    try {
      const laptop = await createApiKey(as(userId), "laptop");
      const ci = await createApiKey(as(userId), "ci");
      await setDefaultApiKey(as(userId), "ci");
      await deleteApiKey(as(userId), "ci");
      const made = await getDefaultApiKey(as(userId));
      await getDefaultApiKey(as(userId)); // exists now: no change, no event
      await assert.rejects(createApiKey(as(userId), "laptop"), apiError("CONFLICT", 409)); // refused: no event
      const mine = seen.filter((e) => e.type === "apiKey.updated");
      assert.deepEqual(
        mine.map((e) => [e.userId, e.projectId, e.data]),
        [
          [userId, undefined, { action: "created", keyId: laptop.id, name: "laptop" }],
          [userId, undefined, { action: "created", keyId: ci.id, name: "ci" }],
          [userId, undefined, { action: "default", keyId: ci.id, name: "ci" }],
          [userId, undefined, { action: "deleted", keyId: ci.id, name: "ci" }],
          [userId, undefined, { action: "created", keyId: made.id, name: DEFAULT_KEY_NAME }],
        ],
      );
      for (const key of [laptop.key, ci.key, made.key]) assert.ok(!JSON.stringify(mine).includes(key));
    } finally {
      stop();
    }
  });
});
