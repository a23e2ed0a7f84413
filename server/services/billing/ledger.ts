// The ledger: every change of a user's balance is one LedgerTransaction row, and
// BillingAccount.balanceCents is their sum, written in the same transaction as the row, under the
// user's row lock (server/db/lock.ts), so concurrent charges serialise: none overdraws the balance,
// none is lost or counted twice. Amounts are integer cents with an ISO currency.
import type { Prisma } from "../../db/generated/client.ts";
import { lockRow } from "../../db/lock.ts";
import { ApiError } from "../../http/errors.ts";
import { db } from "../../runtime.ts";
import { CURRENCY } from "./plans.ts";

type Tx = Prisma.TransactionClient;
/** Charges queue on one user's lock: give them room to wait for a connection and the lock. */
export const TX_OPTIONS = { maxWait: 15_000, timeout: 15_000 } as const;

export const TRANSACTION_KINDS = ["credit_purchase", "usage_charge", "refund", "grant", "plan_allowance"] as const;
export type TransactionKind = (typeof TRANSACTION_KINDS)[number];

export type Posting = {
  /** Positive credits the balance, negative debits it. */
  amountCents: number;
  kind: TransactionKind;
  description?: string;
  /** Unique: a second posting with the same reference changes nothing and returns the first. */
  reference?: string;
  /** The team whose shared spend pool the posting is for (a member's turn charged to the owner's account). */
  teamId?: string | null;
};

export type PostedTransaction = { id: string; amountCents: number; balanceAfterCents: number; currency: string; kind: string; duplicate: boolean };

/** The user's billing account, created on first use; call it under the user's lock when it will be written. */
export async function ensureAccount(tx: Tx, userId: string) {
  return tx.billingAccount.upsert({ where: { userId }, create: { userId, currency: CURRENCY }, update: {} });
}

/** Locks the user's row: every change of the balance (and of the usage windows) goes one at a time. */
export async function lockBilling(tx: Tx, userId: string): Promise<void> {
  if (!(await lockRow(tx, "User", userId))) throw new ApiError("NOT_FOUND", "User not found");
}

/**
 * Posts one transaction inside the caller's transaction: locks the user, refuses a debit larger than
 * the balance with 402 PAYMENT_REQUIRED (nothing written), writes the row and the new balance.
 * A posting whose `reference` was already posted returns that one (`duplicate: true`).
 */
export async function post(tx: Tx, userId: string, p: Posting): Promise<PostedTransaction> {
  if (!Number.isSafeInteger(p.amountCents)) throw new Error(`ledger: amount must be an integer number of cents, got ${p.amountCents}`);
  await lockBilling(tx, userId);
  if (p.reference) {
    const seen = await tx.ledgerTransaction.findUnique({ where: { reference: p.reference } });
    if (seen) return { id: seen.id, amountCents: seen.amountCents, balanceAfterCents: seen.balanceAfterCents, currency: seen.currency, kind: seen.kind, duplicate: true };
  }
  const account = await ensureAccount(tx, userId);
  const after = account.balanceCents + p.amountCents;
  if (p.amountCents < 0 && after < 0) {
    throw new ApiError("PAYMENT_REQUIRED", "Not enough credit", { balanceCents: account.balanceCents, requiredCents: -p.amountCents, currency: account.currency });
  }
  const row = await tx.ledgerTransaction.create({
    data: { userId, amountCents: p.amountCents, balanceAfterCents: after, currency: account.currency, kind: p.kind, description: p.description ?? "", reference: p.reference ?? null, teamId: p.teamId ?? null },
  });
  await tx.billingAccount.update({ where: { userId }, data: { balanceCents: after } });
  return { id: row.id, amountCents: row.amountCents, balanceAfterCents: after, currency: row.currency, kind: row.kind, duplicate: false };
}

/** `post` in its own transaction. */
export function postTransaction(userId: string, p: Posting): Promise<PostedTransaction> {
  return db().$transaction((tx) => post(tx, userId, p), TX_OPTIONS);
}

/** Debits `cents` (> 0) from the balance, or 402 when the balance is smaller. */
export function charge(userId: string, cents: number, description: string, reference?: string): Promise<PostedTransaction> {
  if (!(Number.isSafeInteger(cents) && cents > 0)) throw new Error(`ledger: a charge must be a positive integer of cents, got ${cents}`);
  return postTransaction(userId, { amountCents: -cents, kind: "usage_charge", description, ...(reference ? { reference } : {}) });
}

export async function balanceOf(userId: string): Promise<{ balanceCents: number; currency: string; allowExtraSpend: boolean }> {
  const a = await db().billingAccount.findUnique({ where: { userId } });
  return { balanceCents: a?.balanceCents ?? 0, currency: a?.currency ?? CURRENCY, allowExtraSpend: a?.allowExtraSpend ?? false };
}

/** The sum of the rows, for checks: always equals the stored balance. */
export async function ledgerSum(userId: string): Promise<number> {
  const s = await db().ledgerTransaction.aggregate({ where: { userId }, _sum: { amountCents: true } });
  return s._sum.amountCents ?? 0;
}
