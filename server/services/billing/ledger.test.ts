import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { ApiError } from "../../http/errors.ts";
import { apiError } from "../../testing/caller.ts";
import { createTestUser, suiteTestRuntime, withPostgresRuntime, type TestRuntime } from "../../testing/runtime.ts";
import { balanceOf, charge, ledgerSum, postTransaction } from "./ledger.ts";

const t = suiteTestRuntime();

/** 64 charges at once against one balance: exactly as many succeed as the balance covers. */
async function sixtyFourCharges(rt: TestRuntime) {
  const user = await createTestUser(rt.prisma);
  await postTransaction(user.id, { amountCents: 1000, kind: "grant", description: "start" });
  // 64 charges of 25 cents against 1000 cents: 40 fit, 24 must be refused with 402.
  const results = await Promise.allSettled(Array.from({ length: 64 }, (_, i) => charge(user.id, 25, `charge ${i}`)));
  const ok = results.filter((r) => r.status === "fulfilled").length;
  const refused = results.filter((r) => r.status === "rejected" && r.reason instanceof ApiError && r.reason.code === "PAYMENT_REQUIRED").length;
  assert.equal(ok, 40);
  assert.equal(refused, 24);
  const { balanceCents } = await balanceOf(user.id);
  assert.equal(balanceCents, 0);
  assert.equal(await ledgerSum(user.id), 0, "the rows sum to the stored balance");
  const rows = await rt.prisma.ledgerTransaction.findMany({ where: { userId: user.id } });
  assert.equal(rows.length, 41);
  assert.ok(rows.every((r) => r.balanceAfterCents >= 0), "no row leaves the balance below zero");
  // Every running balance appears once: no two charges saw the same balance.
  assert.equal(new Set(rows.map((r) => r.balanceAfterCents)).size, 41);
}

describe("ledger", () => {
  test("credits and debits keep balance = sum of rows; a debit past the balance is 402 and writes nothing", async () => {
    const user = await createTestUser(t.prisma);
    await postTransaction(user.id, { amountCents: 500, kind: "credit_purchase", reference: "pi_1" });
    await charge(user.id, 200, "turn");
    await assert.rejects(charge(user.id, 301, "too much"), apiError("PAYMENT_REQUIRED"));
    assert.deepEqual(await balanceOf(user.id), { balanceCents: 300, currency: "usd", allowExtraSpend: false });
    assert.equal(await t.prisma.ledgerTransaction.count({ where: { userId: user.id } }), 2);
  });

  test("a reference is posted once", async () => {
    const user = await createTestUser(t.prisma);
    const first = await postTransaction(user.id, { amountCents: 700, kind: "credit_purchase", reference: "pi_once" });
    const again = await postTransaction(user.id, { amountCents: 700, kind: "credit_purchase", reference: "pi_once" });
    assert.equal(again.duplicate, true);
    assert.equal(again.id, first.id);
    assert.equal((await balanceOf(user.id)).balanceCents, 700);
  });

  test("property: any sequence of postings keeps balance = sum of rows and never below zero", async () => {
    const user = await createTestUser(t.prisma);
    let model = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: -500, max: 500 }).filter((n) => n !== 0), { minLength: 1, maxLength: 15 }), async (amounts) => {
        for (const a of amounts) {
          try {
            await postTransaction(user.id, { amountCents: a, kind: a > 0 ? "grant" : "usage_charge" });
            model += a;
          } catch (e) {
            assert.ok(e instanceof ApiError && e.code === "PAYMENT_REQUIRED");
            assert.ok(model + a < 0, "only a debit past the balance is refused");
          }
        }
        const { balanceCents } = await balanceOf(user.id);
        assert.equal(balanceCents, model);
        assert.ok(balanceCents >= 0);
        assert.equal(await ledgerSum(user.id), balanceCents);
      }),
      { numRuns: 20 },
    );
  });

  test("64 concurrent charges on one balance (embedded database)", async () => {
    await sixtyFourCharges(t);
  });
});

// PGlite is one connection; on a PostgreSQL server the 64 transactions really overlap.
describe("ledger on a PostgreSQL server (overlapping transactions)", () => {
  const pg = withPostgresRuntime(before, after);
  test("64 concurrent charges on one balance never overdraw and never lose a cent", async (ctx) => {
    const rt = pg.get();
    if (!rt) return ctx.skip(pg.reason());
    await sixtyFourCharges(rt);
  });
});
