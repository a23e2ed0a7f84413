import type { z } from "zod";
import type { ZAddMessageInput, ZUpdateMessageInput } from "@/lib/schemas/todos";
import { issueMessages as messagesOf } from "@/lib/ui/form-issues";

// Forms validate with the API's own schemas (lib/schemas), plus the one rule the API leaves to
// the caller: a time picked for a scheduled message must be in the future (the API would treat a
// past instant as "now"). The schemas (and zod with them) load with the first send, not with the
// page: the todo page shows its content without them (bench/page.ts).
const schemas = () => import("@/lib/schemas/todos");

const FIELD = { content: "Message", scheduledAt: "Time" };

/** `Message: must not be empty`: the chat forms list one issue a line. */
export function issueMessages(error: z.ZodError): string[] {
  return messagesOf(error.issues, FIELD, ": ");
}

/** `YYYY-MM-DDTHH:mm` in local time, as a `datetime-local` input shows it. */
export function toLocalInput(ms: number): string {
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** The instant a `datetime-local` value names (local time), or null if it names none. */
export function fromLocalInput(value: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/.test(value)) return null;
  const ms = new Date(value).getTime();
  return Number.isNaN(ms) ? null : ms;
}

/** A picked time (a `datetime-local` value) as an instant in the future, or why it is not one (named `label`). */
export function futureIssue(when: string, label = "Time"): { ms: number | null; issue: string | null } {
  if (!when) return { ms: null, issue: `${label}: pick a date and time` };
  const ms = fromLocalInput(when);
  if (ms === null) return { ms, issue: `${label}: not a valid date and time` };
  if (ms <= Date.now()) return { ms, issue: `${label}: must be in the future` };
  return { ms, issue: null };
}

type Result<T> = { ok: true; value: T } | { ok: false; issues: string[] };

export async function validateNewMessage(content: string, when?: string): Promise<Result<z.infer<typeof ZAddMessageInput>>> {
  const { ZAddMessageInput } = await schemas();
  const time = when === undefined ? null : futureIssue(when);
  const parsed = ZAddMessageInput.safeParse({ content, startProcessing: true, ...(time?.ms != null ? { scheduledAt: time.ms } : {}) });
  const issues = [...(parsed.success ? [] : issueMessages(parsed.error)), ...(time?.issue ? [time.issue] : [])];
  return parsed.success && issues.length === 0 ? { ok: true, value: parsed.data } : { ok: false, issues };
}

export async function validateMessageEdit(content: string, when: string): Promise<Result<z.infer<typeof ZUpdateMessageInput>>> {
  const { ZUpdateMessageInput } = await schemas();
  const time = futureIssue(when);
  const parsed = ZUpdateMessageInput.safeParse({ content, ...(time.ms !== null ? { scheduledAt: time.ms } : {}) });
  const issues = [...(parsed.success ? [] : issueMessages(parsed.error)), ...(time.issue ? [time.issue] : [])];
  return parsed.success && issues.length === 0 ? { ok: true, value: parsed.data } : { ok: false, issues };
}
