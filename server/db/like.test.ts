import assert from "node:assert/strict";
import { test } from "node:test";
import { PGlite } from "@electric-sql/pglite";
import fc from "fast-check";
import { containsText, likePattern } from "./like.ts";

// The database decides what a LIKE pattern matches, so the property asks it: a row matches
// exactly when its text contains the search as typed, wildcards and backslashes included.

const alphabet = fc.constantFrom("a", "b", "%", "_", "\\", " ");
const text = fc.array(alphabet, { maxLength: 8 }).map((cs) => cs.join(""));

test("likePattern matches exactly the texts that contain the search as typed", async () => {
  const db = await PGlite.create();
  try {
    await fc.assert(
      fc.asyncProperty(text, text, async (haystack, needle) => {
        const { rows } = await db.query<{ m: boolean }>(`SELECT $1::text LIKE $2::text AS m`, [haystack, likePattern(needle)]);
        assert.equal(rows[0]!.m, haystack.includes(needle), `${JSON.stringify(haystack)} LIKE ${JSON.stringify(likePattern(needle))}`);
      }),
      { numRuns: 300 },
    );
  } finally {
    await db.close();
  }
});

test("containsText hands Prisma the same escaped text that likePattern wraps", () => {
  fc.assert(fc.property(text, (needle) => likePattern(needle) === `%${containsText(needle).contains}%`));
});
