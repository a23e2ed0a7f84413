"use client";

// Real Stripe (STRIPE_SECRET_KEY set): the card form is Stripe Elements and 3-D Secure runs in
// Stripe.js, so card numbers never touch this server. Loaded lazily by the billing page, and only
// with a publishable key: test mode (the local stand-in) never fetches Stripe.js.
import { useEffect, useState, type FormEvent } from "react";
import { loadStripe, type Stripe } from "@stripe/stripe-js";
import { Elements, PaymentElement, useElements, useStripe } from "@stripe/react-stripe-js";
import { call } from "@/lib/api/client";
import { errorMessage } from "@/lib/ui/form-issues";
import { ErrorAlert } from "@/components/ui/error-alert";
import { Loading } from "@/components/ui/load-state";

const loaded = new Map<string, Promise<Stripe | null>>();
function stripeFor(publishableKey: string): Promise<Stripe | null> {
  let p = loaded.get(publishableKey);
  if (!p) loaded.set(publishableKey, (p = loadStripe(publishableKey)));
  return p;
}

/** Finishes a payment Stripe holds for authentication (3-D Secure): null when it succeeded, else why not. */
export async function authenticatePayment(publishableKey: string, clientSecret: string): Promise<string | null> {
  const stripe = await stripeFor(publishableKey);
  if (!stripe) return "Stripe could not be loaded; check your connection and try again.";
  const { error, paymentIntent } = await stripe.handleNextAction({ clientSecret });
  if (error) return error.message ?? "Your bank did not confirm the payment; nothing was charged.";
  return paymentIntent?.status === "succeeded" || paymentIntent?.status === "processing" ? null : `The payment is ${paymentIntent?.status ?? "not confirmed"}.`;
}

/**
 * Saves a card through a SetupIntent confirmed by Stripe Elements (with 3-D Secure when the bank
 * asks); `onSaved` runs once Stripe has attached it (the list gets it from the webhook).
 */
export function StripeCardForm({ publishableKey, onSaved }: { publishableKey: string; onSaved: () => Promise<void> | void }) {
  const [clientSecret, setClientSecret] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    call("billing_setupPaymentMethod", { body: {} }).then(
      (si) => live && setClientSecret(si.clientSecret),
      (err: unknown) => live && setError(errorMessage(err)),
    );
    return () => {
      live = false;
    };
  }, []);
  if (error) return <ErrorAlert message={error} />;
  if (!clientSecret) return <Loading inline label="Loading the card form…" />;
  return (
    <Elements stripe={stripeFor(publishableKey)} options={{ clientSecret }}>
      <CardForm onSaved={onSaved} />
    </Elements>
  );
}

function CardForm({ onSaved }: { onSaved: () => Promise<void> | void }) {
  const stripe = useStripe();
  const elements = useElements();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!stripe || !elements) return;
    setBusy(true);
    setError(null);
    try {
      const { error: failed } = await stripe.confirmSetup({ elements, redirect: "if_required" });
      if (failed) return setError(failed.message ?? "The card could not be saved.");
      // Stripe attached the card to the customer; its payment_method.attached webhook saves it here.
      elements.getElement("payment")?.clear();
      await onSaved();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }
  return (
    <form onSubmit={submit} aria-label="Add a card">
      <PaymentElement />
      <button type="submit" disabled={!stripe || busy} style={{ marginTop: "0.75rem" }}>
        {busy ? "Saving…" : "Save card"}
      </button>
      <ErrorAlert message={error} />
    </form>
  );
}
