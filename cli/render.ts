import type { OperationResult } from "../lib/api/types.ts";
import { todoTitle } from "../lib/ui/format.ts";
import { snippetParts } from "../lib/ui/snippet.ts";

// How `todo show` prints a todo's messages and blocks for people (--json prints the todo as served).

type Todo = OperationResult<"todo_get">;
type SearchPage = OperationResult<"todo_searchUnified">;
type MessageHits = OperationResult<"todo_searchMessages">;
export type MessageRole = MessageHits["items"][number]["role"];
type Pending = OperationResult<"task_getPending">;
type Block = Todo["messages"][number]["blocks"][number];

const str = (value: unknown): string | undefined => (typeof value === "string" && value.trim() !== "" ? value : undefined);

/** The todo's checklist items in chat order: `todo show` numbers them 1, 2, … and `todo check` takes the number. */
export function checklistOf(todo: Todo): Block[] {
  return todo.messages.flatMap((m) => m.blocks.filter((b) => b.type === "checklist_item" && b.actionable));
}

/** One block as one line, indented under its message. */
export function blockLine(block: Block, number?: number): string {
  const c = (block.content ?? {}) as Record<string, unknown>;
  if (block.type === "checklist_item") {
    const text = str(c.text) ?? "(no text)";
    const subs = block.subTodoIds.length ? `  → ${block.subTodoIds.join(", ")}` : "";
    return `  ${number !== undefined ? `${number}. ` : ""}[${block.checked ? "x" : " "}] ${text}${subs}`;
  }
  if (block.type === "tool_call") return `  · ${str(c.tool) ?? "tool"} (${str(c.state) ?? "?"})`;
  if (block.type === "shell") {
    const where = [str(c.deviceName), str(c.path)].filter(Boolean).join(":");
    const exit = typeof c.exitCode === "number" ? `, exit ${c.exitCode}` : "";
    return `  $ ${str(c.command) ?? "?"}${where ? `  [${where}]` : ""}  (${str(c.state) ?? "?"}${exit}; block ${block.id})`;
  }
  if (block.type === "show") {
    // A card is HTML for the browser; here its data, cut short, says what it showed.
    const data = JSON.stringify(c.data ?? null);
    const name = str(c.card) ?? "?";
    return `  ▦ ${str(c.title) ?? name} (card ${name}): ${data.length > 200 ? `${data.slice(0, 199)}…` : data}`;
  }
  return `  · ${block.type}${str(c.text) ? `: ${str(c.text)}` : ""}`;
}

/** The todo, its status and its conversation, each message followed by its blocks. */
export function todoText(todo: Todo): string {
  const numbers = new Map(checklistOf(todo).map((b, i) => [b.id, i + 1]));
  // The title as the chat shows it (its first line); the whole text is the first message below.
  // The model when the todo names one (`todo model` says what an unnamed one falls back to).
  const model = [todo.agentSettings?.provider, todo.agentSettings?.model].filter(Boolean).join(" · ");
  const lines = [todoTitle(todo.content), `status: ${todo.status}${model ? ` · model: ${model}` : ""}`, ""];
  for (const m of todo.messages) {
    const when = m.state === "SCHEDULED" && m.scheduledAt ? ` (scheduled for ${new Date(m.scheduledAt).toLocaleString()})` : m.state === "ERROR" ? " (error)" : "";
    // A message's further lines are indented under its first, so each message reads as one.
    lines.push(`[${m.role}]${when} ${m.content.replace(/\n/g, "\n  ")}`);
    for (const b of m.blocks) lines.push(blockLine(b, numbers.get(b.id)));
  }
  if (numbers.size) lines.push("", `Check an item: todo check ${todo.id} <number>`);
  return lines.join("\n");
}

/** The checklist item numbered `n` as `todo show` prints it (1-based), if the todo has one. */
export function checklistItemAt(todo: Todo, n: number): Block | undefined {
  return Number.isInteger(n) && n >= 1 ? checklistOf(todo)[n - 1] : undefined;
}

/** `todo search`: the todos with exact matches (the best snippet each), then the related items. */
export function searchText(page: SearchPage): string {
  const lines: string[] = [];
  for (const g of page.exact) {
    const matches = g.matchCount === 1 ? "1 match" : `${g.matchCount >= 100 ? "100+" : g.matchCount} matches`;
    lines.push(`${g.todoId}  ${g.todoStatus.padEnd(9)}  ${g.projectName} / ${oneLine(g.todoTitle, 70)}  (${matches})`);
    lines.push(`    ${oneLine(g.best.snippet.text, 100)}`);
  }
  if (page.related.length) {
    if (lines.length) lines.push("");
    lines.push("Related:");
    for (const r of page.related) lines.push(`${r.id}  ${r.kind.padEnd(4)}  ${oneLine(r.title, 80)}`);
  }
  return lines.join("\n") || "Nothing found.";
}

/**
 * `todo search --todo|--role`: one line per matching message (its id, author, time, and the todo
 * when several todos can match), then the snippet with its matched words in *stars*.
 */
export function messageHitsText(page: MessageHits, oneTodo: boolean): string {
  const lines: string[] = [];
  for (const hit of page.items) {
    const where = oneTodo ? "" : `  ${hit.todoId}  ${hit.projectName} / ${oneLine(hit.todoTitle, 50)}`;
    lines.push(`${hit.messageId}  ${hit.role.padEnd(9)}  ${new Date(hit.createdAt).toLocaleString()}${where}`);
    lines.push(`    ${oneLine(starred(hit.snippet), 100)}`);
  }
  return lines.join("\n") || "No message matches.";
}

/** A snippet's text with each matched word between stars. */
const starred = (snippet: MessageHits["items"][number]["snippet"]) => snippetParts(snippet).map((p) => (p.hit ? `*${p.text}*` : p.text)).join("");

/**
 * `todo upcoming`: scheduled messages (soonest first, with their time) and proposed todos, one
 * line each with the todo id the other commands take, and the message's text below when it is not
 * the todo's own.
 */
export function pendingText(tasks: Pending): string {
  const scheduled = tasks.filter((t) => t.kind === "scheduled_message");
  const proposed = tasks.filter((t) => t.kind === "proposed_todo");
  const lines: string[] = [];
  if (scheduled.length) {
    lines.push("Scheduled:");
    for (const t of scheduled) {
      lines.push(`${t.todoId}  ${t.dueAt ? new Date(t.dueAt).toLocaleString() : "unscheduled"}  ${t.projectName} / ${oneLine(t.todoContent, 70)}`);
      if (t.messageContent && t.messageContent !== t.todoContent) lines.push(`    ${oneLine(t.messageContent, 100)}`);
    }
  }
  if (proposed.length) {
    if (lines.length) lines.push("");
    lines.push("Proposed (todo status <id> accept | dismiss):");
    for (const t of proposed) lines.push(`${t.todoId}  ${t.projectName} / ${oneLine(t.todoContent, 80)}`);
  }
  return lines.join("\n") || "Nothing scheduled and no proposals waiting.";
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
