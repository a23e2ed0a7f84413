import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createHmac, timingSafeEqual } from "node:crypto";
import Stripe from "stripe";
import { setLogLevel } from "../log.ts";
import { ApiError } from "./errors.ts";
import { CLIENT_IP_HEADER } from "./client-ip.ts";
import { RateLimits } from "./rate-limit.ts";
import { defineRawRoute } from "./raw-route.ts";

// What the billing issue's Stripe webhook will be: a route handler file exporting
// `POST = defineRawRoute(...)` whose handler checks the signature over the exact bytes.

const SECRET = "whsec_test_secret";
const stripe = new Stripe("sk_test_unused");

// Whitespace, key order and non-ASCII text that JSON.parse + JSON.stringify would not keep.
const PAYLOAD = '{\n  "id": "evt_1",  "object": "event",\n  "type": "payment_intent.succeeded",\n  "data": {"object": {"id": "pi_1", "amount": 1000, "description": "Caf\\u00e9 \u2615"}}\n}';

function webhook(limits?: RateLimits) {
  const seen: string[] = [];
  const route = defineRawRoute(
    {
      id: "stripe_webhook",
      rateLimit: "webhook",
      handler: async (rawBody, request) => {
        let event: Stripe.Event;
        try {
          event = stripe.webhooks.constructEvent(rawBody, request.headers.get("stripe-signature") ?? "", SECRET);
        } catch {
          throw new ApiError("BAD_REQUEST", "Invalid signature");
        }
        seen.push(event.id);
        return { received: true };
      },
    },
    { limits: () => limits },
  );
  return { route, seen };
}

function post(body: string, headers: Record<string, string> = {}): Request {
  return new Request("http://app.test/webhooks/stripe", { method: "POST", headers: { "content-type": "application/json", [CLIENT_IP_HEADER]: "203.0.113.9", ...headers }, body });
}

before(() => setLogLevel("silent"));

describe("defineRawRoute", () => {
  test("a Stripe signature over the exact bytes verifies; the same event re-serialized does not", async () => {
    const { route, seen } = webhook();
    const signature = stripe.webhooks.generateTestHeaderString({ payload: PAYLOAD, secret: SECRET });
    const ok = await route(post(PAYLOAD, { "stripe-signature": signature, "x-request-id": "req-1" }));
    assert.equal(ok.status, 200);
    assert.deepEqual(await ok.json(), { received: true });
    assert.equal(ok.headers.get("x-request-id"), "req-1");
    assert.deepEqual(seen, ["evt_1"]);

    // What a JSON-parsing pipeline would hand on: equal data, other bytes, a failed check.
    const reserialized = JSON.stringify(JSON.parse(PAYLOAD));
    const refused = await route(post(reserialized, { "stripe-signature": signature }));
    assert.equal(refused.status, 400);
    const body = await refused.json();
    assert.deepEqual(body, { message: "Invalid signature", code: "BAD_REQUEST" });
    assert.ok(refused.headers.get("x-request-id"));
    assert.deepEqual(seen, ["evt_1"]);
  });

  test("a plain HMAC-SHA256 over the raw text (other providers) sees the bytes as sent", async () => {
    const route = defineRawRoute(
      {
        id: "hmac_webhook",
        rateLimit: "webhook",
        handler: async (rawBody, request, ctx) => {
          const expected = createHmac("sha256", SECRET).update(rawBody).digest();
          const given = Buffer.from(request.headers.get("x-signature") ?? "", "hex");
          if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new ApiError("BAD_REQUEST", "Invalid signature");
          assert.equal(ctx.bytes.toString("utf8"), rawBody);
          return new Response(null, { status: 204 });
        },
      },
      { limits: () => undefined },
    );
    const sig = createHmac("sha256", SECRET).update(PAYLOAD).digest("hex");
    const ok = await route(post(PAYLOAD, { "x-signature": sig }));
    assert.equal(ok.status, 204);
    assert.ok(ok.headers.get("x-request-id"), "the handler's own Response gets the request id");
    assert.equal((await route(post(`${PAYLOAD} `, { "x-signature": sig }))).status, 400);
  });

  test("the rate limit applies per client IP, in the error shape with Retry-After", async () => {
    const limits = new RateLimits({ overrides: { webhook: { points: 2, window: 60 } } });
    const { route, seen } = webhook(limits);
    const signature = stripe.webhooks.generateTestHeaderString({ payload: PAYLOAD, secret: SECRET });
    const first = await route(post(PAYLOAD, { "stripe-signature": signature }));
    assert.equal(first.status, 200);
    assert.match(first.headers.get("ratelimit") ?? "", /^"webhook";r=1;t=\d+$/);
    assert.equal((await route(post(PAYLOAD, { "stripe-signature": signature }))).status, 200);
    const over = await route(post(PAYLOAD, { "stripe-signature": signature }));
    assert.equal(over.status, 429);
    assert.equal((await over.json()).code, "TOO_MANY_REQUESTS");
    assert.ok(Number(over.headers.get("retry-after")) >= 1);
    assert.equal(seen.length, 2, "the refused request never reached the handler");
    const otherIp = await route(post(PAYLOAD, { "stripe-signature": signature, [CLIENT_IP_HEADER]: "198.51.100.7" }));
    assert.equal(otherIp.status, 200);
  });

  test("a body over the limit is 413 and the handler never runs", async () => {
    let ran = false;
    const route = defineRawRoute(
      {
        id: "small",
        rateLimit: "webhook",
        maxBytes: 16,
        handler: async () => {
          ran = true;
          return null;
        },
      },
      { limits: () => undefined },
    );
    const res = await route(post("x".repeat(17)));
    assert.equal(res.status, 413);
    assert.equal((await res.json()).code, "PAYLOAD_TOO_LARGE");
    assert.equal(ran, false);
    assert.equal((await route(post("x".repeat(16)))).status, 200);
  });

  test("an unexpected error is a generic 500 that reveals nothing", async () => {
    const route = defineRawRoute(
      {
        id: "broken",
        rateLimit: "webhook",
        handler: async () => {
          throw new Error("secret sk_live_123 leaked in a message");
        },
      },
      { limits: () => undefined },
    );
    const res = await route(post("{}", { "x-request-id": "req-500" }));
    assert.equal(res.status, 500);
    const text = await res.text();
    assert.deepEqual(JSON.parse(text), { message: "Internal server error", code: "INTERNAL_SERVER_ERROR" });
    assert.doesNotMatch(text, /sk_live/);
    assert.equal(res.headers.get("x-request-id"), "req-500");
  });
});
