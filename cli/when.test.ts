import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { CliError, EXIT } from "./exit-codes.ts";
import { parseWhen } from "./when.ts";

const NOW = Date.UTC(2026, 10, 27, 12, 0, 0);

describe("--at", () => {
  test("durations after now, with or without `in`, units combined", () => {
    assert.equal(parseWhen("30m", NOW), NOW + 30 * 60_000);
    assert.equal(parseWhen("in 2h", NOW), NOW + 2 * 3_600_000);
    assert.equal(parseWhen("1d12h", NOW), NOW + 36 * 3_600_000);
    assert.equal(parseWhen(" 1h 30m ", NOW), NOW + 90 * 60_000);
    assert.equal(parseWhen("2W", NOW), NOW + 14 * 86_400_000);
    assert.equal(parseWhen("45s", NOW), NOW + 45_000);
  });

  test("ISO 8601 date-times: local unless they name a zone; a date alone is local midnight", () => {
    assert.equal(parseWhen("2026-12-01T09:00Z", NOW), Date.UTC(2026, 11, 1, 9));
    assert.equal(parseWhen("2026-12-01T09:00+01:00", NOW), Date.UTC(2026, 11, 1, 8));
    assert.equal(parseWhen("2026-12-01 09:30", NOW), new Date(2026, 11, 1, 9, 30).getTime());
    assert.equal(parseWhen("2026-12-01", NOW), new Date(2026, 11, 1).getTime());
  });

  test("anything else, an impossible date, or the past is a usage error that shows examples", () => {
    for (const bad of ["tomorrow", "", "5", "in", "2026-13-45T10:00Z", "12/01/2026", "-30m", "2026-11-27T11:00Z", "0m"]) {
      assert.throws(
        () => parseWhen(bad, NOW),
        (err: unknown) => err instanceof CliError && err.exitCode === EXIT.USAGE && /e\.g\.|in the past/.test(err.message),
        bad,
      );
    }
  });
});
