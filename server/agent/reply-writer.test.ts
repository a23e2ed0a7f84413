import { test } from "node:test";
import assert from "node:assert/strict";
import { ReplyWriter, type Clock, type ReplySink } from "./reply-writer.ts";

/** A clock moved by hand: timers fire when `advance` passes their time. */
class ManualClock implements Clock {
  t = 0;
  private timers = new Map<number, { at: number; fn: () => void }>();
  private next = 1;
  now = () => this.t;
  setTimeout = (fn: () => void, ms: number) => {
    const id = this.next++;
    this.timers.set(id, { at: this.t + ms, fn });
    return id;
  };
  clearTimeout = (h: unknown) => void this.timers.delete(h as number);
  /** Moves time forward by `ms`, firing the timers due on the way (in order). */
  async advance(ms: number) {
    const end = this.t + ms;
    for (;;) {
      const due = [...this.timers.entries()].filter(([, x]) => x.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.timers.delete(due[0]);
      this.t = due[1].at;
      due[1].fn();
      await settle();
    }
    this.t = end;
    await settle();
  }
}
const settle = () => new Promise((r) => setImmediate(r));

/** A sink that records what it was asked: the stored text, each write's time, every delta. */
function recordingSink(clock: ManualClock, opts: { running?: () => boolean } = {}) {
  const sink = {
    stored: "",
    writes: [] as { at: number; text: string; final: boolean }[],
    deltas: [] as { delta: string; offset: number }[],
    publish(delta: string, offset: number) {
      sink.deltas.push({ delta, offset });
    },
    async append(text: string) {
      if (opts.running && !opts.running()) return false;
      sink.stored += text;
      sink.writes.push({ at: clock.now(), text, final: false });
      return true;
    },
    async appendFinal(text: string) {
      sink.stored += text;
      sink.writes.push({ at: clock.now(), text, final: true });
    },
  } satisfies ReplySink & Record<string, unknown>;
  return sink;
}

test("a reply streamed a piece every 100 ms is published at every piece but written at most every 500 ms", async () => {
  const clock = new ManualClock();
  const sink = recordingSink(clock);
  const w = new ReplyWriter(sink, "", { publishMs: 0, persistMs: 500, clock });
  for (let i = 0; i < 20; i++) {
    w.push(`w${i} `);
    await clock.advance(100);
  }
  // Every piece went out as its own delta, in order, at the right offsets.
  assert.equal(sink.deltas.length, 20);
  let offset = 0;
  for (const d of sink.deltas) {
    assert.equal(d.offset, offset);
    offset += d.delta.length;
  }
  // 2 s of streaming: 4 writes (at 500, 1000, 1500, 2000 ms), never two within 500 ms.
  assert.deepEqual(
    sink.writes.map((x) => x.at),
    [500, 1000, 1500, 2000],
  );
  for (let i = 1; i < sink.writes.length; i++) assert.ok(sink.writes[i]!.at - sink.writes[i - 1]!.at >= 500);
  assert.equal(sink.stored, w.content);
});

test("deltas are batched to at most one per publishMs, and text stored is never ahead of text published", async () => {
  const clock = new ManualClock();
  const sink = recordingSink(clock);
  const w = new ReplyWriter(sink, "", { publishMs: 50, persistMs: 500, clock });
  for (let i = 0; i < 40; i++) {
    w.push("ab");
    await clock.advance(10);
    const published = sink.deltas.reduce((n, d) => n + d.delta.length, 0);
    assert.ok(sink.stored.length <= published, "stored text was announced first");
  }
  await clock.advance(1000);
  // 400 ms of pieces every 10 ms: at most one delta per 50 ms, 9 or fewer, with all the text.
  assert.ok(sink.deltas.length <= 9, `${sink.deltas.length} deltas`);
  assert.equal(sink.deltas.map((d) => d.delta).join(""), "ab".repeat(40));
  assert.equal(sink.stored, "ab".repeat(40), "the timer wrote the rest once the model went quiet");
});

test("a flush (a tool call, a subscriber) writes everything at once; settle leaves the end to the caller", async () => {
  const clock = new ManualClock();
  const sink = recordingSink(clock);
  const w = new ReplyWriter(sink, "Before. ", { publishMs: 50, persistMs: 500, clock });
  w.push("Let me ");
  await clock.advance(10);
  w.push("check.");
  assert.equal(await w.flush(), true);
  assert.equal(sink.stored, "Let me check.", "appended to what was stored before");
  assert.equal(sink.deltas.map((d) => d.delta).join(""), "Let me check.");
  assert.equal(sink.deltas[0]!.offset, "Before. ".length);
  w.push(" Done.");
  await w.settle();
  assert.equal(w.content, "Before. Let me check. Done.");
  assert.equal(sink.deltas.map((d) => d.delta).join(""), "Let me check. Done.", "the rest is published at the end");
  assert.equal(sink.stored, "Let me check.", "the end's whole-reply write is the caller's");
  // Nothing is written after the end, even on a late flush.
  assert.equal(await w.flush(), true);
  await clock.advance(2000);
  assert.equal(sink.writes.length, 1);
});

test("a crash loses at most what was streamed in the last persist interval", async () => {
  const clock = new ManualClock();
  const sink = recordingSink(clock);
  const w = new ReplyWriter(sink, "", { publishMs: 0, persistMs: 500, clock });
  const pushedAt: { at: number; upTo: number }[] = [];
  for (let i = 0; i < 37; i++) {
    w.push(`piece${i} `);
    pushedAt.push({ at: clock.now(), upTo: w.content.length });
    await clock.advance(70);
    // If the process died now, the stored text would be sink.stored: it holds everything
    // streamed more than 500 ms ago, and is a prefix of the reply.
    const old = pushedAt.filter((p) => p.at <= clock.now() - 500).at(-1);
    if (old) assert.ok(sink.stored.length >= old.upTo, `at ${clock.now()} ms: ${sink.stored.length} stored, ${old.upTo} streamed by ${old.at} ms`);
    assert.ok(w.content.startsWith(sink.stored));
  }
});

test("a write that finds the todo no longer running halts the writer; finish then keeps all that was streamed", async () => {
  const clock = new ManualClock();
  let running = true;
  const sink = recordingSink(clock, { running: () => running });
  let halted = 0;
  const w = new ReplyWriter(sink, "", { publishMs: 0, persistMs: 100, clock, onHalt: () => halted++ });
  w.push("one ");
  await clock.advance(100);
  assert.equal(sink.stored, "one ");
  running = false; // paused from another process, whose signal never came
  w.push("two ");
  await clock.advance(100);
  assert.equal(halted, 1);
  assert.equal(w.stopped, true);
  w.push("three ");
  await clock.advance(500);
  assert.equal(sink.stored, "one ", "no conditional write after the halt");
  await w.finish();
  assert.equal(sink.stored, "one two three ", "the stopped turn keeps what it streamed");
  assert.deepEqual(
    sink.writes.map((x) => x.final),
    [false, true],
  );
  assert.equal(sink.deltas.map((d) => d.delta).join(""), "one two three ");
});

test("close (the lease was lost) writes nothing more", async () => {
  const clock = new ManualClock();
  const sink = recordingSink(clock);
  const w = new ReplyWriter(sink, "", { publishMs: 0, persistMs: 500, clock });
  w.push("mine ");
  w.close();
  w.push("more");
  await clock.advance(2000);
  assert.equal(sink.writes.length, 0);
  assert.equal(w.content, "mine ");
});

test("writers started at different moments write on the same instants (the clock's multiples of persistMs), so their writes meet", async () => {
  const clock = new ManualClock();
  await clock.advance(130);
  const a = recordingSink(clock);
  const wa = new ReplyWriter(a, "", { publishMs: 0, persistMs: 500, clock });
  wa.push("a0 ");
  await clock.advance(240);
  const b = recordingSink(clock);
  const wb = new ReplyWriter(b, "", { publishMs: 0, persistMs: 500, clock });
  for (let i = 1; i <= 15; i++) {
    wa.push(`a${i} `);
    wb.push(`b${i} `);
    await clock.advance(100);
  }
  // From 130 and 370 ms on, streaming until 1870 ms: both write at 500, 1000 and 1500 ms.
  assert.deepEqual(a.writes.map((x) => x.at), [500, 1000, 1500]);
  assert.deepEqual(b.writes.map((x) => x.at), [500, 1000, 1500]);
});
