import type { TBlock, TMessage, TTodo, TTodoListItem, TTodoStatus } from "../schemas/todos.ts";
import { eventProjectId, isAccessChange } from "./project-events";

// The todo chat page's state: the todo, the loaded window of its messages (newest last), and the
// real-time events folded into them. Pure, so the merge rules are unit-tested
// (todo-chat-state.test.ts) apart from React.

export type TodoMeta = TTodoListItem & { workflow?: unknown };

export type ChatState = {
  todo: TodoMeta | null;
  /** The loaded window, in chat order (oldest first). */
  messages: TMessage[];
  /** Older messages exist before `messages[0]`. */
  hasOlder: boolean;
  /**
   * Per streaming message: text a refetch already showed whose `message.delta` events may still
   * arrive. Those deltas are consumed instead of appended, so a refetch in the middle of a
   * stream neither loses nor doubles text.
   */
  ahead: Record<string, string>;
  deleted: boolean;
};

export type RealtimeLike = { type: string; todoId?: string; projectId?: string; data: unknown };

export type ChatAction =
  | { type: "loaded"; todo: TTodo }
  | { type: "older"; items: TMessage[]; nextCursor: string | null }
  | { type: "message"; message: TMessage }
  | { type: "blockChecked"; messageId: string; blockId: string; checked: boolean }
  | { type: "event"; event: RealtimeLike };

export const initialChatState: ChatState = { todo: null, messages: [], hasOlder: false, ahead: {}, deleted: false };

function withoutKey(record: Record<string, string>, key: string): Record<string, string> {
  if (!(key in record)) return record;
  const { [key]: _gone, ...rest } = record;
  return rest;
}

function metaOf(todo: TTodo): TodoMeta {
  const { messages: _m, blocks: _b, hasMoreMessages: _h, ...meta } = todo;
  return meta;
}

/** Places a message by `createdAt` (ties after); one older than the loaded window is left out. */
function upsertMessage(state: ChatState, message: TMessage): ChatState {
  const i = state.messages.findIndex((m) => m.id === message.id);
  if (i >= 0) {
    const messages = state.messages.slice();
    messages[i] = message;
    return { ...state, messages, ahead: withoutKey(state.ahead, message.id) };
  }
  const first = state.messages[0];
  if (state.hasOlder && first && message.createdAt < first.createdAt) return state;
  let at = state.messages.length;
  while (at > 0 && state.messages[at - 1]!.createdAt > message.createdAt) at--;
  let before = state.messages.slice(0, at);
  // A new reply takes every waiting user message before it, in the same step on the server.
  if (message.role === "assistant" && message.state === "PROCESSING")
    before = before.map((m) => (m.role === "user" && m.state === "PENDING" ? { ...m, state: "DONE" as const } : m));
  const messages = [...before, message, ...state.messages.slice(at)];
  return { ...state, messages };
}

function newerBlock(fetched: TBlock, local: TBlock[]): TBlock {
  const mine = local.find((b) => b.blockId === fetched.blockId);
  return mine && mine.updatedAt > fetched.updatedAt ? mine : fetched;
}

function loaded(state: ChatState, todo: TTodo): ChatState {
  const fetched = todo.messages;
  // Keep older pages the user loaded when the fetched window still joins them.
  const joinAt = fetched[0] ? state.messages.findIndex((m) => m.id === fetched[0]!.id) : -1;
  const keep = joinAt > 0 ? state.messages.slice(0, joinAt) : [];
  const hasOlder = joinAt > 0 ? state.hasOlder : todo.hasMoreMessages;
  let ahead: Record<string, string> = {};
  const merged = fetched.map((fetchedMessage) => {
    const local = state.messages.find((x) => x.id === fetchedMessage.id);
    // A load that left before a live event arrived must not undo it: the newer row wins, for the
    // message and for each of its blocks (a check from another client, say).
    if (local && local.state !== "PROCESSING" && local.updatedAt > fetchedMessage.updatedAt) return local;
    const m = local ? { ...fetchedMessage, blocks: fetchedMessage.blocks.map((b) => newerBlock(b, local.blocks)) } : fetchedMessage;
    if (m.state !== "PROCESSING" || !local || local.state !== "PROCESSING") return m;
    // The page already streamed past what the server had stored when it answered: keep it.
    if (local.content.length >= m.content.length && local.content.startsWith(m.content)) {
      if (state.ahead[m.id]) ahead = { ...ahead, [m.id]: state.ahead[m.id]! };
      return { ...m, content: local.content };
    }
    // The server is ahead: show its text, and skip the deltas of that text when they arrive.
    if (m.content.startsWith(local.content)) ahead = { ...ahead, [m.id]: (state.ahead[m.id] ?? "") + m.content.slice(local.content.length) };
    return m;
  });
  // Nor drop a message that arrived live after it left: one newer than its window that it lacks
  // (messages are never deleted one by one, so a load without it is only an older load).
  const newest = fetched.at(-1);
  const fetchedIds = new Set(fetched.map((m) => m.id));
  const later = state.messages.filter((m) => m.todoId === todo.id && !fetchedIds.has(m.id) && (!newest || m.createdAt >= newest.createdAt));
  // A load that left before a live todo.updated arrived must not undo it (the newer row wins).
  const meta = state.todo && state.todo.id === todo.id && state.todo.updatedAt > todo.updatedAt ? state.todo : metaOf(todo);
  return { ...state, todo: meta, messages: [...keep, ...merged, ...later], hasOlder, ahead, deleted: false };
}

