import { test } from "node:test";
import assert from "node:assert/strict";
import { ApiError } from "../../http/errors.ts";
import { queryWords } from "./query.ts";

test("a q without a letter or digit is 400 with an issue at query.q that has a code, like every validation issue", () => {
  assert.deepEqual(queryWords("  deploy  the   app "), ["deploy", "the", "app"]);
  for (const q of ["!!!", "\\", "-- ''"]) {
    assert.throws(
      () => queryWords(q),
      (e: unknown) => e instanceof ApiError && e.status === 400 && JSON.stringify((e.data as { issues: unknown[] }).issues) === JSON.stringify([{ path: "query.q", message: "must contain a letter or a digit", code: "invalid_format" }]),
      q,
    );
  }
});
