import assert from "node:assert/strict";
import { test } from "node:test";
import { accessPace, BURST_READ_MS, coalescedReads } from "./handshake-subscribe.ts";

/** A read whose answers the test releases by hand; records each read's argument. */
function manualRead() {
  const started: string[] = [];
  const finish: ((v: string) => void)[] = [];
  const fail: ((e: Error) => void)[] = [];
  const read = (arg: string) =>
    new Promise<string>((resolve, reject) => {
      started.push(arg);
      finish.push(resolve);
      fail.push(reject);
    });
  return { read, started, finish, fail };
}

/** Lets the event loop turn twice (a read starts on the turn after its first caller). */
const turns = async () => {
  await new Promise((r) => setImmediate(r));
  await new Promise((r) => setImmediate(r));
};

test("callers of one key in the same turn share one read, which starts on the next turn", async () => {
  const m = manualRead();
  const get = coalescedReads(m.read);
  const all = [get("k", "a1"), get("k", "a2"), get("k", "a3")];
  assert.deepEqual(m.started, [], "nothing is read inside the callers' turn");
  await turns();
  assert.deepEqual(m.started, ["a1"]);
  m.finish[0]!("one");
  assert.deepEqual(await Promise.all(all), ["one", "one", "one"]);
});

test("callers of one key that arrive during a read share the next read, which starts after them", async () => {
  const m = manualRead();
  const get = coalescedReads(m.read);
  const first = get("k", "a1");
  await turns();
  assert.deepEqual(m.started, ["a1"]);
  // Arrived while a1's read runs: that read began before them, so they wait for one more.
  const second = get("k", "a2");
  const third = get("k", "a3");
  await turns();
  assert.deepEqual(m.started, ["a1"]);
  m.finish[0]!("one");
  assert.equal(await first, "one");
  await turns();
  assert.deepEqual(m.started, ["a1", "a2"]);
  m.finish[1]!("two");
  assert.deepEqual(await Promise.all([second, third]), ["two", "two"]);
  // Nothing waiting: the next caller's read starts on the next turn.
  await turns();
  void get("k", "a4");
  await turns();
  assert.deepEqual(m.started, ["a1", "a2", "a4"]);
});

test("other keys read on their own, and a failed read fails exactly its callers", async () => {
  const m = manualRead();
  const get = coalescedReads(m.read);
  const x = get("x", "x1");
  const y = get("y", "y1");
  await turns();
  assert.deepEqual(m.started, ["x1", "y1"]);
  m.fail[0]!(new Error("x failed"));
  m.finish[1]!("y");
  await assert.rejects(x, /x failed/);
  assert.equal(await y, "y");
});

test("paced: in a burst, reads of one key start at most every pace(ms), each joining every caller of its wait", async () => {
  const m = manualRead();
  const durations: number[] = [];
  const get = coalescedReads(m.read, { pace: (ms) => (durations.push(ms), 40) });
  const first = get("k", "a1");
  await turns();
  assert.deepEqual(m.started, ["a1"], "the first caller after a quiet spell is read on the next turn");
  await new Promise((r) => setTimeout(r, 5));
  m.finish[0]!("one");
  assert.equal(await first, "one");
  await turns();
  assert.equal(durations.length, 1);
  assert.ok(durations[0]! >= 4, `pace is given how long the read took (${durations[0]} ms)`);
  // The burst goes on: callers over several turns share one read, which waits out the 40 ms.
  const later = [get("k", "a2")];
  await turns();
  later.push(get("k", "a3"));
  await turns();
  later.push(get("k", "a4"));
  await turns();
  assert.deepEqual(m.started, ["a1"], "no read yet: the last one started less than 40 ms ago");
  // Another key is not held back by this one's burst.
  void get("other", "o1");
  await turns();
  assert.deepEqual(m.started, ["a1", "o1"]);
  await new Promise((r) => setTimeout(r, 60));
  assert.deepEqual(m.started, ["a1", "o1", "a2"], "one read for a2, a3 and a4, started after all of them");
  m.finish[2]!("two");
  assert.deepEqual(await Promise.all(later), ["two", "two", "two"]);
  // Quiet for 40 ms after the last read started: the next caller is read on the next turn again.
  await new Promise((r) => setTimeout(r, 60));
  void get("k", "a5");
  await turns();
  assert.deepEqual(m.started, ["a1", "o1", "a2", "a5"]);
});

test("access checks are paced on the embedded database only: a quarter of the time at most, at most every BURST_READ_MS", () => {
  assert.equal(accessPace("postgres", 3), 0);
  assert.equal(accessPace("pglite", 1), 4);
  assert.equal(accessPace(undefined, 1), 4, "a runtime that does not say is the embedded one");
  assert.equal(accessPace("pglite", 20), BURST_READ_MS);
});

test("a pace that throws paces nothing and leaves the key readable", async () => {
  const m = manualRead();
  const get = coalescedReads(m.read, {
    pace: () => {
      throw new Error("no runtime");
    },
  });
  const first = get("k", "a1");
  await turns();
  m.finish[0]!("one");
  assert.equal(await first, "one");
  await turns();
  const second = get("k", "a2");
  await turns();
  assert.deepEqual(m.started, ["a1", "a2"]);
  m.finish[1]!("two");
  assert.equal(await second, "two");
});
