import { test } from "node:test";
import assert from "node:assert/strict";
import type { TBlock, TMessage, TTodo } from "../schemas/todos.ts";
import { chatReducer, eventNeedsRefetch, initialChatState, type ChatState } from "./todo-chat-state.ts";

const msg = (id: string, createdAt: number, extra: Partial<TMessage> = {}): TMessage => ({
  id,
  messageId: id,
  todoId: "t1",
  role: "user",
  authorId: null,
  content: `text ${id}`,
  state: "DONE",
  scheduledAt: null,
  usage: null,
  createdAt,
  updatedAt: createdAt,
  blocks: [],
  ...extra,
});

const todo = (messages: TMessage[], hasMoreMessages = false, extra: Partial<TTodo> = {}): TTodo => ({
  id: "t1",
  projectId: "p1",
  userId: "u1",
  groupId: null,
  groupSlug: null,
  content: "Todo",
  status: "READY",
  scheduledAt: null,
  assignedAgent: null,
  agentSettingsId: null,
  businessContextId: null,
  agentSettings: null,
  isPublic: false,
  metadata: {},
  lastActivityAt: 1,
  createdAt: 1,
  updatedAt: 1,
  messages,
  blocks: messages.flatMap((m) => m.blocks),
  hasMoreMessages,
  ...extra,
});

const ev = (type: string, data: unknown) => ({ type: "event" as const, event: { type, todoId: "t1", data } });
const ids = (s: ChatState) => s.messages.map((m) => m.id);

test("older pages are prepended, and a refetch that joins them keeps them", () => {
  let s = chatReducer(initialChatState, { type: "loaded", todo: todo([msg("c", 3), msg("d", 4)], true) });
  assert.equal(s.hasOlder, true);
  s = chatReducer(s, { type: "older", items: [msg("a", 1), msg("b", 2)], nextCursor: null });
  assert.deepEqual(ids(s), ["a", "b", "c", "d"]);
  assert.equal(s.hasOlder, false);
  s = chatReducer(s, { type: "loaded", todo: todo([msg("c", 3), msg("d", 4), msg("e", 5)], true) });
  assert.deepEqual(ids(s), ["a", "b", "c", "d", "e"]);
  assert.equal(s.hasOlder, false);
  // A window that no longer joins (many new messages while offline) replaces the list.
  s = chatReducer(s, { type: "loaded", todo: todo([msg("x", 9), msg("y", 10)], true) });
  assert.deepEqual(ids(s), ["x", "y"]);
  assert.equal(s.hasOlder, true);
});

test("deltas stream into their message; message.updated replaces it with the stored one", () => {
  let s = chatReducer(initialChatState, { type: "loaded", todo: todo([msg("u", 1, { state: "PENDING" })]) });
  s = chatReducer(s, ev("message.created", msg("r", 2, { role: "assistant", content: "", state: "PROCESSING" })));
  assert.equal(s.messages[0]!.state, "DONE", "the reply took the waiting message");
  s = chatReducer(s, ev("message.delta", { messageId: "r", delta: "Hello " }));
  s = chatReducer(s, ev("message.delta", { messageId: "r", delta: "there" }));
  assert.equal(s.messages[1]!.content, "Hello there");
  s = chatReducer(s, ev("message.updated", msg("r", 2, { role: "assistant", content: "Hello there.", state: "DONE" })));
  assert.deepEqual(s.messages.map((m) => [m.content, m.state]), [["text u", "DONE"], ["Hello there.", "DONE"]]);
});

test("a refetch in the middle of a stream neither loses nor doubles text", () => {
  const streaming = (content: string) => msg("r", 2, { role: "assistant", content, state: "PROCESSING" });
  let s = chatReducer(initialChatState, { type: "loaded", todo: todo([msg("u", 1), streaming("One ")]) });
  // The server answered with text whose deltas have not reached the page yet.
  s = chatReducer(s, { type: "loaded", todo: todo([msg("u", 1), streaming("One two three ")]) });
  assert.equal(s.messages[1]!.content, "One two three ");
  s = chatReducer(s, ev("message.delta", { messageId: "r", delta: "two " }));
  s = chatReducer(s, ev("message.delta", { messageId: "r", delta: "three " }));
  s = chatReducer(s, ev("message.delta", { messageId: "r", delta: "four" }));
  assert.equal(s.messages[1]!.content, "One two three four");
  // A stale answer (older than what streamed in) does not roll the text back.
  s = chatReducer(s, { type: "loaded", todo: todo([msg("u", 1), streaming("One two ")]) });
  assert.equal(s.messages[1]!.content, "One two three four");
  // Text the page missed (deltas that never come) is not skipped forever.
  s = chatReducer(s, { type: "loaded", todo: todo([msg("u", 1), streaming("One two three four five ")]) });
  s = chatReducer(s, ev("message.delta", { messageId: "r", delta: "six" }));
  assert.equal(s.messages[1]!.content, "One two three four five six");
});

