import assert from "node:assert/strict";
import { test } from "node:test";
import { median, percentile, summarize } from "./load.ts";

const oneToHundred = Array.from({ length: 100 }, (_, i) => i + 1);

test("percentile: nearest rank on 1..100 is the value itself", () => {
  assert.equal(percentile(oneToHundred, 50), 50);
  assert.equal(percentile(oneToHundred, 90), 90);
  assert.equal(percentile(oneToHundred, 99), 99);
  assert.equal(percentile(oneToHundred, 100), 100);
  assert.equal(percentile(oneToHundred, 99.5), 100);
});

test("percentile: p0 is the minimum, p100 the maximum", () => {
  assert.equal(percentile([3, 5, 8], 0), 3);
  assert.equal(percentile([3, 5, 8], 100), 8);
});

test("percentile: rounds the rank up (never interpolates)", () => {
  // 10 values: p99 needs rank ceil(9.9) = 10, so the slowest request counts.
  const ten = [1, 2, 3, 4, 5, 6, 7, 8, 9, 1000];
  assert.equal(percentile(ten, 99), 1000);
  assert.equal(percentile(ten, 90), 9);
  assert.equal(percentile(ten, 50), 5);
  assert.equal(percentile([1, 2], 50), 1);
  assert.equal(percentile([1, 2], 51), 2);
});

test("percentile: single value and empty input", () => {
  assert.equal(percentile([7], 1), 7);
  assert.equal(percentile([7], 99), 7);
  assert.ok(Number.isNaN(percentile([], 99)));
});

test("percentile: rejects p outside 0..100", () => {
  assert.throws(() => percentile([1], -1), RangeError);
  assert.throws(() => percentile([1], 101), RangeError);
  assert.throws(() => percentile([1], NaN), RangeError);
});

test("percentile: p99 of 3000 samples is the 2970th", () => {
  const xs = Array.from({ length: 3000 }, (_, i) => i + 1);
  assert.equal(percentile(xs, 99), 2970);
});

test("median of odd and even counts, unsorted input", () => {
  assert.equal(median([5, 1, 3]), 3);
  assert.equal(median([4, 1, 3, 2]), 2.5);
  assert.ok(Number.isNaN(median([])));
});

test("summarize: sorts latencies and derives throughput from the elapsed time", () => {
  const s = summarize({ latenciesMs: [4, 1, 3, 2], elapsedMs: 2000, timedOut: false });
  assert.equal(s.requests, 4);
  assert.equal(s.rps, 2);
  assert.equal(s.meanMs, 2.5);
  assert.equal(s.p50Ms, 2);
  assert.equal(s.p99Ms, 4);
  assert.equal(s.maxMs, 4);
});
