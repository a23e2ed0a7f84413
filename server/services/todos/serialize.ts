import { ZMessageUsage, type TBlock, type TMessage, type TMessageUsage, type TPublicBlock, type TPublicMessage, type TPublicTodo, type TTodo, type TTodoListItem, type TTodoWorkflow } from "../../../lib/schemas/todos.ts";
import type { TAgentSettings } from "../../../lib/schemas/agent.ts";
import { epochMs, epochMsOrNull } from "../../../lib/schemas/common.ts";

/** A Block row as stored (what toBlock serialises). */
export type BlockRow = {
  id: string;
  todoId: string;
  messageId: string;
  type: string;
  content: unknown;
  actionable: boolean;
  checked: boolean;
  subTodoIds: string[];
  position: number;
  createdAt: Date;
  updatedAt: Date;
};

export type MessageRow = {
  id: string;
  todoId: string;
  role: "user" | "assistant" | "system" | "tool";
  authorId: string | null;
  content: string;
  state: "SCHEDULED" | "PENDING" | "PROCESSING" | "DONE" | "ERROR";
  scheduledAt: Date | null;
  usage: unknown;
  createdAt: Date;
  updatedAt: Date;
  blocks?: BlockRow[];
};

export type TodoRow = {
  id: string;
  projectId: string;
  userId: string;
  groupId: string | null;
  group?: { slug: string } | null;
  content: string;
  status: TTodo["status"];
  scheduledAt: Date | null;
  assignedAgent: string | null;
  agentSettingsId: string | null;
  businessContextId: string | null;
  agentSettings: unknown;
  isPublic: boolean;
  metadata: unknown;
  lastActivityAt: Date;
  createdAt: Date;
  updatedAt: Date;
};

/** Never out of schema, even for a row stored out of range (lib/schemas/common.ts epochMs). */
const ms = epochMsOrNull;

export function asObject(v: unknown): Record<string, unknown> {
  return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

/** The part of the todo's workflow JSON that TodoWorkflow shows (todo_getWorkflow, the `todo.workflow` event). */
export function toWorkflow(todoId: string, workflow: unknown): TTodoWorkflow {
  const w = asObject(workflow);
  return {
    todoId,
    contextSummaryUsed: w.contextSummaryUsed === true,
    contextSummary: typeof w.contextSummary === "string" ? w.contextSummary : null,
    turn: typeof w.turn === "number" && Number.isInteger(w.turn) ? w.turn : 0,
    state: typeof w.state === "string" ? w.state : "idle",
  };
}

export function toBlock(b: BlockRow): TBlock {
  return {
    id: b.id,
    blockId: b.id,
    todoId: b.todoId,
    messageId: b.messageId,
    type: b.type,
    content: b.content,
    actionable: b.actionable,
    checked: b.checked,
    subTodoIds: b.subTodoIds,
    position: b.position,
    createdAt: epochMs(b.createdAt),
    updatedAt: epochMs(b.updatedAt),
  };
}

/** The stored usage as Message.usage types it: its known fields of the right type, so an odd row cannot fail a response. */
function toUsage(v: unknown): TMessageUsage | null {
  if (!v || typeof v !== "object" || Array.isArray(v)) return null;
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(ZMessageUsage.shape)) {
    const r = field.safeParse((v as Record<string, unknown>)[key]);
    if (r.success && r.data !== undefined) out[key] = r.data;
  }
  return out as TMessageUsage;
}

export function toMessage(m: MessageRow): TMessage {
  return {
    id: m.id,
    messageId: m.id,
    todoId: m.todoId,
    role: m.role,
    authorId: m.authorId,
    content: m.content,
    state: m.state,
    scheduledAt: ms(m.scheduledAt),
    usage: toUsage(m.usage),
    createdAt: epochMs(m.createdAt),
    updatedAt: epochMs(m.updatedAt),
    blocks: (m.blocks ?? []).map(toBlock),
  };
}

