import type { RealtimeStatus } from "@/lib/realtime-client";

const LIVE_TEXT: Record<RealtimeStatus, string> = { connecting: "Connecting…", live: "Live", offline: "Offline, reconnecting…" };

/** Whether a page's live updates arrive (useRealtime's status), as the project page and the share page show it. */
export function LiveStatus({ live }: { live: RealtimeStatus }) {
  return (
    <span className={`live live-${live}`} data-testid="live-status" aria-live="polite">
      {LIVE_TEXT[live]}
    </span>
  );
}
