import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { isBlank } from "./body.ts";

// The blank-body rule was "the body read as latin1 trims to nothing"; isBlank must answer the same
// for every body without converting it to a string.
test("isBlank answers as latin1 + trim() did, for any bytes", () => {
  const near = fc.constantFrom(0x00, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x1f, 0x20, 0x21, 0x85, 0x9f, 0xa0, 0xa1, 0xff);
  fc.assert(
    fc.property(fc.array(fc.oneof(near, fc.integer({ min: 0, max: 255 })), { maxLength: 40 }), (arr) => {
      const bytes = Uint8Array.from(arr);
      assert.equal(isBlank(bytes), Buffer.from(bytes).toString("latin1").trim() === "");
    }),
    { numRuns: 5000 },
  );
  assert.equal(isBlank(new Uint8Array()), true);
  assert.equal(isBlank(Uint8Array.from([0x20, 0x0a, 0xa0, 0x09])), true);
  assert.equal(isBlank(Uint8Array.from([0x20, 0x7b])), false);
});