test("deltas with offsets: a reload mid-stream shows exactly the reply so far, never a gap or a double", () => {
  const streaming = (content: string) => msg("r", 2, { role: "assistant", content, state: "PROCESSING" });
  const delta = (d: string, offset: number) => ev("message.delta", { messageId: "r", delta: d, offset });
  // Loaded "One two " while "two " (offset 4) and "three " (offset 8) were on their way.
  let s = chatReducer(initialChatState, { type: "loaded", todo: todo([msg("u", 1), streaming("One two ")]) });
  s = chatReducer(s, delta("two ", 4));
  assert.equal(s.messages[1]!.content, "One two ", "text shown already is not added again");
  s = chatReducer(s, delta("three ", 8));
  assert.equal(s.messages[1]!.content, "One two three ");
  // The page missed "four " (offset 14): "five" at 19 is a gap; it waits for the refetch.
  const gap = { type: "message.delta", todoId: "t1", data: { messageId: "r", delta: "five", offset: 19 } };
  assert.equal(eventNeedsRefetch(s, gap), true);
  assert.equal(chatReducer(s, { type: "event", event: gap }).messages[1]!.content, "One two three ", "a gap is never shown as text");
  assert.equal(eventNeedsRefetch(s, { type: "message.delta", todoId: "t1", data: { messageId: "r", delta: "four ", offset: 14 } }), false);
  s = chatReducer(s, { type: "loaded", todo: todo([msg("u", 1), streaming("One two three four five")]) });
  s = chatReducer(s, delta("five", 19));
  s = chatReducer(s, delta("!", 23));
  assert.equal(s.messages[1]!.content, "One two three four five!");
});

test("block events and optimistic checks update the block under its message", () => {
  const block: TBlock = { id: "b", blockId: "b", todoId: "t1", messageId: "r", type: "checklist_item", content: { text: "a" }, actionable: true, checked: false, subTodoIds: [], position: 0, createdAt: 2, updatedAt: 2 };
  let s = chatReducer(initialChatState, { type: "loaded", todo: todo([msg("r", 2, { role: "assistant", blocks: [block] })]) });
  s = chatReducer(s, { type: "blockChecked", messageId: "r", blockId: "b", checked: true });
  assert.equal(s.messages[0]!.blocks[0]!.checked, true);
  s = chatReducer(s, ev("block.updated", { ...block, checked: false, subTodoIds: ["t2"] }));
  assert.deepEqual(s.messages[0]!.blocks.map((b) => [b.checked, b.subTodoIds]), [[false, ["t2"]]]);
});

test("status, updates and deletion; events of another todo are ignored", () => {
  let s = chatReducer(initialChatState, { type: "loaded", todo: todo([msg("u", 1)]) });
  s = chatReducer(s, ev("todo.status", { status: "RUNNING", previous: "READY" }));
  assert.equal(s.todo!.status, "RUNNING");
  s = chatReducer(s, { type: "event", event: { type: "todo.status", todoId: "other", data: { status: "DONE" } } });
  assert.equal(s.todo!.status, "RUNNING");
  s = chatReducer(s, ev("todo.updated", { ...s.todo!, isPublic: true }));
  assert.equal(s.todo!.isPublic, true);
  assert.equal(eventNeedsRefetch(s, { type: "message.delta", todoId: "t1", data: { messageId: "unknown", delta: "x" } }), true);
  assert.equal(eventNeedsRefetch(s, { type: "message.delta", todoId: "t1", data: { messageId: "u", delta: "x" } }), false);
  s = chatReducer(s, ev("todo.deleted", { todoId: "t1" }));
  assert.equal(s.deleted, true);
});

test("the todo's project deleted (an event naming no todo) deletes the todo; another project's does not", () => {
  let s = chatReducer(initialChatState, { type: "loaded", todo: todo([msg("u", 1)]) });
  s = chatReducer(s, { type: "event", event: { type: "project.deleted", projectId: "p2", data: { projectId: "p2" } } });
  assert.equal(s.deleted, false);
  assert.equal(eventNeedsRefetch(s, { type: "project.deleted", projectId: "p1", data: { projectId: "p1" } }), false);
  s = chatReducer(s, { type: "event", event: { type: "project.deleted", projectId: "p1", data: { projectId: "p1" } } });
  assert.equal(s.deleted, true);
});

