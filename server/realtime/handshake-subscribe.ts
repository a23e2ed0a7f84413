import { z } from "zod";
import type { Caller } from "../auth/caller.ts";
import { ApiError, toApiError } from "../http/errors.ts";
import { credentialKey, type RateLimits } from "../http/rate-limit.ts";
import { getTodoOrThrow, requireProjectAccess } from "../services/access.ts";
import type { Room } from "./bus.ts";

// Subscribing in the Socket.IO handshake (docs/api.md "Real-time"): `auth.subscribe` names the
// todos and projects the connection should hear, e.g. `[{kind: "todo", id}]`. Each is checked like
// todo_subscribe / project_subscribe (the access module, a todo-scoped token's scope, the
// `subscribe` rate budget) and joined before the connection is up, so no event published after the
// client's `connect` can miss it, and a reconnect resubscribes by itself. The outcome reaches the
// client as the first event on the connection, `subscription`.

export const MAX_HANDSHAKE_SUBSCRIPTIONS = 100;

export const ZHandshakeSubscribe = z
  .array(z.object({ kind: z.enum(["todo", "project"]), id: z.string().trim().min(1).max(100) }).strict())
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

const roomOf = (t: SubscriptionTarget): Room => (t.kind === "todo" ? `todo:${t.id}` : `project:${t.id}`);

/** Checks every target for `caller`; returns the rooms to join and the outcome for the client. */
export async function checkHandshakeSubscriptions(
  caller: Caller,
  targets: SubscriptionTarget[],
  limits: RateLimits | undefined,
): Promise<{ rooms: Room[]; outcome: SubscriptionOutcome; running: string[] }> {
  const outcome: SubscriptionOutcome = { subscribed: [], refused: [] };
  const rooms: Room[] = [];
  // Todos whose turn was streaming: asked to write their reply before the client hears it is subscribed.
  const running: string[] = [];
  const seen = new Set<string>();
  for (const target of targets) {
    const room = roomOf(target);
    if (seen.has(room)) continue;
    seen.add(room);
    try {
      if (limits) {
        const budget = await limits.consume("subscribe", credentialKey(caller));
        if (!budget.allowed) throw new ApiError("TOO_MANY_REQUESTS", 'Rate limit "subscribe" exceeded');
      }
      if (target.kind === "todo") {
        const { todo } = await getTodoOrThrow(caller, target.id, "read");
        if (todo.status === "RUNNING") running.push(target.id);
      } else {
        if (caller.todoScope) throw new ApiError("FORBIDDEN", "This token is scoped to one todo; projects are not available to it");
        await requireProjectAccess(caller, target.id, "read");
      }
      rooms.push(room);
      outcome.subscribed.push(target);
    } catch (err) {
      const { error, unexpected } = toApiError(err);
      if (unexpected) throw err;
      outcome.refused.push({ ...target, code: error.code, message: error.message });
    }
  }
  return { rooms, outcome, running };
}
