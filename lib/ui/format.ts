// Small display helpers shared by the browser UI (no React, no DOM).

/** "just now", "5 min ago", "3 h ago", "2 days ago", or a date for anything older than a week. */
export function formatRelative(ms: number, now: number = Date.now()): string {
  const diff = Math.max(0, now - ms);
  const min = Math.floor(diff / 60_000);
  if (min < 1) return "just now";
  if (min < 60) return `${min} min ago`;
  const h = Math.floor(min / 60);
  if (h < 24) return `${h} h ago`;
  const d = Math.floor(h / 24);
  if (d < 7) return d === 1 ? "yesterday" : `${d} days ago`;
  return new Date(ms).toLocaleDateString(undefined, { year: "numeric", month: "short", day: "numeric" });
}

/** When something is due: "due now" once past, "in 5 min", "in 3 h", then the date and time. */
export function formatDue(ms: number, now: number = Date.now()): string {
  const min = Math.ceil((ms - now) / 60_000);
  if (min <= 0) return "due now";
  if (min < 60) return `in ${min} min`;
  const h = Math.round(min / 60);
  if (h < 24) return `in ${h} h`;
  return formatDateTime(ms);
}

export function formatDateTime(ms: number): string {
  return new Date(ms).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

/** Integer cents as money: `$12.50` (en-US digits and symbols, as the billing page has always shown them). */
export function formatMoney(cents: number, currency = "usd"): string {
  return new Intl.NumberFormat("en-US", { style: "currency", currency: currency.toUpperCase() }).format(cents / 100);
}

export function truncate(text: string, max = 140): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`;
}

/** The path of a todo's chat; with a message, the chat opens at it (`?message=`). */
export function todoHref(projectId: string, todoId: string, messageId?: string | null): string {
  const base = `/projects/${encodeURIComponent(projectId)}/todos/${encodeURIComponent(todoId)}`;
  return messageId ? `${base}?message=${encodeURIComponent(messageId)}` : base;
}

/** A todo as a window's title names it: its first line, at most 60 characters. */
export function todoTitle(content: string): string {
  return truncate(content.split("\n", 1)[0] ?? "", 60);
}

/** A group slug made from a display name (`Next sprint!` → `next-sprint`); empty when nothing usable is left. */
export function slugify(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 64)
    .replace(/-+$/g, "");
}

/** Every UTC day (YYYY-MM-DD) from the day of `from` to the day of `to` (ms), oldest first: a chart's x axis, gaps included. */
export function utcDays(from: number, to: number): string[] {
  const DAY = 86_400_000;
  const days: string[] = [];
  for (let t = Math.floor(from / DAY) * DAY; t <= to && days.length < 400; t += DAY) days.push(new Date(t).toISOString().slice(0, 10));
  return days;
}

/** "1 turn", "2 turns". */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** A cloud device's size for people: "2 vCPUs, 4 GB memory, 20 GB disk". */
export function cloudSizeText(size: { vcpus: number; memoryMb: number; diskGb: number }): string {
  const memory = size.memoryMb % 1024 === 0 ? `${size.memoryMb / 1024} GB` : `${size.memoryMb} MB`;
  return `${plural(size.vcpus, "vCPU")}, ${memory} memory, ${size.diskGb} GB disk`;
}

/** What kind of model provider a configured one is, in words (the model pickers and `todo models`). */
export const PROVIDER_KIND_LABEL: Record<"local" | "openai" | "openai-compatible" | "anthropic", string> = {
  local: "built in, offline",
  openai: "OpenAI",
  "openai-compatible": "OpenAI-compatible",
  anthropic: "Anthropic",
};

/** What the service falls back to when a todo names no model: "built-in offline agent", or "openai · gpt-4.1-mini". */
export function defaultModelText(provider: { kind: keyof typeof PROVIDER_KIND_LABEL; name: string; defaultModel?: string | null }): string {
  return provider.kind === "local" ? "built-in offline agent" : [provider.name, provider.defaultModel].filter(Boolean).join(" · ");
}

/** Agent settings that run on `choice` (null: the service's default), keeping the rest (system prompt, temperature …). */
export function withModel<S extends { provider?: string; model?: string }>(settings: S | null, choice: { provider: string; model?: string } | null): Omit<S, "provider" | "model"> & { provider?: string; model?: string } {
  const { provider: _provider, model: _model, ...rest } = settings ?? ({} as S);
  if (!choice) return rest;
  return { ...rest, provider: choice.provider, ...(choice.model ? { model: choice.model } : {}) };
}
