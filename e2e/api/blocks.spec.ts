import { randomUUID } from "node:crypto";
import { expect, test } from "@playwright/test";
import pg from "pg";
import { createUser, type TestUser } from "../support/users";
import {
  MISSING_ID,
  createProject,
  createTodo,
  expectBadRequest,
  expectError,
  expectNull,
  getTodo,
  h,
  waitForReply,
  type Block,
  type ErrorBody,
  type Todo,
} from "../support/todos";

test.describe.configure({ timeout: 120_000 });

const LIST = "Pack for the trip:\n- Passport\n- Charger\n- Sunscreen";

const checklist = (t: Todo) => t.blocks.filter((b) => b.type === "checklist_item");
const blockIn = (t: Todo, blockId: string) => t.blocks.find((b) => b.blockId === blockId)!;

/** A todo whose first turn turned LIST into checklist blocks. */
async function todoWithChecklist(u: TestUser, projectId: string): Promise<Todo> {
  const t = await createTodo(u, projectId, { content: LIST, startProcessing: true });
  const done = await waitForReply(u, t.id);
  expect(checklist(done).length, JSON.stringify(done.blocks)).toBe(3);
  return done;
}

const toggle = (u: TestUser, todoId: string, blockId: string, data: unknown = {}) =>
  u.session.post(`/api/v1/todos/${todoId}/blocks/${blockId}/checked`, { headers: h(u), data });
const link = (u: TestUser, todoId: string, blockId: string, subTodoIds: unknown) =>
  u.session.post(`/api/v1/todos/${todoId}/blocks/${blockId}/subtodo`, { headers: h(u), data: { subTodoIds } });

test("a list in the user's message becomes actionable checklist blocks", async ({}, info) => {
  const u = await createUser(info);
  const p = await createProject(u);
  const t = await todoWithChecklist(u, p.id);

  const items = checklist(t);
  expect(items.map((b) => b.content)).toEqual([{ text: "Passport" }, { text: "Charger" }, { text: "Sunscreen" }]);
  for (const b of items) {
    expect(b).toMatchObject({ todoId: t.id, actionable: true, checked: false, subTodoIds: [] });
    expect(b.blockId).toBe(b.id);
    expect(Number.isInteger(b.createdAt)).toBe(true);
    // Each block sits in the message it belongs to.
    const owner = t.messages.find((m) => m.messageId === b.messageId);
    expect(owner?.blocks.map((x) => x.blockId)).toContain(b.blockId);
  }
  if (new Set(items.map((b) => b.messageId)).size === 1) {
    const positions = items.map((b) => b.position);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(new Set(positions).size).toBe(positions.length);
  }
  // `blocks` is the messages' blocks, flattened in chat order.
  expect(t.blocks).toEqual(t.messages.flatMap((m) => m.blocks));

  // A message without a list makes no checklist.
  const plain = await createTodo(u, p.id, { content: "Just say hi", startProcessing: true });
  expect(checklist(await waitForReply(u, plain.id))).toEqual([]);
});

test("toggle flips the checked state, or sets it when `checked` is given", async ({}, info) => {
  const u = await createUser(info);
  const p = await createProject(u);
  const t = await todoWithChecklist(u, p.id);
  const [first, second] = checklist(t);
  const state = async () => {
    const now = await getTodo(u, t.id);
    return [blockIn(now, first!.blockId).checked, blockIn(now, second!.blockId).checked];
  };

  await expectNull(await toggle(u, t.id, first!.blockId));
  expect(await state()).toEqual([true, false]);
  await expectNull(await toggle(u, t.id, first!.blockId));
  expect(await state()).toEqual([false, false]);
  await expectNull(await toggle(u, t.id, first!.blockId, { checked: true }));
  await expectNull(await toggle(u, t.id, first!.blockId, { checked: true }));
  expect(await state()).toEqual([true, false]);
  await expectNull(await toggle(u, t.id, first!.blockId, { checked: false }));
  await expectNull(await toggle(u, t.id, second!.blockId, { checked: true }));
  expect(await state()).toEqual([false, true]);

  await expectBadRequest(await toggle(u, t.id, first!.blockId, { checked: "yes" }), "body.checked");
  await expectError(await toggle(u, t.id, MISSING_ID), 404, "NOT_FOUND");
  // A block is addressed through its own todo only.
  const other = await createTodo(u, p.id, "Other");
  await expectError(await toggle(u, other.id, first!.blockId), 404, "NOT_FOUND");
  expect(await state()).toEqual([false, true]);
});

