import type { TBillingInfo, TBillingInfoInput, TBillingUpdateResult } from "../../../lib/schemas/billing.ts";
import type { Caller } from "../../auth/caller.ts";
import { db } from "../../runtime.ts";

/** The stored form: optional fields left empty are left out. */
export function toBillingInfo(input: TBillingInfoInput, now = Date.now()): TBillingInfo {
  const { line1, line2, city, postalCode, state, country } = input.address;
  return {
    name: input.name,
    ...(input.email ? { email: input.email } : {}),
    address: { line1, ...(line2 ? { line2 } : {}), city, postalCode, ...(state ? { state } : {}), country },
    ...(input.taxId ? { taxId: { type: input.taxId.type, value: input.taxId.value } } : {}),
    updatedAt: now,
  };
}

/** Replaces the user's billing address and tax information (a PUT: fields left out are removed). */
export async function updateBillingInfo(caller: Caller, input: TBillingInfoInput): Promise<TBillingUpdateResult> {
  const { userId } = caller;
  const billingInfo = toBillingInfo(input);
  await db().userSettings.upsert({ where: { userId }, create: { userId, billingInfo }, update: { billingInfo } });
  return { updated: true, billingInfo };
}