/** A delta's `offset` (where it starts in the reply's text), when the server sent a valid one. */
function offsetOf(data: Record<string, unknown>): number | undefined {
  return typeof data.offset === "number" && Number.isInteger(data.offset) && data.offset >= 0 ? data.offset : undefined;
}

function applyDelta(state: ChatState, messageId: string, delta: string, offset?: number): ChatState {
  const i = state.messages.findIndex((m) => m.id === messageId);
  if (i < 0 || !delta) return state;
  if (offset !== undefined) {
    // Placed by its offset: text the page shows already is not added twice, and a delta past the
    // end (the page missed some) is left for the refetch eventNeedsRefetch asks for.
    const m = state.messages[i]!;
    if (offset > m.content.length || offset + delta.length <= m.content.length) return state;
    const messages = state.messages.slice();
    messages[i] = { ...m, content: m.content.slice(0, offset) + delta, state: m.state === "PENDING" ? "PROCESSING" : m.state };
    return { ...state, messages, ahead: messageId in state.ahead ? withoutKey(state.ahead, messageId) : state.ahead };
  }
  const skip = state.ahead[messageId];
  if (skip !== undefined) {
    if (skip.startsWith(delta)) {
      const rest = skip.slice(delta.length);
      return { ...state, ahead: rest ? { ...state.ahead, [messageId]: rest } : withoutKey(state.ahead, messageId) };
    }
    state = { ...state, ahead: withoutKey(state.ahead, messageId) };
  }
  const messages = state.messages.slice();
  const m = messages[i]!;
  messages[i] = { ...m, content: m.content + delta, state: m.state === "PENDING" ? "PROCESSING" : m.state };
  return { ...state, messages };
}

function applyBlock(state: ChatState, block: TBlock): ChatState {
  const i = state.messages.findIndex((m) => m.id === block.messageId);
  if (i < 0) return state;
  const m = state.messages[i]!;
  const blocks = m.blocks.some((b) => b.blockId === block.blockId)
    ? m.blocks.map((b) => (b.blockId === block.blockId ? block : b))
    : [...m.blocks, block].sort((a, b) => a.position - b.position);
  const messages = state.messages.slice();
  messages[i] = { ...m, blocks };
  return { ...state, messages };
}

function applyEvent(state: ChatState, event: RealtimeLike): ChatState {
  // A deleted project takes its todos with it, and says so once, to its members' own connections.
  if (event.type === "project.deleted") return state.todo && event.projectId === state.todo.projectId ? { ...state, deleted: true } : state;
  if (state.todo && event.todoId !== state.todo.id) return state;
  const data = event.data as Record<string, unknown> | null;
  if (!data || typeof data !== "object") return state;
  switch (event.type) {
    case "message.created":
    case "message.updated":
      return upsertMessage(state, data as unknown as TMessage);
    case "message.delta":
      return applyDelta(state, String(data.messageId), String(data.delta ?? ""), offsetOf(data));
    case "block.updated":
      return applyBlock(state, data as unknown as TBlock);
    case "todo.status":
      return state.todo ? { ...state, todo: { ...state.todo, status: data.status as TTodoStatus } } : state;
    case "todo.updated":
      return state.todo ? { ...state, todo: { ...state.todo, ...(data as unknown as TTodoListItem) } } : state;
    case "todo.deleted":
      return { ...state, deleted: true };
    default:
      return state;
  }
}

export function chatReducer(state: ChatState, action: ChatAction): ChatState {
  switch (action.type) {
    case "loaded":
      return loaded(state, action.todo);
    case "older": {
      const known = new Set(state.messages.map((m) => m.id));
      return { ...state, messages: [...action.items.filter((m) => !known.has(m.id)), ...state.messages], hasOlder: action.nextCursor !== null };
    }
    case "message":
      return upsertMessage(state, action.message);
    case "blockChecked": {
      const m = state.messages.find((x) => x.id === action.messageId);
      const b = m?.blocks.find((x) => x.blockId === action.blockId);
      return b ? applyBlock(state, { ...b, checked: action.checked }) : state;
    }
    case "event":
      return applyEvent(state, action.event);
  }
}

/**
 * Someone's access to the todo's project changed (a share's role, a team project gained or lost;
 * the team event reaches the user's own room and names the project in its data): maybe the
 * reader's, so the todo is read again, and a reader who lost access sees "Todo not found".
 */
export function accessMayHaveChanged(state: ChatState, event: RealtimeLike): boolean {
  return !!state.todo && isAccessChange(event) && eventProjectId(event) === state.todo.projectId;
}

/**
 * A delta for a message the page does not have, or one that starts past the text the page has
 * (it missed some, e.g. between a reload's fetch and its subscription), means: refetch; so does
 * a change of access to the todo's project.
 */
export function eventNeedsRefetch(state: ChatState, event: RealtimeLike): boolean {
  if (accessMayHaveChanged(state, event)) return true;
  if (state.todo && event.todoId !== state.todo.id) return false;
  if (event.type === "todo.status") return true; // waiting messages change state, ERROR carries a reason
  if (event.type !== "message.delta") return false;
  const data = (event.data ?? {}) as Record<string, unknown>;
  const message = state.messages.find((m) => m.id === data.messageId);
  if (!message) return true;
  const offset = offsetOf(data);
  return offset !== undefined && offset > message.content.length;
}
