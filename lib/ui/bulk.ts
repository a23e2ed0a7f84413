import { truncate } from "./format.ts";

// One change applied to many objects from a page (the project list's selected todos): the API has
// one operation per object, so this sends them a few at a time, reports progress, waits out a rate
// limit (429 with `data.retryAfter`) instead of failing the rest, and stops early when asked.

/** What became of each item: done, failed with a message, or not tried (stopped first). */
export type BulkOutcome<T> = { done: T[]; failed: { item: T; message: string }[]; skipped: T[] };

export type BulkProgress = { finished: number; total: number; /** Seconds left of a rate limit being waited out. */ waiting?: number };

export type BulkOptions = {
  /** Requests in flight at once. */
  concurrency?: number;
  onProgress?(p: BulkProgress): void;
  /** Aborting stops new requests; those in flight finish. */
  signal?: AbortSignal;
  /** How often one item is sent again after a 429 before it counts as failed. */
  retries?: number;
  /** Waits `ms` (a test passes its own clock); resolves early when the signal aborts. */
  sleep?(ms: number, signal?: AbortSignal): Promise<void>;
};

/** The seconds a rate-limit refusal asks to wait, or null when the error is something else. */
export function retryAfterOf(err: unknown): number | null {
  const e = err as { code?: unknown; status?: unknown; data?: { retryAfter?: unknown } } | null;
  if (!e || (e.code !== "TOO_MANY_REQUESTS" && e.status !== 429)) return null;
  const s = Number(e.data?.retryAfter);
  return Number.isFinite(s) && s > 0 ? Math.min(s, 120) : 1;
}

function sleepFor(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}

/**
 * Runs `fn` over `items`, `concurrency` at a time. A rate-limited item pauses every worker for the
 * time the server asked (shown as `waiting`) and is sent again; any other error fails that item
 * only, with `describe(err)` as its message.
 */
export async function runBulk<T>(items: readonly T[], fn: (item: T) => Promise<unknown>, describe: (err: unknown) => string, opts: BulkOptions = {}): Promise<BulkOutcome<T>> {
  const { concurrency = 4, onProgress, signal, retries = 3, sleep = sleepFor } = opts;
  const out: BulkOutcome<T> = { done: [], failed: [], skipped: [] };
  const total = items.length;
  let next = 0;
  let finished = 0;
  // While a rate limit is waited out, every worker waits on the same promise before its next send.
  let pause: Promise<void> | null = null;
  const report = (waiting?: number) => onProgress?.({ finished, total, ...(waiting ? { waiting } : {}) });

  async function waitOut(seconds: number) {
    if (!pause) {
      pause = (async () => {
        for (let left = Math.ceil(seconds); left > 0 && !signal?.aborted; left--) {
          report(left);
          await sleep(1000, signal);
        }
        report();
      })().finally(() => {
        pause = null;
      });
    }
    await pause;
  }

  async function worker() {
    while (next < total) {
      if (pause) await pause;
      if (signal?.aborted) return;
      const item = items[next++]!;
      for (let attempt = 0; ; attempt++) {
        try {
          await fn(item);
          out.done.push(item);
          break;
        } catch (err) {
          const wait = retryAfterOf(err);
          if (wait !== null && attempt < retries && !signal?.aborted) {
            await waitOut(wait);
            if (!signal?.aborted) continue;
            // Stopped while waiting: this one was never changed.
            out.skipped.push(item);
            break;
          }
          out.failed.push({ item, message: describe(err) });
          break;
        }
      }
      finished++;
      report();
    }
  }

  report();
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, total)) }, worker));
  out.skipped.push(...items.slice(next));
  return out;
}

/** The changes the project list makes to its selected todos. */
export type BulkAction = "start" | "complete" | "move" | "delete";
export const BULK_VERB: Record<BulkAction, { doing: string; done: string }> = {
  start: { doing: "Starting the agent on", done: "started" },
  complete: { doing: "Marking done", done: "marked done" },
  move: { doing: "Moving", done: "moved" },
  delete: { doing: "Deleting", done: "deleted" },
};

export const countTodos = (n: number) => `${n} todo${n === 1 ? "" : "s"}`;

/**
 * What a bulk change came to, in one line: how many changed (`where` they went), and the first
 * failure with its reason; null when nothing was tried.
 */
export function bulkSummary(action: BulkAction, out: BulkOutcome<{ content: string }>, where?: string): { ok: boolean; text: string } | null {
  const parts: string[] = [];
  const verb = BULK_VERB[action].done;
  if (out.done.length) parts.push(`${countTodos(out.done.length)} ${verb}${where ? ` ${where}` : ""}.`);
  if (out.failed.length) {
    const first = out.failed[0]!;
    const more = out.failed.length > 1 ? ` (and ${out.failed.length - 1} more)` : "";
    parts.push(`${countTodos(out.failed.length)} could not be ${verb}: “${truncate(first.item.content, 40)}”: ${first.message}${more}. They stay selected.`);
  }
  if (out.skipped.length) parts.push(`Stopped: ${countTodos(out.skipped.length)} left as ${out.skipped.length === 1 ? "it was" : "they were"}.`);
  return parts.length ? { ok: out.failed.length === 0, text: parts.join(" ") } : null;
}
