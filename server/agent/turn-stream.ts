// One turn: take the lease, open (or resume) the turn, then the streaming loop: the provider's
// deltas are appended to the reply at most every flushMs (a "step": each also checks that the todo
// still runs), while a heartbeat renews the lease.
import type { TAgentSettings } from "../../lib/schemas/agent.ts";
import { db } from "../runtime.ts";
import { publishTodo } from "../services/todos/events.ts";
import type { TodoRef } from "../services/todos/lifecycle.ts";
import { asObject } from "../services/todos/serialize.ts";
import type { AgentProvider } from "./provider.ts";
import { dropLease, takeLease, type LeaseHolder, type Turn } from "./turn-lease.ts";
import { finishTurn, history, interrupted, openTurn } from "./turn-store.ts";

export type StreamContext = LeaseHolder & { flushMs: number; stopping(): boolean };
export type TurnContext = StreamContext & { providers: Record<string, AgentProvider>; defaultProvider: string };

/** One turn of a RUNNING todo, or its continuation after a pause or a restart. True when another turn should follow. */
export async function runTurn(ctx: TurnContext, todoId: string): Promise<boolean | "busy"> {
  const todo = await db().todo.findUnique({ where: { id: todoId }, select: { id: true, projectId: true, status: true, agentSettings: true } });
  if (!todo || todo.status !== "RUNNING") return false;
  const leased = await takeLease(ctx, todoId);
  if (leased !== "ok") return leased === "busy" ? "busy" : false;
  const settings = asObject(todo.agentSettings) as TAgentSettings;
  const providerName = settings.provider ?? ctx.defaultProvider;
  const provider = ctx.providers[providerName];
  if (!provider) throw new Error(`Agent provider "${providerName}" is not configured on this server`);

  const turn = await openTurn(todo);
  if (turn === "stopped") {
    await dropLease(todoId);
    return false;
  }
  if (!turn) return finishTurn(todo, null, provider, settings, "", null);
  return streamTurn(ctx, todo, turn, provider, settings);
}

/** Streams the turn's reply and ends it; true when another turn should follow. */
export async function streamTurn(ctx: StreamContext, todo: TodoRef, turn: Turn, provider: AgentProvider, settings: TAgentSettings): Promise<boolean> {
  const todoId = todo.id;
  const messages = await history(todoId, turn.messageId);
  const current = await db().message.findUniqueOrThrow({ where: { id: turn.messageId }, select: { content: true } });
  const controller = new AbortController();
  const stream = provider.stream({ messages, settings, resumeFrom: current.content }, controller.signal);

  let written = current.content;
  let buffer = "";
  let lastFlush = Date.now();
  // The lease is renewed on a timer, not per piece, so a slow model does not lose it; losing it
  // (another process took the turn over) stops this one without writing anything more.
  let lost = false;
  let renewing: Promise<unknown> = Promise.resolve();
  const heartbeat = setInterval(() => {
    renewing = takeLease(ctx, todoId, true)
      .then((r) => {
        if (r !== "ok") {
          lost = true;
          controller.abort();
        }
      })
      .catch(() => undefined);
  }, ctx.leaseMs / 3);
  heartbeat.unref();
  /** Appends what was streamed since the last step, in one statement that also checks the todo still runs. */
  const flush = async (): Promise<"go" | "stop"> => {
    if (lost || ctx.stopping()) return "stop";
    if (!buffer) {
      const status = (await db().todo.findUnique({ where: { id: todoId }, select: { status: true } }))?.status;
      return status === "RUNNING" ? "go" : "stop";
    }
    const appended = await db().$executeRaw`
      UPDATE "Message" SET "content" = "content" || ${buffer}, "updatedAt" = (now() AT TIME ZONE 'UTC')
      WHERE "id" = ${turn.messageId} AND EXISTS (SELECT 1 FROM "Todo" WHERE "id" = ${todoId} AND "status" = 'RUNNING')`;
    if (appended === 0) return "stop";
    // `offset`: where the delta starts in the reply's text (UTF-16 units, as JSON strings count), so
    // a page that loaded the reply mid-stream appends exactly what it lacks, and sees a gap.
    publishTodo("message.delta", todo, { messageId: turn.messageId, delta: buffer, offset: written.length });
    written += buffer;
    buffer = "";
    lastFlush = Date.now();
    return "go";
  };
  const stop = async () => {
    clearInterval(heartbeat);
    await renewing;
    return lost ? false : interrupted(todo, turn, written, provider.name);
  };
  try {
    for await (const delta of stream.deltas) {
      buffer += delta;
      if (Date.now() - lastFlush >= ctx.flushMs && (await flush()) === "stop") {
        controller.abort();
        return stop();
      }
    }
  } catch (err) {
    if (controller.signal.aborted) return stop();
    // The provider failed: what it did send is kept with the reply, which then fails.
    await flush().catch(() => undefined);
    throw err;
  } finally {
    clearInterval(heartbeat);
  }
  if ((await flush()) === "stop") return stop();
  await renewing;
  if (lost) return false;
  return finishTurn(todo, turn, provider, settings, written, stream.usage());
}
