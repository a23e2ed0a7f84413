import assert from "node:assert/strict";
import { test } from "node:test";
import { coalescedReads } from "./handshake-subscribe.ts";

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
