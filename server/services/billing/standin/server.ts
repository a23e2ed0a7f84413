// A local stand-in for the parts of Stripe's API this app calls, so the official `stripe` SDK can
// run without a Stripe account (the embedded default, and every test) through its `host`, `port`
// and `protocol` options. Shapes follow the API version the installed SDK pins (subscription
// periods on the items: `items.data[].current_period_end`; an invoice's subscription under
// `parent.subscription_details`). It honours `Idempotency-Key`, knows Stripe's test cards, keeps
// its state in memory (and in a JSON file when given one), and sends webhooks signed as Stripe
// signs them: `Stripe-Signature: t=<unix>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`.
//
// Only what the app (and its tests) use exists: customers (create, list, update, delete), payment methods (create, attach, detach, list),
// payment intents, setup intents, products and prices (lookup keys), subscriptions (create,
// update with proration, cancel now or at period end) and their invoices, and test clocks. Time
// does not advance on its own: as on Stripe, a customer created on a test clock lives at the
// clock's frozen time, and advancing the clock renews its subscriptions (an invoice charged to
// the default card, the next period) or ends those cancelled at period end, with their webhooks.
import { createHash, createHmac, randomBytes } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { parseStripeForm, type FormValue } from "./form.ts";

type Obj = Record<string, unknown>;
type Form = Record<string, FormValue>;

export type StandinOptions = {
  /** The secret key the SDK must send (`Authorization: Bearer …`). */
  secretKey: string;
  /** Accepted for creating payment methods from a browser (like Stripe.js). */
  publishableKey: string;
  webhookSecret: string;
  /** Where events are POSTed (none: events are only recorded). */
  webhookUrl?: string;
  /** JSON file holding the state across restarts. */
  stateFile?: string;
  port?: number;
  host?: string;
};

type State = {
  customers: Record<string, Obj>;
  paymentMethods: Record<string, Obj>;
  paymentIntents: Record<string, Obj>;
  setupIntents: Record<string, Obj>;
  products: Record<string, Obj>;
  prices: Record<string, Obj>;
  subscriptions: Record<string, Obj>;
  invoices: Record<string, Obj>;
  testClocks: Record<string, Obj>;
  events: Obj[];
  idempotency: Record<string, { fingerprint: string; status: number; body: string }>;
};

type Behaviour = "ok" | "decline" | "insufficient" | "3ds" | "charge_fails";
/** Stripe's test cards: number → how it behaves (`charge_fails`: saving it succeeds, every charge to it is declined). */
const TEST_CARDS: Record<string, { brand: string; behaviour: Behaviour }> = {
  "4242424242424242": { brand: "visa", behaviour: "ok" },
  "4000056655665556": { brand: "visa", behaviour: "ok" },
  "5555555555554444": { brand: "mastercard", behaviour: "ok" },
  "378282246310005": { brand: "amex", behaviour: "ok" },
  "4000000000000002": { brand: "visa", behaviour: "decline" },
  "4000000000009995": { brand: "visa", behaviour: "insufficient" },
  "4000002500003155": { brand: "visa", behaviour: "3ds" },
  "4000000000000341": { brand: "visa", behaviour: "charge_fails" },
};
/** Stripe's test payment method tokens → their card number. */
const TEST_TOKENS: Record<string, string> = {
  pm_card_visa: "4242424242424242",
  pm_card_mastercard: "5555555555554444",
  pm_card_amex: "378282246310005",
  pm_card_chargeDeclined: "4000000000000002",
  pm_card_visa_chargeDeclined: "4000000000000002",
  pm_card_chargeDeclinedInsufficientFunds: "4000000000009995",
  pm_card_authenticationRequired: "4000002500003155",
  pm_card_chargeCustomerFail: "4000000000000341",
};

const DECLINES = {
  decline: { code: "card_declined", decline_code: "generic_decline", message: "Your card was declined." },
  insufficient: { code: "card_declined", decline_code: "insufficient_funds", message: "Your card has insufficient funds." },
  incorrect: { code: "incorrect_number", decline_code: undefined, message: "Your card number is incorrect." },
  auth: { code: "authentication_required", decline_code: "authentication_required", message: "Your card was declined. This transaction requires authentication." },
} as const;

