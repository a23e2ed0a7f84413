import { test } from "node:test";
import assert from "node:assert/strict";
import { hasSearchWord, snippetParts } from "./snippet.ts";

test("a snippet splits into its matched words and the text between, skipping ranges that do not fit", () => {
  assert.deepEqual(snippetParts({ text: "turn the compost weekly", highlights: [{ start: 9, end: 16 }] }), [
    { text: "turn the ", hit: false },
    { text: "compost", hit: true },
    { text: " weekly", hit: false },
  ]);
  // Overlapping, past the end and empty ranges are dropped; the text stays whole.
  assert.deepEqual(
    snippetParts({ text: "ab cd", highlights: [{ start: 0, end: 2 }, { start: 1, end: 3 }, { start: 3, end: 9 }, { start: 4, end: 4 }] }),
    [
      { text: "ab", hit: true },
      { text: " cd", hit: false },
    ],
  );
  assert.deepEqual(snippetParts({ text: "", highlights: [] }), [{ text: "", hit: false }]);
});

test("a query has a word when it has a letter or a digit in any script", () => {
  for (const q of ["compost", "42", "Ärger", "日本", "  c  ", "#1"]) assert.equal(hasSearchWord(q), true, q);
  for (const q of ["", "   ", "?!", "—", "#", "**"]) assert.equal(hasSearchWord(q), false, q);
});
