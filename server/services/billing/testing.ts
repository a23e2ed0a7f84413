// The billing unit tests' set-up: a test runtime with the Stripe stand-in (through the SDK), the
// app's webhook route as the stand-in reaches it, and the jobs that apply the events.
import { createServer, type Server } from "node:http";
import type { TPaymentMethod } from "../../../lib/schemas/billing.ts";
import { ApiError } from "../../http/errors.ts";
import { callerOf } from "../../testing/caller.ts";
import { listenLocal } from "../../testing/listen.ts";
import { createTestUser, suiteTestRuntime, type TestRuntime } from "../../testing/runtime.ts";
import { setupPaymentMethod } from "./payments.ts";
import { createStripeGateway, type StripeGateway } from "./stripe.ts";
import { receiveWebhook } from "./webhooks.ts";

export type BillingTestbed = {
  /** The runtime (a stand-in for it: use it inside tests and hooks). */
  rt(): TestRuntime;
  gw(): StripeGateway;
  /** Every webhook sent so far delivered, and every job they queued done. */
  settled(): Promise<void>;
  /** A new user with a card saved as default (a Stripe test token). */
  userWithCard(card?: string): Promise<{ user: Awaited<ReturnType<typeof createTestUser>>; caller: ReturnType<typeof callerOf>; pm: TPaymentMethod }>;
};

/** Starts and closes with the calling test file (suiteTestRuntime); `env` adds configuration. */
export function billingTestbed(env: Record<string, string> = {}): BillingTestbed {
  let gw: StripeGateway | undefined;
  let hook: Server | undefined;
  const rt = suiteTestRuntime({ env, setup, teardown });
  async function setup() {
    gw = await createStripeGateway(rt.runtime.config, { memory: true });
    rt.runtime.stripe = gw;
    // The app's webhook route, as the stand-in reaches it: 200 when queued, 400 for a bad signature.
    hook = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        receiveWebhook(Buffer.concat(chunks).toString("utf8"), (req.headers["stripe-signature"] as string) ?? null).then(
          () => res.writeHead(200).end("{}"),
          (e: unknown) => res.writeHead(e instanceof ApiError ? e.status : 500).end(),
        );
      });
    });
    gw.standin!.webhookUrl = `${await listenLocal(hook)}/webhooks/stripe`;
    await rt.runtime.jobs!.start();
  }
  async function teardown() {
    await gw?.close();
    await new Promise((r) => (hook ? hook.close(r) : r(undefined)));
  }
  const bed: BillingTestbed = {
    rt: () => rt,
    gw: () => gw!,
    async settled() {
      await gw!.standin!.flushWebhooks();
      await rt.runtime.jobs!.idle();
    },
    async userWithCard(card = "pm_card_visa") {
      const user = await createTestUser(rt.prisma);
      const setup = await setupPaymentMethod(callerOf(user), { paymentMethodId: card }, null);
      return { user, caller: callerOf(user), pm: setup.paymentMethod! };
    },
  };
  return bed;
}
