"use client";

import Link from "next/link";
import { useState } from "react";
import { call } from "@/lib/api/client";
import { useOperation } from "@/lib/api/swr";
import { errorMessage } from "@/lib/ui/form-issues";
import { cloudSizeText, formatDateTime } from "@/lib/ui/format";
import { ErrorAlert } from "@/components/ui/error-alert";
import { LoadError, Loading } from "@/components/ui/load-state";
import settingsStyles from "@/components/settings/settings.module.css";

/** How often device_cloud is read while the device boots. */
const BOOT_POLL_MS = 1000;

/**
 * The hosted cloud device the user's plan includes (device_cloud, device_resyncCloud): what the
 * plan gives, the device once it runs, Start (which boots one sized by the plan, or replaces one
 * of another size after a plan change), and on a plan without one, which plans include it.
 */
export function CloudDevice() {
  const plans = useOperation("billing_getSubscriptionPlans", {});
  const [booting, setBooting] = useState(false);
  const device = useOperation("device_cloud", {}, { refreshInterval: (alive) => (booting && !alive ? BOOT_POLL_MS : 0) });
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const alive = device.data ?? null;
  if (booting && alive) setBooting(false);

  async function start() {
    setBusy(true);
    setError(null);
    try {
      const started = await call("device_resyncCloud", { body: {} });
      if (started) await device.mutate(started, { revalidate: false });
      else setBooting(true);
    } catch (err) {
      setError(errorMessage(err));
      void plans.mutate();
    } finally {
      setBusy(false);
    }
  }

  const current = plans.data?.plans.find((p) => p.current);
  const included = current?.cloudDevice ?? null;
  const offering = plans.data?.plans.filter((p) => p.cloudDevice) ?? [];

  return (
    <section className="card" aria-labelledby="cloud-heading" data-testid="cloud-device">
      <h2 id="cloud-heading" className={settingsStyles.sectionTitle}>
        Cloud device
      </h2>
      {plans.error ? (
        <LoadError what="your plan" message={plans.error.message} onRetry={() => void plans.mutate()} inline />
      ) : device.error ? (
        <LoadError what="your cloud device" message={device.error.message} onRetry={() => void device.mutate()} inline />
      ) : !plans.data || device.data === undefined || !current ? (
        <Loading label="Loading your cloud device…" inline lines={2} />
      ) : !included ? (
        <p data-testid="cloud-none">
          Your {current.name} plan includes no cloud device: a hosted machine the agent can run shell commands on, with no bridge of your own.{" "}
          {offering.map((p, i) => (
            <span key={p.tier}>
              {i === 0 ? "" : i === offering.length - 1 ? " and " : ", "}
              {p.name} includes a {p.cloudDevice!.size} one ({cloudSizeText(p.cloudDevice!)})
            </span>
          ))}
          . <Link href="/billing">Compare plans</Link>
        </p>
      ) : alive && alive.cloud ? (
        <p data-testid="cloud-alive">
          <strong>{alive.name}</strong> — {alive.online ? "online" : "offline"} · {alive.cloud.size}: {cloudSizeText(alive.cloud)} · started {formatDateTime(alive.createdAt)}
        </p>
      ) : (
        <>
          <p data-testid="cloud-startable">
            Your {current.name} plan includes a {included.size} cloud device ({cloudSizeText(included)}): a hosted machine the agent can run shell commands on, with no bridge of your own.
          </p>
          <p>
            <button type="button" onClick={() => void start()} disabled={busy || booting} aria-busy={busy || booting}>
              {booting ? "Starting…" : "Start the cloud device"}
            </button>{" "}
            {booting ? (
              <span role="status" className="muted">
                Booting: this takes a few seconds.
              </span>
            ) : null}
          </p>
        </>
      )}
      <ErrorAlert message={error} />
    </section>
  );
}
