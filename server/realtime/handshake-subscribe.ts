import { z } from "zod";
import type { Caller } from "../auth/caller.ts";
import { ApiError, toApiError } from "../http/errors.ts";
import { credentialKey, ipKey, type RateLimits } from "../http/rate-limit.ts";
import { db, runtime } from "../runtime.ts";
import { requireProjectAccess, requireTodoAccess } from "../services/access.ts";
import type { Room } from "./bus.ts";
import { publicProjectRoom, publicRoom } from "./public-todos.ts";

// Subscribing in the Socket.IO handshake (docs/api.md "Real-time"): `auth.subscribe` names the
// todos and projects the connection should hear, e.g. `[{kind: "todo", id}]`. Each is checked like
// todo_subscribe / project_subscribe (the access module, a todo-scoped token's scope, the
// `subscribe` rate budget) and joined before the connection is up, so no event published after the
// client's `connect` can miss it, and a reconnect resubscribes by itself. The outcome reaches the
// client as the first event on the connection, `subscription`. `{kind: "publicTodo", id}` asks
// for a public todo's changes (server/realtime/public-todos.ts): it needs no credential, only that
// the todo is public (todo_getPublic's rule), so a connection naming only such targets may be
// anonymous.

export const MAX_HANDSHAKE_SUBSCRIPTIONS = 100;

export const ZHandshakeSubscribe = z
  .array(z.object({ kind: z.enum(["todo", "project", "publicTodo"]), id: z.string().trim().min(1).max(100) }).strict())
  .max(MAX_HANDSHAKE_SUBSCRIPTIONS);

export type SubscriptionTarget = z.infer<typeof ZHandshakeSubscribe>[number];

/** The `subscription` event: what was joined and what was refused (with the error code todo_subscribe would answer). */
export type SubscriptionOutcome = {
  subscribed: SubscriptionTarget[];
  refused: (SubscriptionTarget & { code: string; message: string })[];
};

export const SUBSCRIPTION_EVENT = "subscription";

/** Parses `auth.subscribe`; undefined when absent, an ApiError (BAD_REQUEST) when malformed. */
export function parseHandshakeSubscribe(value: unknown): SubscriptionTarget[] | undefined {
  if (value === undefined) return undefined;
  const parsed = ZHandshakeSubscribe.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ApiError("BAD_REQUEST", `Invalid auth.subscribe: ${issue ? `${["auth", "subscribe", ...issue.path.map(String)].join(".")}: ${issue.message}` : "malformed"}`);
  }
  return parsed.data;
}

const roomOf = (t: SubscriptionTarget): Room => (t.kind === "publicTodo" ? publicRoom(t.id) : t.kind === "todo" ? `todo:${t.id}` : `project:${t.id}`);

/** On the embedded database, in a burst, reads of one key start at most this often (accessPace). */
export const BURST_READ_MS = 25;
/** …and keep the event loop busy at most this share of the burst. */
const EMBEDDED_READ_SHARE = 0.25;

/**
 * Runs `read` once for all the callers of one key that arrived before it started: handshakes come
 * in bursts (a page's or a fleet's clients reconnecting after a restart, a thousand CLI clients on
 * one todo), and a burst then costs a few queries, not one per connection. The first caller after
 * a quiet spell is read on the next turn of the event loop (`setImmediate`, as DataLoader batches).
 * Callers that arrive while a read runs share the next one, which starts when it returns, and no
 * sooner than `pace(ms)` after it started (`ms`: how long it took); the default paces nothing.
 * Every read starts after all of its callers arrived, so none gets an answer older than its own
 * handshake.
 */
export function coalescedReads<A, T>(read: (arg: A) => Promise<T>, opts: { pace?: (readMs: number) => number } = {}): (key: string, arg: A) => Promise<T> {
  type Waiter = { arg: A; resolve(v: T): void; reject(e: unknown): void };
  const pace = opts.pace ?? (() => 0);
  const waiting = new Map<string, Waiter[]>();
  /** Keys whose read runs or is about to start, with when the next may start. */
  const running = new Map<string, number>();
  const schedule = (key: string) => {
    const wait = (running.get(key) ?? -Infinity) - performance.now();
    if (wait > 0) setTimeout(start, wait, key);
    else setImmediate(start, key);
  };
  const start = (key: string) => {
    const waiters = waiting.get(key);
    if (!waiters) {
      // Nobody came while the last read ran and its pace ran out: the next caller is read at once.
      running.delete(key);
      return;
    }
    waiting.delete(key);
    const startedAt = performance.now();
    running.set(key, Infinity);
    read(waiters[0]!.arg)
      .then(
        (v) => waiters.forEach((w) => w.resolve(v)),
        (e: unknown) => waiters.forEach((w) => w.reject(e)),
      )
      .finally(() => {
        let next = startedAt;
        try {
          next += pace(performance.now() - startedAt);
        } catch {
          // A pace that fails paces nothing; the key must never stay marked as reading.
        }
        running.set(key, next);
        schedule(key);
      });
  };
  return (key, arg) =>
    new Promise<T>((resolve, reject) => {
      const waiters = waiting.get(key) ?? [];
      waiters.push({ arg, resolve, reject });
      waiting.set(key, waiters);
      if (!running.has(key)) {
        running.set(key, -Infinity);
        schedule(key);
      }
    });
}