export function toTodoListItem(t: TodoRow): TTodoListItem {
  return {
    id: t.id,
    projectId: t.projectId,
    userId: t.userId,
    groupId: t.groupId,
    groupSlug: t.group?.slug ?? null,
    content: t.content,
    status: t.status,
    scheduledAt: ms(t.scheduledAt),
    assignedAgent: t.assignedAgent,
    agentSettingsId: t.agentSettingsId,
    businessContextId: t.businessContextId,
    agentSettings: t.agentSettings ? (asObject(t.agentSettings) as TAgentSettings) : null,
    isPublic: t.isPublic,
    metadata: asObject(t.metadata),
    lastActivityAt: epochMs(t.lastActivityAt),
    createdAt: epochMs(t.createdAt),
    updatedAt: epochMs(t.updatedAt),
  };
}

export function toTodo(t: TodoRow, messages: MessageRow[], hasMoreMessages: boolean): TTodo {
  const msgs = messages.map(toMessage);
  return { ...toTodoListItem(t), messages: msgs, blocks: msgs.flatMap((m) => m.blocks), hasMoreMessages };
}

// The public todo: each field picked here, never a copy of the full todo with fields removed,
// so nothing private (owner, metadata, agent settings, usage, error reasons) can slip through.
/**
 * What a public reader sees of a block's content: checklists as they are; of the agent's tool
 * steps and shell commands only that they happened and how they ended, never their input, output,
 * command, device or path (docs/api.md "Public todos").
 */
function publicContent(type: string, content: unknown): unknown {
  const c = (content && typeof content === "object" ? content : {}) as Record<string, unknown>;
  if (type === "tool_call") return { tool: c.tool ?? null, state: c.state ?? null };
  if (type === "shell") return { state: c.state ?? null, exitCode: c.exitCode ?? null };
  // What the agent showed is part of the conversation; the card's id is the project's.
  if (type === "show") return { card: c.card ?? null, title: c.title ?? null, html: c.html ?? null, data: c.data ?? null };
  return content;
}

/** The fields of a block, stored or serialised (Block), that its public view is picked from. */
type BlockFields = Pick<BlockRow, "id" | "messageId" | "type" | "content" | "actionable" | "checked" | "position">;

function toPublicBlock(b: BlockFields): TPublicBlock {
  return { id: b.id, blockId: b.id, messageId: b.messageId, type: b.type, content: publicContent(b.type, b.content), actionable: b.actionable, checked: b.checked, position: b.position };
}

function toPublicMessage(m: MessageRow): TPublicMessage {
  return { id: m.id, messageId: m.id, role: m.role, content: m.content, state: m.state, createdAt: m.createdAt.getTime(), blocks: (m.blocks ?? []).map(toPublicBlock) };
}

/** The roles whose messages are public (todo_getPublic, the public room): the conversation, never what the system gave the agent. */
export const PUBLIC_ROLES = ["user", "assistant"] as const;

/**
 * The public view of a serialised message (a `message.created` / `message.updated` event's data),
 * picked exactly as todo_getPublic picks a stored one; null for a role that is never public.
 */
export function publicMessageOf(m: Pick<TMessage, "id" | "role" | "content" | "state" | "createdAt"> & { blocks?: BlockFields[] }): TPublicMessage | null {
  if (!(PUBLIC_ROLES as readonly string[]).includes(m.role)) return null;
  return { id: m.id, messageId: m.id, role: m.role, content: m.content, state: m.state, createdAt: m.createdAt, blocks: (m.blocks ?? []).map(toPublicBlock) };
}

export function toPublicTodo(t: Pick<TodoRow, "id" | "content" | "status" | "createdAt" | "updatedAt">, messages: MessageRow[], hasMoreMessages: boolean, nextCursor: string | null): TPublicTodo {
  const msgs = messages.map(toPublicMessage);
  return {
    id: t.id,
    content: t.content,
    status: t.status,
    createdAt: t.createdAt.getTime(),
    updatedAt: t.updatedAt.getTime(),
    messages: msgs,
    blocks: msgs.flatMap((m) => m.blocks),
    hasMoreMessages,
    nextCursor,
  };
}

/** Prisma include for a message with its blocks in order. */
export const messageWithBlocks = { blocks: { orderBy: [{ position: "asc" as const }, { createdAt: "asc" as const }] } };