/** A record's own entry: ids come from requests, and `toString` must not find Object.prototype's. */
function own<T>(record: Record<string, T>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

class StripeError extends Error {
  constructor(
    readonly status: number,
    readonly body: Obj,
  ) {
    super(String(body.message));
  }
}

const invalid = (message: string, param?: string) => new StripeError(400, { type: "invalid_request_error", message, ...(param ? { param } : {}) });
const missing = (kind: string, id: string) => new StripeError(404, { type: "invalid_request_error", code: "resource_missing", message: `No such ${kind}: '${id}'`, param: "id" });

function luhn(n: string): boolean {
  let sum = 0;
  for (let i = 0; i < n.length; i++) {
    let d = Number(n[n.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return n.length >= 12 && sum % 10 === 0;
}

const now = () => Math.floor(Date.now() / 1000);
const str = (v: FormValue | undefined): string | undefined => (typeof v === "string" ? v : undefined);
const bool = (v: FormValue | undefined): boolean | undefined => (v === "true" ? true : v === "false" ? false : undefined);
const int = (v: FormValue | undefined): number | undefined => (typeof v === "string" && /^-?\d+$/.test(v) ? Number(v) : undefined);
const meta = (v: FormValue | undefined): Record<string, string> => (v && typeof v === "object" && !Array.isArray(v) ? (Object.fromEntries(Object.entries(v).filter(([, x]) => typeof x === "string")) as Record<string, string>) : {});
const list = (data: Obj[], url: string) => ({ object: "list", data, has_more: false, url });

function addMonth(unix: number): number {
  const d = new Date(unix * 1000);
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + 1);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, last));
  return Math.floor(d.getTime() / 1000);
}

export function signStripePayload(payload: string, secret: string, timestamp = now()): string {
  const v1 = createHmac("sha256", secret).update(`${timestamp}.${payload}`).digest("hex");
  return `t=${timestamp},v1=${v1}`;
}

export class StripeStandin {
  private state: State;
  private server: Server | undefined;
  private deliveries: Promise<void> = Promise.resolve();
  /** Events the stand-in created, oldest first (also those not delivered). */
  get events(): readonly Obj[] {
    return this.state.events;
  }
  url = "";
  port = 0;
  webhookUrl: string | undefined;

  constructor(readonly opts: StandinOptions) {
    this.webhookUrl = opts.webhookUrl;
    this.state = this.load();
  }

  private load(): State {
    const empty: State = { customers: {}, paymentMethods: {}, paymentIntents: {}, setupIntents: {}, products: {}, prices: {}, subscriptions: {}, invoices: {}, testClocks: {}, events: [], idempotency: {} };
    if (!this.opts.stateFile) return empty;
    try {
      return { ...empty, ...(JSON.parse(readFileSync(this.opts.stateFile, "utf8")) as Partial<State>) };
    } catch {
      return empty;
    }
  }

  private save(): void {
    if (this.opts.stateFile) writeFileSync(this.opts.stateFile, JSON.stringify(this.state), { mode: 0o600 });
  }

  async listen(): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve, reject) => {
      this.server!.once("error", reject);
      this.server!.listen(this.opts.port ?? 0, this.opts.host ?? "127.0.0.1", resolve);
    });
    this.port = (this.server.address() as AddressInfo).port;
    this.url = `http://${this.opts.host ?? "127.0.0.1"}:${this.port}`;
    return this.url;
  }

  async close(): Promise<void> {
    await this.deliveries.catch(() => {});
    const closed = new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    // The SDK keeps connections alive: end them, or close() would wait for them forever.
    this.server?.closeAllConnections?.();
    await closed;
  }

  /** Resolves once every webhook queued so far was delivered (or gave up). */
  async flushWebhooks(): Promise<void> {
    await this.deliveries;
  }

  /** Sends an event (again) to the webhook URL; resolves with the HTTP status. */
  async deliver(event: Obj, opts: { secret?: string; timestamp?: number } = {}): Promise<number> {
    if (!this.webhookUrl) return 0;
    const payload = JSON.stringify(event, null, 2);
    const res = await fetch(this.webhookUrl, {
      method: "POST",
      headers: { "content-type": "application/json; charset=utf-8", "stripe-signature": signStripePayload(payload, opts.secret ?? this.opts.webhookSecret, opts.timestamp), "user-agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)" },
      body: payload,
    });
    await res.arrayBuffer().catch(() => undefined);
    return res.status;
  }

  private id(prefix: string): string {
    return `${prefix}_${randomBytes(12).toString("base64url").replace(/[-_]/g, "x")}`;
  }

  /** The time a customer lives at: its test clock's frozen time, else now (seconds). */
  private at(customer: unknown): number {
    const c = typeof customer === "string" ? own(this.state.customers, customer) : undefined;
    const clock = typeof c?.test_clock === "string" ? own(this.state.testClocks, c.test_clock) : undefined;
    return clock ? Number(clock.frozen_time) : now();
  }

  private emit(type: string, object: Obj, previous?: Obj, request?: { id: string; key: string | null }, created = this.at(object.customer)): void {
    const event: Obj = {
      id: this.id("evt"),
      object: "event",
      api_version: API_VERSION,
      created,
      data: { object: structuredClone(object), ...(previous ? { previous_attributes: previous } : {}) },
      livemode: false,
      pending_webhooks: this.webhookUrl ? 1 : 0,
      request: { id: request?.id ?? null, idempotency_key: request?.key ?? null },
      type,
    };
    this.state.events.push(event);
    if (this.state.events.length > 1000) this.state.events.splice(0, this.state.events.length - 1000);
    // One after another, in the order they happened; a failed delivery is retried a few times.
    this.deliveries = this.deliveries.then(async () => {
      for (let attempt = 0; attempt < 5; attempt++) {
        try {
          const status = await this.deliver(event);
          if (status === 0 || (status >= 200 && status < 300)) return;
        } catch {
          // the app is not listening (yet): retry
        }
        await new Promise((r) => setTimeout(r, 100 * 2 ** attempt));
      }
    });
  }

  // ───────────── HTTP ─────────────

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const requestId = `req_${randomBytes(8).toString("hex")}`;
    const cors = { "access-control-allow-origin": "*", "access-control-allow-headers": "authorization, content-type, idempotency-key", "access-control-allow-methods": "GET, POST, DELETE" };
    const send = (status: number, body: string, extra: Record<string, string> = {}) => {
      res.writeHead(status, { "content-type": "application/json", "request-id": requestId, "stripe-version": API_VERSION, ...cors, ...extra });
      res.end(body);
    };
    if (req.method === "OPTIONS") return send(204, "");
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString("utf8");
    const url = new URL(req.url ?? "/", "http://standin");
    const method = req.method ?? "GET";
    // The bank's page of a card that asks for 3-D Secure: opened by the browser, no API key.
    const challenge = /^\/test-mode\/authenticate\/(pi_[A-Za-z0-9]+)$/.exec(url.pathname);
    if (challenge) return this.authenticate(method, challenge[1]!, url, text, requestId, res);
    const key = (req.headers.authorization ?? "").replace(/^Bearer\s+/i, "");
    const publishable = key === this.opts.publishableKey;
    if (key !== this.opts.secretKey && !(publishable && method === "POST" && url.pathname === "/v1/payment_methods")) {
      return send(401, JSON.stringify({ error: { type: "invalid_request_error", message: `Invalid API Key provided: ${key.slice(0, 8)}…` } }));
    }
    const form: Form = method === "GET" || method === "DELETE" ? parseStripeForm(url.search.slice(1) + (text ? `&${text}` : "")) : parseStripeForm(text);
    const idemKey = typeof req.headers["idempotency-key"] === "string" ? req.headers["idempotency-key"] : null;
    const fingerprint = createHash("sha256").update(`${method} ${url.pathname} ${text}`).digest("hex");
    if (idemKey && method === "POST") {
      const seen = own(this.state.idempotency, `${key}:${idemKey}`);
      if (seen) {
        if (seen.fingerprint !== fingerprint) {
          return send(400, JSON.stringify({ error: { type: "idempotency_error", message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idemKey}' if you meant to execute a different request.` } }));
        }
        return send(seen.status, seen.body, { "idempotent-replayed": "true", "idempotency-key": idemKey });
      }
    }
    let status = 200;
    let body: string;
    try {
      body = JSON.stringify(this.route(method, url.pathname, form, { id: requestId, key: idemKey }), null, 2);
    } catch (e) {
      if (e instanceof StripeError) {
        status = e.status;
        body = JSON.stringify({ error: { ...e.body, request_log_url: null, doc_url: e.body.code ? `https://stripe.com/docs/error-codes/${String(e.body.code).replace(/_/g, "-")}` : undefined } });
      } else {
        status = 500;
        body = JSON.stringify({ error: { type: "api_error", message: `stand-in: ${(e as Error).message}` } });
      }
    }
    // Stripe stores the answer of a key, errors included (but not a 500 it could retry).
    if (idemKey && method === "POST" && status < 500) this.state.idempotency[`${key}:${idemKey}`] = { fingerprint, status, body };
    if (method !== "GET") this.save();
    send(status, body, idemKey ? { "idempotency-key": idemKey } : {});
  }

  private route(method: string, path: string, f: Form, request: { id: string; key: string | null }): unknown {
    const parts = path.split("/").filter(Boolean);
    // `/v1/test_helpers/test_clocks/…` is one resource.
    if (parts[1] === "test_helpers" && parts[2]) parts.splice(1, 2, `test_helpers/${parts[2]}`);
    if (parts[0] !== "v1") throw new StripeError(404, { type: "invalid_request_error", message: `Unrecognized request URL (${method}: ${path}).` });
    const [, resource, id, action] = parts;
    const key = `${method} ${resource}${id ? "/:id" : ""}${action ? `/${action}` : ""}`;
    switch (key) {
      case "POST customers":
        return this.createCustomer(f);
      case "GET customers":
        // Stripe's list, filtered by `email` as Stripe's is (tests ask what the stand-in holds).
        return list(Object.values(this.state.customers).filter((c) => !str(f.email) || c.email === str(f.email)).sort((a, b) => Number(b.created) - Number(a.created)), "/v1/customers");
      case "GET customers/:id":
        return this.get("customers", "customer", id!);
      case "POST customers/:id":
        return this.updateCustomer(id!, f);
      case "DELETE customers/:id":
        return this.deleteCustomer(id!, request);
      case "GET customers/:id/payment_methods":
        this.get("customers", "customer", id!);
        return list(Object.values(this.state.paymentMethods).filter((p) => p.customer === id).sort((a, b) => Number(b.created) - Number(a.created)).map((p) => this.public(p)), `/v1/customers/${id}/payment_methods`);
      case "POST payment_methods":
        return this.createPaymentMethod(f);
      case "GET payment_methods/:id":
        return this.public(this.paymentMethod(id!));
      case "POST payment_methods/:id/attach":
        return this.attach(id!, str(f.customer) ?? "", request);
      case "POST payment_methods/:id/detach":
        return this.detach(id!);
      case "POST payment_intents":
        return this.createPaymentIntent(f, request);
      case "GET payment_intents/:id":
        return this.get("paymentIntents", "payment_intent", id!);
      case "POST payment_intents/:id/confirm":
        return this.confirmPaymentIntent(this.get("paymentIntents", "payment_intent", id!), f, request);
      case "POST setup_intents":
        return this.createSetupIntent(f, request);
      case "GET setup_intents/:id":
        return this.get("setupIntents", "setup_intent", id!);
      case "POST setup_intents/:id/confirm":
        return this.confirmSetupIntent(this.get("setupIntents", "setup_intent", id!), f, request);
      case "POST products":
        return this.createProduct(f);
      case "POST prices":
        return this.createPrice(f);
      case "GET prices":
        return this.listPrices(f);
      case "GET prices/:id":
        return this.get("prices", "price", id!);
      case "POST subscriptions":
        return this.createSubscription(f, request);
      case "GET subscriptions/:id":
        return this.get("subscriptions", "subscription", id!);
      case "POST subscriptions/:id":
        return this.updateSubscription(id!, f, request);
      case "DELETE subscriptions/:id":
        return this.cancelSubscription(id!, request);
      case "GET events/:id": {
        const event = this.state.events.find((e) => e.id === id);
        if (!event) throw missing("event", id!);
        return event;
      }
      case "POST test_helpers/test_clocks":
        return this.createTestClock(f);
      case "GET test_helpers/test_clocks":
        return list(Object.values(this.state.testClocks).sort((a, b) => Number(b.created) - Number(a.created)), "/v1/test_helpers/test_clocks");
      case "GET test_helpers/test_clocks/:id":
        return this.get("testClocks", "test_clock", id!);
      case "DELETE test_helpers/test_clocks/:id":
        return this.deleteTestClock(id!, request);
      case "POST test_helpers/test_clocks/:id/advance":
        return this.advanceTestClock(id!, f, request);
      case "GET invoices":
        return list(Object.values(this.state.invoices).filter((i) => !str(f.customer) || i.customer === str(f.customer)).sort((a, b) => Number(b.created) - Number(a.created)), "/v1/invoices");
      case "GET invoices/:id":
        return this.get("invoices", "invoice", id!);
      default:
        throw new StripeError(404, { type: "invalid_request_error", message: `Unrecognized request URL (${method}: ${path}). The local Stripe stand-in serves only what this app calls.` });
    }
  }

  private get(table: keyof State, kind: string, id: string): Obj {
    const row = own(this.state[table] as Record<string, Obj>, id);
    if (!row) throw missing(kind, id);
    return row;
  }

  // ───────────── customers and payment methods ─────────────

  private createCustomer(f: Form): Obj {
    const clock = str(f.test_clock) ? this.get("testClocks", "test_clock", str(f.test_clock)!) : null;
    if (clock && Object.values(this.state.customers).filter((c) => c.test_clock === clock.id).length >= 3) throw invalid("A test clock can have at most 3 customers.", "test_clock");
    const c: Obj = {
      id: this.id("cus"), object: "customer", address: null, balance: 0, created: clock ? Number(clock.frozen_time) : now(), currency: null, default_source: null, delinquent: false, description: str(f.description) ?? null,
      email: str(f.email) ?? null, invoice_prefix: randomBytes(4).toString("hex").toUpperCase(), invoice_settings: { custom_fields: null, default_payment_method: null, footer: null, rendering_options: null },
      livemode: false, metadata: meta(f.metadata), name: str(f.name) ?? null, phone: null, preferred_locales: [], shipping: null, tax_exempt: "none", test_clock: clock?.id ?? null,
    };
    this.state.customers[c.id as string] = c;
    return c;
  }

  /** Like Stripe: cancels the customer's live subscriptions, detaches its cards, then the customer is gone (a second delete is 404). */
  private deleteCustomer(id: string, request: { id: string; key: string | null }): Obj {
    this.get("customers", "customer", id);
    for (const sub of Object.values(this.state.subscriptions)) if (sub.customer === id && sub.status !== "canceled") this.cancelSubscription(sub.id as string, request);
    for (const pm of Object.values(this.state.paymentMethods)) if (pm.customer === id) pm.customer = null;
    delete this.state.customers[id];
    this.emit("customer.deleted", { id, object: "customer", deleted: true }, undefined, request);
    return { id, object: "customer", deleted: true };
  }

  private updateCustomer(id: string, f: Form): Obj {
    const c = this.get("customers", "customer", id);
    const inv = f.invoice_settings as Form | undefined;
    if (inv && typeof inv === "object" && "default_payment_method" in inv) {
      const pm = str(inv.default_payment_method) || null;
      if (pm && this.paymentMethod(pm).customer !== id) throw invalid(`The customer does not have a payment method with the ID ${pm}. The payment method must be attached to the customer.`, "invoice_settings[default_payment_method]");
      (c.invoice_settings as Obj).default_payment_method = pm;
    }
    if (str(f.email)) c.email = str(f.email);
    if (str(f.name)) c.name = str(f.name);
    if (f.metadata) c.metadata = { ...(c.metadata as Obj), ...meta(f.metadata) };
    return c;
  }

  private cardOf(number: string, expMonth: number, expYear: number): Obj {
    const known = own(TEST_CARDS, number);
    const brand = known?.brand ?? (number.startsWith("5") ? "mastercard" : number.startsWith("3") ? "amex" : "visa");
    return {
      brand, checks: { address_line1_check: null, address_postal_code_check: null, cvc_check: "pass" }, country: "US", display_brand: brand, exp_month: expMonth, exp_year: expYear,
      fingerprint: createHash("sha256").update(number).digest("hex").slice(0, 16), funding: "credit", generated_from: null, last4: number.slice(-4),
      networks: { available: [brand], preferred: null }, regulated_status: "unregulated", three_d_secure_usage: { supported: true }, wallet: null,
    };
  }

  private newPaymentMethod(number: string, expMonth: number, expYear: number, billingName: string | null): Obj {
    const pm: Obj = {
      id: this.id("pm"), object: "payment_method", allow_redisplay: "unspecified",
      billing_details: { address: { city: null, country: null, line1: null, line2: null, postal_code: null, state: null }, email: null, name: billingName, phone: null, tax_id: null },
      card: this.cardOf(number, expMonth, expYear), created: now(), customer: null, livemode: false, metadata: {}, type: "card",
    };
    // Which test card it is stays on the stand-in's side, like Stripe keeps the number.
    this.state.paymentMethods[pm.id as string] = pm;
    (this.state.paymentMethods[pm.id as string] as Obj)["~number"] = number;
    return pm;
  }

  private createPaymentMethod(f: Form): Obj {
    if (str(f.type) !== "card") throw invalid("The stand-in supports only type=card.", "type");
    const card = (f.card ?? {}) as Form;
    const number = (str(card.number) ?? "").replace(/\s+/g, "");
    if (!/^\d{12,19}$/.test(number) || !luhn(number)) throw new StripeError(402, { type: "card_error", ...DECLINES.incorrect, param: "card[number]" });
    const expMonth = int(card.exp_month) ?? 0;
    const expYear = int(card.exp_year) ?? 0;
    const fullYear = expYear < 100 ? 2000 + expYear : expYear;
    if (expMonth < 1 || expMonth > 12) throw new StripeError(402, { type: "card_error", code: "invalid_expiry_month", message: "Your card's expiration month is invalid.", param: "card[exp_month]" });
    const today = new Date();
    if (fullYear < today.getUTCFullYear() || (fullYear === today.getUTCFullYear() && expMonth < today.getUTCMonth() + 1)) throw new StripeError(402, { type: "card_error", code: "invalid_expiry_year", message: "Your card's expiration year is invalid.", param: "card[exp_year]" });
    const billing = (f.billing_details ?? {}) as Form;
    return this.public(this.newPaymentMethod(number, expMonth, fullYear, str(billing.name) ?? null));
  }

  /** A payment method by id; a test token (`pm_card_visa`) makes a fresh one, as Stripe does. */
  private paymentMethod(id: string): Obj {
    const token = own(TEST_TOKENS, id);
    if (token) return this.newPaymentMethod(token, 12, new Date().getUTCFullYear() + 3, null);
    return this.get("paymentMethods", "PaymentMethod", id);
  }

  private public(pm: Obj): Obj {
    const { ["~number"]: _n, ...rest } = pm;
    return rest;
  }

  private behaviour(pm: Obj): Behaviour {
    return own(TEST_CARDS, String(pm["~number"]))?.behaviour ?? "ok";
  }

  private attach(id: string, customer: string, request: { id: string; key: string | null }): Obj {
    this.get("customers", "customer", customer);
    const pm = this.paymentMethod(id);
    if (pm.customer && pm.customer !== customer) throw invalid("The payment method you provided has already been attached to a customer.", "payment_method");
    pm.customer = customer;
    this.emit("payment_method.attached", this.public(pm), undefined, request);
    return this.public(pm);
  }

  private detach(id: string): Obj {
    const pm = this.get("paymentMethods", "PaymentMethod", id);
    if (!pm.customer) throw invalid(`The payment method you provided is not attached to a customer so detachment is impossible.`, "payment_method");
    const customer = this.state.customers[String(pm.customer)];
    if (customer && (customer.invoice_settings as Obj).default_payment_method === id) (customer.invoice_settings as Obj).default_payment_method = null;
    pm.customer = null;
    this.emit("payment_method.detached", this.public(pm), { customer: customer?.id ?? null });
    return this.public(pm);
  }

  // ───────────── payment intents and setup intents ─────────────

  private createPaymentIntent(f: Form, request: { id: string; key: string | null }): Obj {
    const amount = int(f.amount);
    if (amount === undefined || amount < 50) throw invalid("Amount must be at least $0.50 usd", "amount");
    const currency = (str(f.currency) ?? "").toLowerCase();
    if (!/^[a-z]{3}$/.test(currency)) throw invalid("Missing required param: currency.", "currency");
    const customer = str(f.customer) ?? null;
    if (customer) this.get("customers", "customer", customer);
    const id = this.id("pi");
    const pi: Obj = {
      id, object: "payment_intent", allowed_payment_method_types: ["card"], excluded_payment_method_types: null, application_fee_amount: null, customer_account: null, managed_payments: null,
      on_behalf_of: null, payment_method_configuration_details: null, payment_record: null, processing: null, review: null, shipping: null, source: null, statement_descriptor: null,
      statement_descriptor_suffix: null, transfer_group: null, amount, amount_capturable: 0, amount_details: { tip: {} }, amount_received: 0, application: null, automatic_payment_methods: null,
      canceled_at: null, cancellation_reason: null, capture_method: "automatic", client_secret: `${id}_secret_${randomBytes(12).toString("hex")}`, confirmation_method: "automatic",
      created: now(), currency, customer, description: str(f.description) ?? null, last_payment_error: null, latest_charge: null, livemode: false, metadata: meta(f.metadata),
      next_action: null, payment_method: null, payment_method_options: { card: { request_three_d_secure: "automatic" } }, payment_method_types: ["card"], receipt_email: null,
      setup_future_usage: str(f.setup_future_usage) ?? null, status: "requires_payment_method",
    };
    this.state.paymentIntents[id] = pi;
    this.emit("payment_intent.created", pi, undefined, request);
    if (str(f.payment_method)) {
      pi.payment_method = this.paymentMethod(str(f.payment_method)!).id;
      pi.status = "requires_confirmation";
    }
    if (bool(f.confirm)) return this.confirmPaymentIntent(pi, f, request);
    return pi;
  }

  private confirmPaymentIntent(pi: Obj, f: Form, request: { id: string; key: string | null }): Obj {
    if (pi.status === "succeeded") throw invalid("You cannot confirm this PaymentIntent because it has already succeeded after being previously confirmed.");
    const pmId = str(f.payment_method) ? this.paymentMethod(str(f.payment_method)!).id : (pi.payment_method as string | null);
    if (!pmId) throw invalid("You cannot confirm this PaymentIntent because it's missing a payment method.", "payment_method");
    const pm = this.get("paymentMethods", "PaymentMethod", String(pmId));
    if (pm.customer && pi.customer && pm.customer !== pi.customer) throw invalid("The provided PaymentMethod belongs to a different customer.", "payment_method");
    pi.payment_method = pm.id;
    const b = this.behaviour(pm);
    const offSession = bool(f.off_session) ?? false;
    if (b === "3ds" && !offSession) {
      pi.status = "requires_action";
      pi.next_action = { type: "use_stripe_sdk", use_stripe_sdk: { type: "three_d_secure_redirect", stripe_js: `${this.url}/test-mode/authenticate/${String(pi.id)}` } };
      return pi;
    }
    if (b !== "ok") {
      const reason = b === "3ds" ? DECLINES.auth : b === "insufficient" ? DECLINES.insufficient : DECLINES.decline;
      pi.status = "requires_payment_method";
      pi.last_payment_error = { type: "card_error", code: reason.code, decline_code: reason.decline_code, message: reason.message, payment_method: this.public(pm) };
      this.emit("payment_intent.payment_failed", pi, undefined, request);
      throw new StripeError(402, { type: "card_error", code: reason.code, decline_code: reason.decline_code, message: reason.message, payment_intent: structuredClone(pi) });
    }
    return this.succeed(pi, pm, request);
  }

  private succeed(pi: Obj, pm: Obj, request: { id: string; key: string | null }): Obj {
    pi.status = "succeeded";
    pi.amount_received = pi.amount;
    pi.last_payment_error = null;
    pi.next_action = null;
    pi.latest_charge = this.id("ch");
    if (pi.setup_future_usage && pi.customer && !pm.customer) pm.customer = pi.customer;
    this.emit("payment_intent.succeeded", pi, undefined, request);
    return pi;
  }

  /**
   * Stripe's test 3-D Secure page, as the bank of a card that asks for authentication shows it:
   * GET shows the payment with "Complete" and "Fail"; POST applies the choice (the payment succeeds
   * and `payment_intent.succeeded` is sent, or it fails with `payment_intent_authentication_failure`)
   * and, like Stripe, goes back to `return_url` with `payment_intent` and `redirect_status`.
   */
  private authenticate(method: string, id: string, url: URL, text: string, requestId: string, res: ServerResponse): void {
    const html = (status: number, body: string) => {
      res.writeHead(status, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store", "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; form-action *" });
      res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>3D Secure test payment</title><style>body{font:16px system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;color:#1a1a1a}button{font:inherit;padding:.5rem 1rem;margin-right:.5rem;border-radius:6px;border:1px solid #635bff;background:#635bff;color:#fff}button.fail{background:#fff;color:#635bff}p.note{color:#555;font-size:.9rem}</style></head><body>${body}</body></html>`);
    };
    const pi = own(this.state.paymentIntents, id);
    if (!pi) return html(404, "<h1>Unknown payment</h1>");
    const form = method === "POST" ? new URLSearchParams(text) : url.searchParams;
    const back = form.get("return_url");
    let returnUrl: URL | null = null;
    try {
      returnUrl = back ? new URL(back) : null;
    } catch {
      returnUrl = null;
    }
    if (returnUrl && !/^https?:$/.test(returnUrl.protocol)) returnUrl = null;
    if (pi.status !== "requires_action") return html(409, `<h1>Nothing to authenticate</h1><p>This payment is ${escapeHtml(String(pi.status))}.</p>`);
    const amount = `${(Number(pi.amount) / 100).toFixed(2)} ${String(pi.currency).toUpperCase()}`;
    if (method !== "POST") {
      const hidden = returnUrl ? `<input type="hidden" name="return_url" value="${escapeHtml(returnUrl.href)}">` : "";
      return html(
        200,
        `<h1>3D Secure test payment</h1><p>Your bank asks you to confirm a payment of <strong>${escapeHtml(amount)}</strong>.</p><form method="post">${hidden}<button name="result" value="complete">Complete authentication</button><button class="fail" name="result" value="fail">Fail authentication</button></form><p class="note">Test mode: this page stands in for your bank's. No real card is charged.</p>`,
      );
    }
    const request = { id: requestId, key: null };
    const ok = form.get("result") === "complete";
    if (ok) this.succeed(pi, this.get("paymentMethods", "PaymentMethod", String(pi.payment_method)), request);
    else {
      pi.status = "requires_payment_method";
      pi.next_action = null;
      pi.last_payment_error = { type: "invalid_request_error", code: "payment_intent_authentication_failure", message: "The provided PaymentMethod has failed authentication. You can provide payment_method_data or a new PaymentMethod to attempt to fulfill this PaymentIntent again." };
      this.emit("payment_intent.payment_failed", pi, undefined, request);
    }
    this.save();
    if (!returnUrl) return html(200, `<h1>${ok ? "Payment authenticated" : "Authentication failed"}</h1><p>You can close this page.</p>`);
    returnUrl.searchParams.set("payment_intent", id);
    returnUrl.searchParams.set("redirect_status", ok ? "succeeded" : "failed");
    res.writeHead(303, { location: returnUrl.href, "cache-control": "no-store" });
    res.end();
  }

  private createSetupIntent(f: Form, request: { id: string; key: string | null }): Obj {
    const customer = str(f.customer) ?? null;
    if (customer) this.get("customers", "customer", customer);
    const id = this.id("seti");
    const si: Obj = {
      id, object: "setup_intent", allowed_payment_method_types: ["card"], excluded_payment_method_types: null, payment_method_configuration_details: null, application: null, automatic_payment_methods: null, cancellation_reason: null, client_secret: `${id}_secret_${randomBytes(12).toString("hex")}`,
      created: now(), customer, description: null, flow_directions: null, last_setup_error: null, latest_attempt: null, livemode: false, mandate: null, metadata: meta(f.metadata),
      next_action: null, on_behalf_of: null, payment_method: null, payment_method_options: { card: { request_three_d_secure: "automatic" } }, payment_method_types: ["card"],
      single_use_mandate: null, status: "requires_payment_method", usage: str(f.usage) ?? "off_session",
    };
    this.state.setupIntents[id] = si;
    if (str(f.payment_method)) {
      si.payment_method = this.paymentMethod(str(f.payment_method)!).id;
      si.status = "requires_confirmation";
    }
    if (bool(f.confirm)) return this.confirmSetupIntent(si, f, request);
    return si;
  }

  private confirmSetupIntent(si: Obj, f: Form, request: { id: string; key: string | null }): Obj {
    if (si.status === "succeeded") throw invalid("You cannot confirm this SetupIntent because it has already succeeded.");
    const pmId = str(f.payment_method) ? this.paymentMethod(str(f.payment_method)!).id : (si.payment_method as string | null);
    if (!pmId) throw invalid("You cannot confirm this SetupIntent because it's missing a payment method.", "payment_method");
    const pm = this.get("paymentMethods", "PaymentMethod", String(pmId));
    si.payment_method = pm.id;
    const b = this.behaviour(pm);
    if (b === "decline" || b === "insufficient") {
      const reason = b === "insufficient" ? DECLINES.insufficient : DECLINES.decline;
      si.status = "requires_payment_method";
      si.last_setup_error = { type: "card_error", code: reason.code, decline_code: reason.decline_code, message: reason.message };
      this.emit("setup_intent.setup_failed", si, undefined, request);
      throw new StripeError(402, { type: "card_error", code: reason.code, decline_code: reason.decline_code, message: reason.message, setup_intent: structuredClone(si) });
    }
    si.status = "succeeded";
    if (si.customer) {
      if (pm.customer && pm.customer !== si.customer) throw invalid("The payment method you provided has already been attached to a customer.", "payment_method");
      pm.customer = si.customer;
      this.emit("payment_method.attached", this.public(pm), undefined, request);
    }
    this.emit("setup_intent.succeeded", si, undefined, request);
    return si;
  }

  // ───────────── products, prices ─────────────

  private createProduct(f: Form): Obj {
    const p: Obj = { id: this.id("prod"), object: "product", active: true, created: now(), description: null, images: [], livemode: false, metadata: meta(f.metadata), name: str(f.name) ?? "", updated: now(), url: null };
    this.state.products[p.id as string] = p;
    return p;
  }

  private createPrice(f: Form): Obj {
    const amount = int(f.unit_amount);
    if (amount === undefined || amount < 0) throw invalid("Missing required param: unit_amount.", "unit_amount");
    let product = str(f.product);
    if (!product && f.product_data) product = this.createProduct({ name: (f.product_data as Form).name ?? "" }).id as string;
    if (!product) throw invalid("Missing required param: product.", "product");
    this.get("products", "product", product);
    const lookup = str(f.lookup_key) ?? null;
    if (lookup) {
      for (const p of Object.values(this.state.prices)) {
        if (p.lookup_key === lookup) {
          if (bool(f.transfer_lookup_key)) p.lookup_key = null;
          else throw invalid(`A price (\`${String(p.id)}\`) already uses that lookup key.`, "lookup_key");
        }
      }
    }
    const recurring = f.recurring as Form | undefined;
    const p: Obj = {
      id: this.id("price"), object: "price", active: true, billing_scheme: "per_unit", created: now(), currency: (str(f.currency) ?? "usd").toLowerCase(), custom_unit_amount: null, livemode: false,
      lookup_key: lookup, metadata: meta(f.metadata), nickname: str(f.nickname) ?? null, product,
      recurring: recurring ? { interval: str(recurring.interval) ?? "month", interval_count: int(recurring.interval_count) ?? 1, meter: null, trial_period_days: null, usage_type: "licensed" } : null,
      tax_behavior: "unspecified", tiers_mode: null, transform_quantity: null, type: recurring ? "recurring" : "one_time", unit_amount: amount, unit_amount_decimal: String(amount),
    };
    this.state.prices[p.id as string] = p;
    return p;
  }

  private listPrices(f: Form): Obj {
    const keys = Array.isArray(f.lookup_keys) ? f.lookup_keys.filter((k): k is string => typeof k === "string") : null;
    const rows = Object.values(this.state.prices).filter((p) => (!keys || keys.includes(String(p.lookup_key))) && (bool(f.active) === undefined || p.active === bool(f.active)));
    return list(rows, "/v1/prices");
  }

  // ───────────── subscriptions and invoices ─────────────

  private chargeDefault(customer: Obj, amount: number, explicitPm: string | null): Obj | null {
    if (amount <= 0) return null;
    const pmId = explicitPm ?? ((customer.invoice_settings as Obj).default_payment_method as string | null);
    if (!pmId) throw invalid("This customer has no attached payment source or default payment method. Please consider adding a default payment method.");
    const pm = this.get("paymentMethods", "PaymentMethod", pmId);
    const b = this.behaviour(pm);
    if (b !== "ok") {
      const reason = b === "3ds" ? DECLINES.auth : b === "insufficient" ? DECLINES.insufficient : DECLINES.decline;
      throw new StripeError(402, { type: "card_error", code: reason.code, decline_code: reason.decline_code, message: reason.message });
    }
    return pm;
  }

  /** An invoice of `amount`, paid (`invoice.paid`), or with `failed` open and unpaid after a declined charge (`invoice.payment_failed`). */
  private invoice(sub: Obj, amount: number, reason: string, lines: Obj[], request: { id: string; key: string | null }, failed = false): Obj {
    const id = this.id("in");
    const t = this.at(sub.customer);
    const customer = this.state.customers[String(sub.customer)]!;
    const inv: Obj = {
      id, object: "invoice", account_country: "US", account_name: "Todo Service (local stand-in)", amount_due: amount, amount_overpaid: 0, amount_paid: failed ? 0 : amount, amount_remaining: failed ? amount : 0,
      amount_shipping: 0, attempt_count: amount > 0 ? 1 : 0, attempted: amount > 0, auto_advance: false, automatic_tax: { enabled: false, liability: null, status: null }, billing_reason: reason,
      collection_method: "charge_automatically", created: t, currency: sub.currency, customer: sub.customer, customer_email: customer.email ?? null, customer_name: customer.name ?? null,
      description: null, hosted_invoice_url: `${this.url}/test-mode/invoices/${id}`, invoice_pdf: `${this.url}/test-mode/invoices/${id}/pdf`, lines: list(lines, `/v1/invoices/${id}/lines`),
      livemode: false, metadata: {}, number: `${String(customer.invoice_prefix)}-${String(Object.keys(this.state.invoices).length + 1).padStart(4, "0")}`,
      parent: { quote_details: null, subscription_details: { metadata: sub.metadata, subscription: sub.id }, type: "subscription_details" },
      period_end: t, period_start: t, status: failed ? "open" : "paid", status_transitions: { finalized_at: t, marked_uncollectible_at: null, paid_at: failed ? null : t, voided_at: null }, subtotal: amount, total: amount,
    };
    this.state.invoices[id] = inv;
    this.emit(failed ? "invoice.payment_failed" : "invoice.paid", inv, undefined, request);
    return inv;
  }

  private line(sub: Obj, price: Obj, amount: number, description: string, start: number, end: number, proration: boolean): Obj {
    return {
      id: this.id("il"), object: "line_item", amount, currency: sub.currency, description, discountable: true, livemode: false, metadata: {},
      parent: { invoice_item_details: null, subscription_item_details: { invoice_item: null, proration, proration_details: { credited_items: null }, subscription: sub.id, subscription_item: ((sub.items as Obj).data as Obj[])[0]?.id ?? null }, type: "subscription_item_details" },
      period: { end, start }, pricing: { price_details: { price: price.id, product: price.product }, type: "price_details", unit_amount_decimal: String(price.unit_amount) }, quantity: 1,
    };
  }

  private createSubscription(f: Form, request: { id: string; key: string | null }): Obj {
    const customer = this.get("customers", "customer", str(f.customer) ?? "");
    const items = Array.isArray(f.items) ? (f.items as Form[]) : [];
    if (items.length !== 1 || !str(items[0]!.price)) throw invalid("The stand-in supports exactly one item with a price.", "items");
    const price = this.get("prices", "price", str(items[0]!.price)!);
    if (!price.recurring) throw invalid("The price specified is set to `type=one_time` but this field only accepts prices with `type=recurring`.", "items[0][price]");
    const pm = str(f.default_payment_method) ?? null;
    if (pm && this.get("paymentMethods", "PaymentMethod", pm).customer !== customer.id) throw invalid("The customer does not have a payment method with the ID given.", "default_payment_method");
    this.chargeDefault(customer, Number(price.unit_amount), pm);
    const t = this.at(customer.id);
    const end = addMonth(t);
    const id = this.id("sub");
    const sub: Obj = {
      id, object: "subscription", application: null, automatic_tax: { disabled_reason: null, enabled: false, liability: null }, billing_cycle_anchor: t, billing_mode: { type: "flexible" },
      cancel_at: null, cancel_at_period_end: false, canceled_at: null, cancellation_details: { comment: null, feedback: null, reason: null }, collection_method: "charge_automatically",
      created: t, currency: price.currency, customer: customer.id, days_until_due: null, default_payment_method: pm, description: null, discounts: [], ended_at: null,
      items: list([{ id: this.id("si"), object: "subscription_item", created: t, current_period_end: end, current_period_start: t, discounts: [], metadata: {}, price: structuredClone(price), quantity: 1, subscription: id, tax_rates: [] }], `/v1/subscription_items?subscription=${id}`),
      latest_invoice: null, livemode: false, metadata: meta(f.metadata), pending_update: null, start_date: t, status: "active", test_clock: null, trial_end: null, trial_start: null,
    };
    this.state.subscriptions[id] = sub;
    const inv = this.invoice(sub, Number(price.unit_amount), "subscription_create", [this.line(sub, price, Number(price.unit_amount), `1 × ${String(this.state.products[String(price.product)]?.name ?? "plan")} (at ${Number(price.unit_amount) / 100} / month)`, t, end, false)], request);
    sub.latest_invoice = inv.id;
    this.emit("customer.subscription.created", sub, undefined, request);
    return sub;
  }

  private updateSubscription(id: string, f: Form, request: { id: string; key: string | null }): Obj {
    const sub = this.get("subscriptions", "subscription", id);
    if (sub.status === "canceled") throw invalid("A canceled subscription can only update its cancellation_details and metadata.");
    const previous: Obj = {};
    const item = ((sub.items as Obj).data as Obj[])[0]!;
    const items = Array.isArray(f.items) ? (f.items as Form[]) : [];
    if (items.length > 0) {
      const change = items[0]!;
      if (str(change.id) && str(change.id) !== item.id) throw invalid(`Invalid subscription_item id: ${str(change.id)}`, "items[0][id]");
      const price = this.get("prices", "price", str(change.price) ?? "");
      const old = item.price as Obj;
      if (price.id !== old.id) {
        const t = this.at(sub.customer);
        const start = Number(item.current_period_start);
        const end = Number(item.current_period_end);
        const left = Math.max(0, Math.min(1, (end - t) / Math.max(1, end - start)));
        const behaviour = str(f.proration_behavior) ?? "create_prorations";
        const unused = -Math.round(Number(old.unit_amount) * left);
        const remaining = Math.round(Number(price.unit_amount) * left);
        const due = behaviour === "none" ? 0 : unused + remaining;
        const customer = this.state.customers[String(sub.customer)]!;
        const charged = behaviour === "always_invoice" ? Math.max(0, due + Number(customer.balance)) : 0;
        if (charged > 0) this.chargeDefault(customer, charged, (sub.default_payment_method as string | null) ?? null);
        previous.items = structuredClone(sub.items);
        item.price = structuredClone(price);
        if (behaviour === "always_invoice") {
          // What the proration does not charge (a downgrade) is credit on the customer's balance, for the next invoice.
          customer.balance = Math.min(0, due + Number(customer.balance));
          const inv = this.invoice(sub, charged, "subscription_update", [this.line(sub, old, unused, `Unused time on ${String(old.lookup_key ?? old.id)}`, t, end, true), this.line(sub, price, remaining, `Remaining time on ${String(price.lookup_key ?? price.id)}`, t, end, true)], request);
          sub.latest_invoice = inv.id;
        }
      }
    }
    const cape = bool(f.cancel_at_period_end);
    if (cape !== undefined && cape !== sub.cancel_at_period_end) {
      previous.cancel_at_period_end = sub.cancel_at_period_end;
      previous.cancel_at = sub.cancel_at;
      sub.cancel_at_period_end = cape;
      sub.cancel_at = cape ? item.current_period_end : null;
      sub.canceled_at = cape ? this.at(sub.customer) : null;
    }
    if (str(f.default_payment_method) !== undefined) {
      const pm = str(f.default_payment_method) || null;
      if (pm && this.get("paymentMethods", "PaymentMethod", pm).customer !== sub.customer) throw invalid("The customer does not have a payment method with the ID given.", "default_payment_method");
      if (pm !== sub.default_payment_method) {
        previous.default_payment_method = sub.default_payment_method;
        sub.default_payment_method = pm;
      }
    }
    if (f.metadata) {
      previous.metadata = sub.metadata;
      sub.metadata = { ...(sub.metadata as Obj), ...meta(f.metadata) };
    }
    if (Object.keys(previous).length > 0) this.emit("customer.subscription.updated", sub, previous, request);
    return sub;
  }

  // ───────────── test clocks ─────────────

  private createTestClock(f: Form): Obj {
    const frozen = int(f.frozen_time);
    if (frozen === undefined) throw invalid("Missing required param: frozen_time.", "frozen_time");
    const t = now();
    const clock: Obj = {
      id: this.id("clock"), object: "test_helpers.test_clock", created: t, deletes_after: t + 30 * 86_400, frozen_time: frozen, livemode: false, name: str(f.name) ?? null, status: "ready", status_details: {},
    };
    this.state.testClocks[clock.id as string] = clock;
    return clock;
  }

  /** Like Stripe: deleting a clock deletes its customers (and so cancels their subscriptions). */
  private deleteTestClock(id: string, request: { id: string; key: string | null }): Obj {
    this.get("testClocks", "test_clock", id);
    for (const c of Object.values(this.state.customers)) if (c.test_clock === id) this.deleteCustomer(c.id as string, request);
    delete this.state.testClocks[id];
    return { id, object: "test_helpers.test_clock", deleted: true };
  }

  /**
   * Moves a clock forward and runs what Stripe runs in between, period by period: a subscription
   * set to cancel at period end ends (`customer.subscription.deleted`); any other active one is
   * renewed: an invoice for the next period charged to the default card (`invoice.paid`), then the
   * next period (`customer.subscription.updated`). A declined renewal leaves it `past_due`
   * (`invoice.payment_failed`). Stripe answers `advancing` and finishes in the background; here the
   * work is done before the answer, so the next read of the clock finds it `ready`.
   */
  private advanceTestClock(id: string, f: Form, request: { id: string; key: string | null }): Obj {
    const clock = this.get("testClocks", "test_clock", id);
    const target = int(f.frozen_time);
    if (target === undefined) throw invalid("Missing required param: frozen_time.", "frozen_time");
    if (target <= Number(clock.frozen_time)) throw invalid("The frozen time must be after the current frozen time of the test clock.", "frozen_time");
    const customers = new Set(Object.values(this.state.customers).filter((c) => c.test_clock === id).map((c) => c.id));
    const subs = Object.values(this.state.subscriptions).filter((sub) => customers.has(sub.customer));
    for (let guard = 0; guard < 120; guard++) {
      // The next period end among this clock's live subscriptions, in order of time.
      const due = subs
        .filter((sub) => ["active", "trialing"].includes(String(sub.status)))
        .map((sub) => ({ sub, end: Number((((sub.items as Obj).data as Obj[])[0] as Obj).current_period_end) }))
        .filter((x) => x.end <= target)
        .sort((a, b) => a.end - b.end)[0];
      if (!due) break;
      clock.frozen_time = due.end;
      this.endPeriod(due.sub, request);
    }
    clock.frozen_time = target;
    clock.status = "ready";
    this.emit("test_helpers.test_clock.ready", clock, undefined, request, target);
    return { ...clock, status: "advancing", status_details: { advancing: { target_frozen_time: target } } };
  }

  private endPeriod(sub: Obj, request: { id: string; key: string | null }): void {
    const item = ((sub.items as Obj).data as Obj[])[0]!;
    const end = Number(item.current_period_end);
    if (sub.cancel_at_period_end) {
      sub.status = "canceled";
      sub.ended_at = end;
      this.emit("customer.subscription.deleted", sub, undefined, request);
      return;
    }
    const price = item.price as Obj;
    const next = addMonth(end);
    const amount = Number(price.unit_amount);
    const customer = this.state.customers[String(sub.customer)]!;
    const previous = { items: structuredClone(sub.items), latest_invoice: sub.latest_invoice };
    // A balance left by a downgrade pays first, as on Stripe.
    const due = Math.max(0, amount + Number(customer.balance));
    const lines = [this.line(sub, price, amount, `1 × ${String(this.state.products[String(price.product)]?.name ?? "plan")} (at ${amount / 100} / month)`, end, next, false)];
    try {
      this.chargeDefault(customer, due, (sub.default_payment_method as string | null) ?? null);
    } catch (e) {
      if (!(e instanceof StripeError)) throw e;
      const inv = this.invoice(sub, due, "subscription_cycle", lines, request, true);
      sub.status = "past_due";
      sub.latest_invoice = inv.id;
      this.emit("customer.subscription.updated", sub, { status: "active", latest_invoice: previous.latest_invoice }, request);
      return;
    }
    customer.balance = Math.min(0, amount + Number(customer.balance));
    item.current_period_start = end;
    item.current_period_end = next;
    const inv = this.invoice(sub, due, "subscription_cycle", lines, request);
    sub.latest_invoice = inv.id;
    this.emit("customer.subscription.updated", sub, previous, request);
  }

  private cancelSubscription(id: string, request: { id: string; key: string | null }): Obj {
    const sub = this.get("subscriptions", "subscription", id);
    if (sub.status === "canceled") throw invalid(`No such subscription: '${id}'`);
    const t = this.at(sub.customer);
    sub.status = "canceled";
    sub.canceled_at = t;
    sub.ended_at = t;
    this.emit("customer.subscription.deleted", sub, undefined, request);
    return sub;
  }
}

/** The API version the installed SDK pins (its requests name it in `Stripe-Version`). */
export const API_VERSION = "2026-10-28.endive";
