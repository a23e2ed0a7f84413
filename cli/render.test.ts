import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { blockLine, checklistItemAt, checklistOf, pendingText, searchText, todoText } from "./render.ts";

type Todo = Parameters<typeof todoText>[0];
type Block = Todo["messages"][number]["blocks"][number];

let n = 0;
function block(type: string, content: Record<string, unknown>, more: Partial<Block> = {}): Block {
  n += 1;
  return { id: `b${n}`, blockId: `b${n}`, todoId: "t1", messageId: "m", type, content, actionable: type === "checklist_item", checked: false, subTodoIds: [], position: n, createdAt: 1, updatedAt: 1, ...more } as Block;
}
function message(role: string, content: string, blocks: Block[] = [], more: Record<string, unknown> = {}) {
  return { id: `m${role}${content}`, messageId: "m", todoId: "t1", role, content, state: "DONE", scheduledAt: null, usage: null, createdAt: 1, updatedAt: 1, blocks, ...more };
}
function todo(messages: ReturnType<typeof message>[]): Todo {
  return { id: "t1", content: "Pack", status: "READY", messages } as unknown as Todo;
}

describe("todo show's text", () => {
  const first = [block("checklist_item", { text: "passport" }), block("tool_call", { tool: "checklist", state: "done" }), block("checklist_item", { text: "charger" }, { checked: true, subTodoIds: ["t9"] })];
  const later = [block("checklist_item", { text: "socks" }), block("checklist_item", { text: "not actionable" }, { actionable: false })];
  const t = todo([message("user", "Pack"), message("assistant", "A list", first), message("assistant", "More", later), message("user", "Later", [], { state: "SCHEDULED", scheduledAt: Date.UTC(2030, 0, 2, 3, 4) })]);

  test("checklist items are numbered across the conversation, in chat order; other blocks are not", () => {
    assert.deepEqual(checklistOf(t).map((b) => (b.content as { text: string }).text), ["passport", "charger", "socks"]);
    const text = todoText(t);
    assert.match(text, /^ {2}1\. \[ \] passport$/m);
    assert.match(text, /^ {2}2\. \[x\] charger {2}→ t9$/m);
    assert.match(text, /^ {2}3\. \[ \] socks$/m);
    assert.match(text, /^ {2}· checklist \(done\)$/m);
    assert.match(text, /^ {2}\[ \] not actionable$/m);
    assert.ok(text.split("\n").includes(`[user] (scheduled for ${new Date(Date.UTC(2030, 0, 2, 3, 4)).toLocaleString()}) Later`));
    assert.match(text, /todo check t1 <number>$/);
  });

  test("`todo check` takes the number `todo show` printed", () => {
    assert.equal(checklistItemAt(t, 3)?.id, later[0]!.id);
    for (const bad of [0, 4, -1, 1.5]) assert.equal(checklistItemAt(t, bad), undefined);
  });

  test("a shell block shows its command, where it runs, its state and the block id to decide it", () => {
    const line = blockLine(block("shell", { command: "ls -la", deviceName: "laptop", path: "/work", state: "done", exitCode: 0 }));
    assert.match(line, /^ {2}\$ ls -la {2}\[laptop:\/work\] {2}\(done, exit 0; block b\d+\)$/);
  });

  test("the heading is the todo's first line; a message's further lines are indented under its first", () => {
    const text = todoText({ ...todo([message("user", "Plan the launch:\n- Book venue\n- Ship it"), message("assistant", "Done.")]), content: "Plan the launch:\n- Book venue\n- Ship it" });
    assert.deepEqual(text.split("\n").slice(0, 7), ["Plan the launch:", "status: READY", "", "[user] Plan the launch:", "  - Book venue", "  - Ship it", "[assistant] Done."]);
  });

  test("the status line names the todo's model when its settings name one", () => {
    const named = todoText({ ...todo([]), agentSettings: { provider: "openai", model: "gpt-4.1-mini", systemPrompt: "Be brief." } });
    assert.equal(named.split("\n")[1], "status: READY · model: openai · gpt-4.1-mini");
    assert.equal(todoText({ ...todo([]), agentSettings: null }).split("\n")[1], "status: READY");
  });

  test("data the agent showed through a card prints as its title, card and data, cut short", () => {
    const shown = todoText(todo([message("assistant", "Here", [block("show", { card: "Bar chart", title: "Sales", html: "<p></p>", data: { rows: [1, 2] } }), block("show", { card: "Table", data: { s: "x".repeat(300) } })])]));
    assert.match(shown, /^ {2}▦ Sales \(card Bar chart\): \{"rows":\[1,2\]\}$/m);
    assert.match(shown, /^ {2}▦ Table \(card Table\): \{"s":"x+…$/m);
    assert.ok(!shown.includes("<p>"), "not the card's HTML");
  });

  test("no checklist: no hint; blocks with unexpected content still print", () => {
    const plain = todoText(todo([message("assistant", "Hi", [block("note", { text: 3 }), block("tool_call", {})])]));
    assert.doesNotMatch(plain, /todo check/);
    assert.match(plain, /^ {2}· note$/m);
    assert.match(plain, /^ {2}· tool \(\?\)$/m);
  });
});

describe("todo search's text", () => {
  type Page = Parameters<typeof searchText>[0];
  const group = (todoId: string, matchCount: number, title: string) => ({
    todoId,
    projectId: "p1",
    projectName: "Trip",
    todoTitle: title,
    todoStatus: "READY",
    matchCount,
    lastMatchAt: 1,
    best: { snippet: { text: "the  passport\nis in the drawer", highlights: [{ start: 5, end: 13 }] } },
  });

  test("a todo per exact group with its snippet on one line, then the related items", () => {
    const text = searchText({
      exact: [group("t1", 1, "Pack:\n- passport"), group("t2", 100, "x".repeat(90))],
      related: [{ kind: "note", id: "n1", projectId: null, title: "Passport expires in May", score: 0.4 }],
      embeddingModel: "lexical-hash-v1",
    } as unknown as Page);
    const lines = text.split("\n");
    assert.equal(lines[0], "t1  READY      Trip / Pack: - passport  (1 match)");
    assert.equal(lines[1], "    the passport is in the drawer");
    assert.match(lines[2]!, /^t2 {2}READY {6}Trip \/ x{69}… {2}\(100\+ matches\)$/);
    assert.deepEqual(lines.slice(4), ["", "Related:", "n1  note  Passport expires in May"]);
  });

  test("nothing found says so", () => {
    assert.equal(searchText({ exact: [], related: [], embeddingModel: "m" } as unknown as Page), "Nothing found.");
  });
});

describe("todo upcoming's text", () => {
  const at = Date.UTC(2030, 0, 2, 3, 4);
  const base = { projectId: "p1", createdAt: 1 };
  test("scheduled messages with their time and, when it is not the todo's content, their text; then proposals; empty says so", () => {
    const text = pendingText([
      { ...base, id: "message:m1", kind: "scheduled_message", todoId: "t1", messageId: "m1", dueAt: at, projectName: "Home", todoContent: "Call the plumber", messageContent: "Call the plumber" },
      { ...base, id: "message:m2", kind: "scheduled_message", todoId: "t2", messageId: "m2", dueAt: at, projectName: "Work", todoContent: "Taxes", messageContent: "Did the\naccountant reply?" },
      { ...base, id: "todo:t3", kind: "proposed_todo", todoId: "t3", messageId: null, dueAt: null, projectName: "Home", todoContent: "Repaint the hall", messageContent: null },
    ]);
    const when = new Date(at).toLocaleString();
    assert.deepEqual(text.split("\n"), [
      "Scheduled:",
      `t1  ${when}  Home / Call the plumber`,
      `t2  ${when}  Work / Taxes`,
      "    Did the accountant reply?",
      "",
      "Proposed (todo status <id> accept | dismiss):",
      "t3  Home / Repaint the hall",
    ]);
    assert.equal(pendingText([]), "Nothing scheduled and no proposals waiting.");
  });
});