test("a block that is not actionable cannot be toggled: 409", async ({}, info) => {
  // No operation creates blocks and the built-in agent writes only checklist items, so the block is
  // put into the database directly: possible on the PostgreSQL project only (PGlite is in-process).
  const databaseUrl = info.project.metadata?.databaseUrl as string | undefined;
  test.skip(!databaseUrl, "needs direct database access (the PostgreSQL project)");
  const u = await createUser(info);
  const p = await createProject(u);
  const t = await todoWithChecklist(u, p.id);
  const reply = t.messages.at(-1)!;
  const blockId = `cplainblock${randomUUID().replace(/-/g, "").slice(0, 14)}`;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(
      `INSERT INTO "Block" ("id", "todoId", "messageId", "position", "type", "content", "actionable", "checked", "updatedAt") VALUES ($1, $2, $3, 99, 'text', '{"text":"just words"}', false, false, now())`,
      [blockId, t.id, reply.messageId],
    );
  } finally {
    await client.end();
  }
  const plain = blockIn(await getTodo(u, t.id), blockId);
  expect(plain).toMatchObject({ blockId, type: "text", actionable: false, checked: false });

  await expectError(await toggle(u, t.id, blockId), 409, "CONFLICT");
  await expectError(await toggle(u, t.id, blockId, { checked: true }), 409, "CONFLICT");
  expect(blockIn(await getTodo(u, t.id), blockId)).toEqual(plain);
});

test("link appends sub-todo ids in order, without duplicates, several at once", async ({}, info) => {
  const u = await createUser(info);
  const p = await createProject(u);
  const t = await todoWithChecklist(u, p.id);
  const [block, untouched] = checklist(t);
  const [s1, s2, s3, s4] = await Promise.all([1, 2, 3, 4].map((i) => createTodo(u, p.id, `Sub ${i}`)));
  const ids = async () => blockIn(await getTodo(u, t.id), block!.blockId).subTodoIds;

  await expectNull(await link(u, t.id, block!.blockId, [s1!.id, s2!.id]));
  expect(await ids()).toEqual([s1!.id, s2!.id]);
  await expectNull(await link(u, t.id, block!.blockId, [s2!.id, s3!.id, s3!.id]));
  expect(await ids()).toEqual([s1!.id, s2!.id, s3!.id]);
  await expectNull(await link(u, t.id, block!.blockId, [s1!.id]));
  expect(await ids()).toEqual([s1!.id, s2!.id, s3!.id]);
  await expectNull(await link(u, t.id, block!.blockId, [s4!.id, s4!.id]));
  expect(await ids()).toEqual([s1!.id, s2!.id, s3!.id, s4!.id]);

  // Concurrent links lose nothing and duplicate nothing.
  const more = await Promise.all([5, 6, 7, 8].map((i) => createTodo(u, p.id, `Sub ${i}`)));
  const results = await Promise.all(more.map((s) => link(u, t.id, block!.blockId, [s.id, s1!.id])));
  expect(results.map((r) => r.status())).toEqual([200, 200, 200, 200]);
  const final = await ids();
  expect(final.slice(0, 4)).toEqual([s1!.id, s2!.id, s3!.id, s4!.id]);
  expect([...final.slice(4)].sort()).toEqual(more.map((s) => s.id).sort());

  expect(blockIn(await getTodo(u, t.id), untouched!.blockId).subTodoIds).toEqual([]);
});

test("link with an id the caller cannot read is 404, like a missing one, and links nothing", async ({}, info) => {
  const u = await createUser(info, "owner");
  const stranger = await createUser(info, "stranger");
  const p = await createProject(u);
  const t = await todoWithChecklist(u, p.id);
  const [block] = checklist(t);
  const mine = await createTodo(u, p.id, "Mine");
  const sp = await createProject(stranger, "Theirs");
  const theirs = await createTodo(stranger, sp.id, "Not yours");

  await expectNull(await link(u, t.id, block!.blockId, [mine.id]));
  const foreign = await link(u, t.id, block!.blockId, [mine.id, theirs.id]);
  await expectError(foreign, 404, "NOT_FOUND");
  const missing = await link(u, t.id, block!.blockId, [MISSING_ID]);
  await expectError(missing, 404, "NOT_FOUND");
  expect((await foreign.json()) as ErrorBody).toEqual((await missing.json()) as ErrorBody);

  const extra = await createTodo(u, p.id, "Extra");
  await expectError(await link(u, t.id, block!.blockId, [extra.id, theirs.id]), 404, "NOT_FOUND");
  expect(blockIn(await getTodo(u, t.id), block!.blockId).subTodoIds).toEqual([mine.id]);

  await expectBadRequest(await link(u, t.id, block!.blockId, "not-a-list"), "body.subTodoIds");
  await expectBadRequest(await link(u, t.id, block!.blockId, [extra.id, t.id]), "body.subTodoIds");
  await expectError(await link(u, t.id, MISSING_ID, [extra.id]), 404, "NOT_FOUND");
  expect(blockIn(await getTodo(u, t.id), block!.blockId)).toMatchObject({ subTodoIds: [mine.id] } satisfies Partial<Block>);
});
