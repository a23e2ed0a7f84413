// The streamed reply of a turn, held in memory: deltas go to subscribers (message.delta) at most
// every `publishMs`, and the text is written to the database coalesced, once per `persistMs` of
// the clock (and at once when asked: at a tool call, on a subscriber's flush, at the end). Text is always
// published before it is stored, so a reader never has stored text a delta has not announced,
// and a crash loses at most what was streamed since the last write (about `persistMs`).

/** Where the reply goes: the database and the event bus (server/agent/turn-stream.ts), or a test's fakes. */
export type ReplySink = {
  /** Publishes `delta`, which starts at `offset` in the reply's text (UTF-16 units). */
  publish(delta: string, offset: number): void;
  /** Appends `text` to the stored reply while the todo still runs; false when it no longer does (nothing written). */
  append(text: string): Promise<boolean>;
  /** Appends `text` whatever the todo's status: the turn stopped, and what it streamed is kept. */
  appendFinal(text: string): Promise<void>;
};

/** Timers, replaceable in tests. */
export type Clock = { now(): number; setTimeout(fn: () => void, ms: number): unknown; clearTimeout(handle: unknown): void };

const realClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => {
    const t = setTimeout(fn, ms);
    t.unref();
    return t;
  },
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
};

export type ReplyWriterOptions = {
  /** Deltas are published at most this often (0: at every piece). */
  publishMs: number;
  /** The text is written once per this many ms of the clock (at its multiples), besides the writes asked for (flush, finish). */
  persistMs: number;
  clock?: Clock;
  /** Called once when a write found the todo no longer running. */
  onHalt?: () => void;
};

export class ReplyWriter {
  /** The reply's whole text so far: stored, published and pending. */
  private text: string;
  private published: number;
  private stored: number;
  private lastPublish: number;
  private lastPersist: number;
  private publishTimer: unknown;
  private persistTimer: unknown;
  /** Writes run one at a time, in order. */
  private writing: Promise<unknown> = Promise.resolve();
  /** A write found the todo no longer running: nothing more is appended but the final write. */
  private halted = false;
  private closed = false;
  private readonly clock: Clock;

  constructor(
    private readonly sink: ReplySink,
    /** The reply's text as stored when the turn (re)started. */
    initial: string,
    private readonly opts: ReplyWriterOptions,
  ) {
    this.text = initial;
    this.published = initial.length;
    this.stored = initial.length;
    this.clock = opts.clock ?? realClock;
    this.lastPublish = this.lastPersist = this.clock.now();
  }

  /** The whole text streamed so far. */
  get content(): string {
    return this.text;
  }

  /** Whether a write found the todo no longer running. */
  get stopped(): boolean {
    return this.halted;
  }

  /** Adds streamed text: published and written when their intervals say so (timers catch a model that goes quiet). */
  push(piece: string): void {
    if (!piece || this.closed) return;
    this.text += piece;
    const now = this.clock.now();
    if (now - this.lastPublish >= this.opts.publishMs) this.publish();
    else this.publishTimer ??= this.clock.setTimeout(() => this.publish(), this.lastPublish + this.opts.publishMs - now);
    const due = this.persistDue();
    if (now >= due) void this.persist();
    else this.persistTimer ??= this.clock.setTimeout(() => void this.persist(), due - now);
  }

  /**
   * When the text is written next: the first point after the last write on the clock's grid of
   * persistMs (its multiples), not persistMs after that write, so the writes of every turn in the
   * process fall on the same instants and go to the database together (./reply-appends.ts). A
   * crash still loses at most what was streamed in the last persistMs.
   */
  private persistDue(): number {
    const every = this.opts.persistMs;
    return every > 0 ? (Math.floor(this.lastPersist / every) + 1) * every : this.lastPersist;
  }

  /** Publishes what was not yet, as one delta. */
  publish(): void {
    if (this.publishTimer !== undefined) this.clock.clearTimeout(this.publishTimer);
    this.publishTimer = undefined;
    this.lastPublish = this.clock.now();
    if (this.published >= this.text.length) return;
    const offset = this.published;
    this.published = this.text.length;
    this.sink.publish(this.text.slice(offset), offset);
  }

  /**
   * Publishes and writes everything streamed so far (at a tool call, for a subscriber, before the
   * turn ends); resolves false when the todo no longer runs.
   */
  flush(): Promise<boolean> {
    return this.persist();
  }

  private persist(): Promise<boolean> {
    // Ended (finish, settle) or given up (close): the end writes the text, or another process does.
    if (this.closed) return this.writing.then(() => !this.halted);
    if (this.persistTimer !== undefined) this.clock.clearTimeout(this.persistTimer);
    this.persistTimer = undefined;
    this.lastPersist = this.clock.now();
    this.publish();
    const write = this.writing.then(async () => {
      if (this.halted) return false;
      const upTo = this.published;
      if (upTo <= this.stored) return true;
      if (!(await this.sink.append(this.text.slice(this.stored, upTo)))) {
        this.halt();
        return false;
      }
      this.stored = Math.max(this.stored, upTo);
      return true;
    });
    this.writing = write.catch(() => undefined);
    return write;
  }

  private halt() {
    if (this.halted) return;
    this.halted = true;
    this.opts.onHalt?.();
  }

  /**
   * The turn stopped (paused, cancelled, the runner stopping, the model failing): publishes the
   * rest and writes everything not stored yet, whatever the todo's status. Then nothing more.
   */
  async finish(): Promise<void> {
    if (!this.closed) this.publish();
    this.close();
    await this.writing;
    if (this.stored < this.text.length) {
      await this.sink.appendFinal(this.text.slice(this.stored));
      this.stored = this.text.length;
    }
  }

  /** Publishes the rest and waits for the writes in flight; the caller stores the full text itself (the turn's end). */
  async settle(): Promise<void> {
    if (!this.closed) this.publish();
    this.close();
    await this.writing;
  }

  /** Stops the timers and takes no more text (the lease was lost: another process carries on from what is stored). */
  close(): void {
    this.closed = true;
    if (this.publishTimer !== undefined) this.clock.clearTimeout(this.publishTimer);
    if (this.persistTimer !== undefined) this.clock.clearTimeout(this.persistTimer);
    this.publishTimer = this.persistTimer = undefined;
  }
}
