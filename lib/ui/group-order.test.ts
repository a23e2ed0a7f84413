import { test } from "node:test";
import assert from "node:assert/strict";
import { groupMoves } from "./group-order.ts";

const g = (slug: string, position: number) => ({ slug, position });
const moves = (out: ReturnType<typeof groupMoves<{ slug: string; position: number }>>) => out.map((m) => `${m.group.slug}=${m.position}`);

test("a move swaps two neighbours: only they are written", () => {
  const groups = [g("a", 0), g("b", 1), g("c", 2)];
  assert.deepEqual(moves(groupMoves(groups, 2, -1)), ["c=1", "b=2"]);
  assert.deepEqual(moves(groupMoves(groups, 0, 1)), ["b=0", "a=1"]);
});

test("tied or gapped positions become 0, 1, 2… in the new order", () => {
  // As the page shows them: ties broken by creation time.
  const groups = [g("a", 0), g("b", 0), g("c", 7)];
  assert.deepEqual(moves(groupMoves(groups, 1, 1)), ["c=1", "b=2"]);
  // b keeps its 0, now first by position alone.
  assert.deepEqual(moves(groupMoves(groups, 1, -1)), ["a=1", "c=2"]);
});

test("nothing moves past either end", () => {
  const groups = [g("a", 0), g("b", 1)];
  assert.deepEqual(groupMoves(groups, 0, -1), []);
  assert.deepEqual(groupMoves(groups, 1, 1), []);
  assert.deepEqual(groupMoves(groups, 5, -1), []);
});
