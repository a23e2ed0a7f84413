// How a streaming turn learns, without reading its todo's row, that it must stop or write its reply
// now. The lifecycle (server/services/todos/lifecycle.ts) sends `stop` after the commit of every
// change that takes a todo out of RUNNING (pause, complete, cancel, an error, a deletion), and
// todo_subscribe sends `flush` so that the reply it then reads holds every delta sent before the
// connection joined the todo's room; todo_update sends `public` / `private` when a running todo is
// made public or private, so the reply's deltas start or stop reaching its public viewers
// (server/realtime/public-todos.ts) in whichever process streams it. Each signal reaches the turns of this process at once, through
// this registry, and the other processes through the event bus's `turn.signal` effect
// (server/realtime/sockets.ts relays it through the Socket.IO adapter when there is Redis).
// Without Redis and with several processes (a setup without the adapter), a turn still stops at its
// next coalesced write, which only appends while the todo is RUNNING (server/agent/turn-stream.ts).
import { log } from "../log.ts";
import type { EventBus } from "../realtime/bus.ts";
import { runtime } from "../runtime.ts";

export type TurnSignal = "stop" | "flush" | "public" | "private";

/** What a running turn does with a signal; `flush` resolves once its reply is written. */
export type TurnWatcher = { stop(): void; flush(): Promise<void>; /** The todo was made public (true) or private. */ publicity?(isPublic: boolean): void };

export class TurnSignals {
  private readonly watchers = new Map<string, Set<TurnWatcher>>();

  /** Registers a turn of `todoId` in this process; the returned function unregisters it. */
  watch(todoId: string, watcher: TurnWatcher): () => void {
    let set = this.watchers.get(todoId);
    if (!set) this.watchers.set(todoId, (set = new Set()));
    set.add(watcher);
    return () => {
      set.delete(watcher);
      if (set.size === 0 && this.watchers.get(todoId) === set) this.watchers.delete(todoId);
    };
  }

  /** Whether a turn of the todo runs in this process. */
  has(todoId: string): boolean {
    return this.watchers.has(todoId);
  }

  /** Hands the signal to this process's turns of the todo; resolves once each did what it asks (never rejects). */
  async deliver(todoId: string, signal: TurnSignal): Promise<void> {
    const set = this.watchers.get(todoId);
    if (!set) return;
    await Promise.all(
      [...set].map(async (w) => {
        try {
          if (signal === "stop") w.stop();
          else if (signal === "flush") await w.flush();
          else w.publicity?.(signal === "public");
        } catch (err) {
          log.warn("a turn could not act on a signal", { todoId, signal, error: err instanceof Error ? err.message : String(err) });
        }
      }),
    );
  }

  /** Turns watched in this process (tests). */
  get size(): number {
    return this.watchers.size;
  }
}

/** The process's registry. */
export const turnSignals = new TurnSignals();

/**
 * Sends a signal to the todo's running turn, wherever it runs: this process's at once, the other
 * processes' through the bus's `turn.signal` effect. Resolves once this process's turns acted and,
 * for `flush`, once the other processes confirmed (or did not in time); never rejects.
 */
export async function signalTurn(todoId: string, signal: TurnSignal): Promise<void> {
  let bus: EventBus | undefined;
  try {
    bus = runtime().bus;
  } catch {
    bus = undefined; // no runtime (a script): this process only
  }
  await Promise.all([turnSignals.deliver(todoId, signal), bus?.affect({ kind: "turn.signal", todoId, signal })]);
}
