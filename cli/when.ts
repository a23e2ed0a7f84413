import { CliError, EXIT } from "./exit-codes.ts";

// `--at` for people: when a scheduled message or todo should run.

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
const EXAMPLES = 'e.g. "30m", "in 2h", "1d12h" or "2026-12-01T09:00" (local time; add Z or +01:00 for another zone)';

/**
 * Epoch ms from a duration after `now` (`30m`, `in 2h`, `1h30m`: s, m, h, d, w) or an ISO 8601
 * date-time (local unless it names a zone). A usage error for anything else, or for a time that
 * has passed.
 */
export function parseWhen(text: string, now = Date.now()): number {
  const input = text.trim();
  const relative = input.match(/^(?:in\s+)?((?:\d+\s*[smhdw]\s*)+)$/i);
  let at: number;
  if (relative) {
    at = now;
    for (const [, n, unit] of relative[1]!.matchAll(/(\d+)\s*([smhdw])/gi)) at += Number(n) * UNIT_MS[unit!.toLowerCase()]!;
  } else if (/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/i.test(input)) {
    // A date alone is midnight local time (Date.parse would take it as UTC).
    at = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(input) ? `${input}T00:00` : input.replace(" ", "T"));
  } else {
    throw new CliError(`Cannot read the time "${text}": ${EXAMPLES}.`, EXIT.USAGE);
  }
  if (!Number.isFinite(at)) throw new CliError(`No such time: "${text}" (${EXAMPLES}).`, EXIT.USAGE);
  if (at <= now) throw new CliError(`"${text}" is in the past (${new Date(at).toLocaleString()}).`, EXIT.USAGE);
  return at;
}