test("a change of access to the todo's project (a share's role, a team project lost) asks for the todo again; other projects' and renames do not", () => {
  const s = chatReducer(initialChatState, { type: "loaded", todo: todo([msg("u", 1)]) });
  assert.equal(eventNeedsRefetch(s, { type: "project.updated", projectId: "p1", data: { action: "shared" } }), true);
  // The team event reaches the user's own room: no projectId on the envelope, the project in its data.
  assert.equal(eventNeedsRefetch(s, { type: "project.updated", data: { action: "team", projectId: "p1" } }), true);
  assert.equal(eventNeedsRefetch(s, { type: "project.updated", data: { action: "team", projectId: "p2" } }), false);
  assert.equal(eventNeedsRefetch(s, { type: "project.updated", projectId: "p2", data: { action: "shared" } }), false);
  assert.equal(eventNeedsRefetch(s, { type: "project.updated", projectId: "p1", data: { action: "updated" } }), false);
  assert.deepEqual(chatReducer(s, { type: "event", event: { type: "project.updated", projectId: "p1", data: { action: "shared" } } }), s);
});

test("a message older than the loaded window is not put at its end", () => {
  let s = chatReducer(initialChatState, { type: "loaded", todo: todo([msg("c", 3)], true) });
  s = chatReducer(s, ev("message.updated", msg("a", 1, { state: "PENDING" })));
  assert.deepEqual(ids(s), ["c"]);
  s = chatReducer(s, ev("message.created", msg("d", 4)));
  assert.deepEqual(ids(s), ["c", "d"]);
});

test("a load that left before a live todo.updated does not undo it; a newer load wins", () => {
  let s: ChatState = chatReducer(initialChatState, { type: "loaded", todo: todo([], false, { updatedAt: 10 }) });
  s = chatReducer(s, { type: "event", event: { type: "todo.updated", todoId: "t1", data: { ...todo([]), isPublic: true, updatedAt: 20 } } });
  assert.equal(s.todo?.isPublic, true);
  s = chatReducer(s, { type: "loaded", todo: todo([], false, { updatedAt: 10 }) });
  assert.equal(s.todo?.isPublic, true, "the stale load kept the newer state");
  s = chatReducer(s, { type: "loaded", todo: todo([], false, { isPublic: false, updatedAt: 30 }) });
  assert.equal(s.todo?.isPublic, false, "a newer load applies");
});

test("a load that left before a live block.updated or message.updated does not undo it", () => {
  const block: TBlock = { id: "b", blockId: "b", todoId: "t1", messageId: "r", type: "checklist_item", content: { text: "b" }, actionable: true, checked: false, subTodoIds: [], position: 0, createdAt: 2, updatedAt: 2 };
  const reply = msg("r", 2, { role: "assistant", blocks: [block] });
  const stale = todo([reply, msg("u", 3)]);
  let s = chatReducer(initialChatState, { type: "loaded", todo: stale });
  s = chatReducer(s, ev("block.updated", { ...block, checked: true, updatedAt: 5 }));
  s = chatReducer(s, ev("message.updated", msg("u", 3, { state: "ERROR", updatedAt: 6 })));
  s = chatReducer(s, { type: "loaded", todo: stale });
  assert.equal(s.messages[0]!.blocks[0]!.checked, true, "the stale load kept the checked block");
  assert.equal(s.messages[1]!.state, "ERROR", "the stale load kept the newer message");
  s = chatReducer(s, { type: "loaded", todo: todo([msg("r", 2, { role: "assistant", blocks: [{ ...block, checked: false, updatedAt: 9 }] }), msg("u", 3, { updatedAt: 9 })]) });
  assert.equal(s.messages[0]!.blocks[0]!.checked, false, "a newer load applies");
  assert.equal(s.messages[1]!.state, "DONE");
});

test("a load that left before a live message.created does not drop that message; a newer load has it in place", () => {
  let s = chatReducer(initialChatState, { type: "loaded", todo: todo([msg("a", 1), msg("b", 2)]) });
  s = chatReducer(s, ev("message.created", msg("c", 3)));
  s = chatReducer(s, { type: "loaded", todo: todo([msg("a", 1), msg("b", 2)]) });
  assert.deepEqual(ids(s), ["a", "b", "c"], "the stale load kept the message that arrived after it left");
  s = chatReducer(s, { type: "loaded", todo: todo([msg("a", 1), msg("b", 2), msg("c", 3), msg("d", 4)]) });
  assert.deepEqual(ids(s), ["a", "b", "c", "d"]);
  // The same with a window that has older messages before it.
  s = chatReducer(s, ev("message.created", msg("e", 5)));
  s = chatReducer(s, { type: "loaded", todo: todo([msg("c", 3), msg("d", 4)], true) });
  assert.deepEqual(ids(s), ["a", "b", "c", "d", "e"]);
});
