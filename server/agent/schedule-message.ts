// Queues the job that fires a scheduled message at its time (kept apart from the job itself so the
// job registry and the services do not import each other).
import { enqueue } from "../jobs/enqueue.ts";
import { fireMessageJob } from "./fire-message-job.ts";

/** The dedupe key of the job for this message at this time: each scheduled time gets its own job. */
export const fireKey = (m: { id: string; scheduledAt: Date }) => `${m.id}@${+m.scheduledAt}`;

/**
 * Queues `message.fire` for the message's scheduled time (at once when that has passed). Safe to
 * call any number of times: the key adds one job per (message, time).
 */
export async function scheduleMessage(m: { id: string; scheduledAt: Date }): Promise<void> {
  const at = +m.scheduledAt;
  await enqueue(fireMessageJob, { messageId: m.id, at }, { delay: Math.max(at - Date.now(), 0), key: fireKey(m) });
}