/**
 * How soon after a read of one access check the next may start. On the embedded database a read
 * runs in this thread (Prisma and PGlite's WebAssembly): one on every turn joined only the one or
 * two handshakes that reached the check in that turn (about a statement per two connections), so
 * in a burst its reads may keep the loop busy a quarter of the time at most, and start at most
 * every BURST_READ_MS. PostgreSQL's reads wait on the network, and the handshakes that arrive
 * meanwhile already share the next one: not paced.
 */
export function accessPace(database: "pglite" | "postgres" | undefined, readMs: number): number {
  return database === "postgres" ? 0 : Math.min(BURST_READ_MS, readMs / EMBEDDED_READ_SHARE);
}

// Checked like todo_subscribe / project_subscribe (a public todo like todo_getPublic). The answer
// depends on the user, a token's todo scope and the target only, so equal checks at the same time
// share one read.
const readAccess = coalescedReads(async ({ caller, target }: { caller: Caller | null; target: SubscriptionTarget }): Promise<{ running: boolean; projectId?: string }> => {
  if (target.kind === "publicTodo") {
    const todo = await db().todo.findUnique({ where: { id: target.id }, select: { isPublic: true, projectId: true, status: true } });
    // A private todo answers exactly like a missing one.
    if (!todo?.isPublic) throw new ApiError("NOT_FOUND", "Todo not found");
    // A streaming reply reaches public viewers as deltas too: written first, like a todo's.
    return { running: todo.status === "RUNNING", projectId: todo.projectId };
  }
  if (!caller) throw new ApiError("UNAUTHORIZED", "Missing, invalid or expired credential");
  if (target.kind === "todo") {
    const { status } = await requireTodoAccess(caller, target.id, "read");
    return { running: status === "RUNNING" };
  }
  if (caller.todoScope) throw new ApiError("FORBIDDEN", "This token is scoped to one todo; projects are not available to it");
  await requireProjectAccess(caller, target.id, "read");
  return { running: false };
}, { pace: (readMs) => accessPace(runtime().database, readMs) });
const checkAccess = (caller: Caller | null, target: SubscriptionTarget) =>
  readAccess(JSON.stringify(target.kind === "publicTodo" ? [target.kind, target.id] : [caller?.userId ?? null, caller?.todoScope ?? null, target.kind, target.id]), { caller, target });

/**
 * Checks every target for `caller` (null: an anonymous connection, public todos only, counted
 * against the `anonymous` budget of its address `ip`); returns the rooms to join and the outcome
 * for the client.
 */
export async function checkHandshakeSubscriptions(
  caller: Caller | null,
  targets: SubscriptionTarget[],
  limits: RateLimits | undefined,
  ip = "",
): Promise<{ rooms: Room[]; outcome: SubscriptionOutcome; running: string[]; publicTodos: Record<string, string> }> {
  const outcome: SubscriptionOutcome = { subscribed: [], refused: [] };
  const rooms: Room[] = [];
  // Todos whose turn was streaming: asked to write their reply before the client hears it is subscribed.
  const running: string[] = [];
  // Public todos heard, with their projects (a deleted project takes its todos without a todo.deleted each).
  const publicTodos: Record<string, string> = {};
  const seen = new Set<string>();
  for (const target of targets) {
    const room = roomOf(target);
    if (seen.has(room)) continue;
    seen.add(room);
    try {
      if (limits) {
        const budget = caller ? await limits.consume("subscribe", credentialKey(caller)) : await limits.consume("anonymous", ipKey(ip));
        if (!budget.allowed) throw new ApiError("TOO_MANY_REQUESTS", `Rate limit "${caller ? "subscribe" : "anonymous"}" exceeded`);
      }
      const access = await checkAccess(caller, target);
      if (access.running) running.push(target.id);
      rooms.push(room);
      if (target.kind === "publicTodo" && access.projectId) {
        publicTodos[target.id] = access.projectId;
        rooms.push(publicProjectRoom(access.projectId));
      }
      outcome.subscribed.push(target);
    } catch (err) {
      const { error, unexpected } = toApiError(err);
      if (unexpected) throw err;
      outcome.refused.push({ ...target, code: error.code, message: error.message });
    }
  }
  return { rooms, outcome, running, publicTodos };
}
