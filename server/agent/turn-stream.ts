// One turn: take the lease, open (or resume) the turn, then the streaming loop over the AI SDK's
// streamText: the reply is held in memory (./reply-writer.ts), its deltas published at most every
// flushMs and its text written coalesced, at most every persistMs, at every tool call and at the
// end; tool calls are written as steps of the reply as they happen, usage is counted per model
// step, and a heartbeat renews the lease. Pause, complete and cancel reach the turn as a signal
// from the lifecycle (./turn-signals.ts); they, a lost lease and the runner's shutdown abort the
// model call through its abort signal, and what was streamed is kept.
import { hasToolCall, stepCountIs, streamText, type ModelMessage, type StopCondition, type ToolSet } from "ai";
import type { TAgentSettings } from "../../lib/schemas/agent.ts";
import { db } from "../runtime.ts";
import { publishTodo } from "../services/todos/events.ts";
import type { TodoRef } from "../services/todos/lifecycle.ts";
import { asObject } from "../services/todos/serialize.ts";
import { summariseIfLong, SUMMARY_HEADING } from "./context-summary.ts";
import { IdleTimeoutError } from "./providers/configured.ts";
import { CONTINUE_PROMPT, type AgentProvider, type TurnUsage } from "./provider.ts";
import { RepeatedPrefix } from "./resume.ts";
import { AGENT_TOOLS, buildTools, type AgentToolDef } from "./tools/index.ts";
import { SPAWN_TOOL } from "./tools/spawn-subtodos.ts";
import { takeLease, type LeaseHolder, type Workflow } from "./turn-lease.ts";
import { beginTurn, finishTurn, history, interrupted, ToolSteps, type OpenedTurn } from "./turn-store.ts";
import { replyAppends } from "./reply-appends.ts";
import { ReplyWriter } from "./reply-writer.ts";
import { turnSignals } from "./turn-signals.ts";

export type StreamContext = LeaseHolder & {
  /** Deltas are published at most this often. */
  flushMs: number;
  /** The reply is written at most this often (and at every tool call and at the end); default PERSIST_MS. */
  persistMs?: number;
  stopping(): boolean;
  /** Calls `fn` when the runner starts stopping (shutdown); returns the unsubscribe. */
  onStopping?(fn: () => void): () => void;
  /** How long the model may stay silent (before its answer and between two parts); 0 or absent: no limit. */
  idleTimeoutMs?: number;
  /** Retries of a failed model call (the SDK's, with backoff); default 2. */
  maxRetries?: number;
  /** Model steps (calls) one turn may take: tool calls and the answer after them. */
  maxSteps?: number;
  /** The tools a model that takes tools is offered (default AGENT_TOOLS). */
  tools?: readonly AgentToolDef[];
};
export type TurnContext = StreamContext & { providers: Record<string, AgentProvider>; defaultProvider: string };

/** How often a streaming reply is written at most: a crash loses at most about this much of it. */
export const PERSIST_MS = 500;

/** Model calls per turn unless the runner says otherwise. */
export const MAX_STEPS = 8;

/**
 * One turn of a RUNNING todo, or its continuation after a pause or a restart. True when another turn
 * should follow; "busy" when the user's turns fill their limit, "held" when another live process holds the todo.
 */
export async function runTurn(ctx: TurnContext, todoId: string): Promise<boolean | "busy" | "held"> {
  // Watched before the turn opens: a pause committed after beginTurn's check reaches it.
  const watch = new TurnWatch();
  const unwatch = turnSignals.watch(todoId, watch);
  try {
    const begun = await beginTurn(ctx, todoId);
    if (begun === null || begun === "stopped") return false;
    if (begun === "busy" || begun === "held") return begun;
    const { todo, turn, workflow } = begun;
    // Read under the lock just now; a later todo_update of isPublic reaches the turn as a signal.
    watch.todo = todo;
    const settings = asObject(todo.agentSettings) as TAgentSettings;
    const providerName = settings.provider ?? ctx.defaultProvider;
    const provider = Object.hasOwn(ctx.providers, providerName) ? ctx.providers[providerName] : undefined;
    if (!provider) throw new Error(`Agent provider "${providerName}" is not configured on this server`);
    if (!turn) return await finishTurn(todo, null, provider, settings, "", null, null);
    return await streamTurn(ctx, todo, turn, provider, settings, watch, workflow);
  } finally {
    unwatch();
  }
}

/** A turn's end of the signals (./turn-signals.ts): stop aborts its model call, flush writes its reply, publicity follows isPublic. */
export class TurnWatch {
  readonly controller = new AbortController();
  writer?: ReplyWriter;
  /**
   * The todo the turn publishes its events with (deltas, steps, the reply). Its `isPublic` follows
   * the `public` / `private` signals, so the deltas reach the todo's public viewers exactly while
   * it is public (server/realtime/public-todos.ts) without a read per delta. A signal before the
   * turn read the todo is older than that read and changes nothing.
   */
  todo?: { isPublic: boolean };
  stop(): void {
    this.controller.abort();
  }
  publicity(isPublic: boolean): void {
    if (this.todo) this.todo.isPublic = isPublic;
  }
  async flush(): Promise<void> {
    await this.writer?.flush();
  }
}

/** Aborts its signal when `arm` is not followed by `disarm` within `ms`. */
class IdleTimer {
  readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  constructor(private readonly ms: number) {}
  arm(): void {
    this.disarm();
    if (this.ms > 0) this.timer = setTimeout(() => this.controller.abort(new IdleTimeoutError(this.ms)), this.ms);
  }
  disarm(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}

/** Stops the loop after a step with a call whose tool says its result ends the turn (AgentToolDef.endsTurn). */
function endsTurn(defs: readonly AgentToolDef[]): StopCondition<ToolSet> {
  const enders = new Map(defs.flatMap((d) => (d.endsTurn ? [[d.name, d.endsTurn] as const] : [])));
  return ({ steps }) => steps.at(-1)?.toolResults.some((r) => enders.get(r.toolName)?.(r.output) === true) ?? false;
}

/** Streams the turn's reply and ends it; true when another turn should follow. */
export async function streamTurn(ctx: StreamContext, todo: TodoRef & { userId: string }, turn: OpenedTurn, provider: AgentProvider, settings: TAgentSettings, watch: TurnWatch, workflow?: Workflow): Promise<boolean> {
  const todoId = todo.id;
  // A model no longer allowed fails here, before anything connects.
  const choice = provider.modelFor(settings);
  const { controller } = watch;
  // A history too long for the model is summarised first (workflow.contextSummary).
  // (A new summary changes the workflow: history then reads it again.)
  const summarised = choice.contextWindow ? await summariseIfLong(todoId, turn.messageId, choice.model, choice.contextWindow, { signal: controller.signal, maxRetries: ctx.maxRetries }) : false;
  // A reply just opened is empty and has no blocks; only a resumed one is read back.
  const [{ summary, messages }, current] = await Promise.all([
    history(todoId, turn.messageId, summarised ? undefined : workflow),
    turn.created ? { content: "" } : db().message.findUniqueOrThrow({ where: { id: turn.messageId }, select: { content: true } }),
  ]);
  const idle = new IdleTimer(ctx.idleTimeoutMs ?? 0);
  const resumeFrom = current.content.trim() ? current.content : "";
  // System text (the settings' prompt, the context summary) goes in the call's system field;
  // system messages (sub-todo results) stay in place, as input of the turn.
  const system = [settings.systemPrompt?.trim() ? settings.systemPrompt : "", summary ? `${SUMMARY_HEADING}\n${summary}` : ""].filter(Boolean).join("\n\n");
  const prompt: ModelMessage[] = [
    ...messages.map((m) => (m.role === "system" ? { role: "user" as const, content: m.content } : m)),
    ...(resumeFrom
      ? [
          { role: "assistant" as const, content: resumeFrom },
          { role: "user" as const, content: CONTINUE_PROMPT },
        ]
      : []),
  ];
  const steps = new ToolSteps(todo, turn.messageId);
  if (!turn.created) await steps.init();
  const defs = ctx.tools ?? AGENT_TOOLS;
  const tools: ToolSet | undefined = choice.tools ? await buildTools({ todo, messageId: turn.messageId, steps, signal: controller.signal }, defs) : undefined;
  const result = streamText({
    model: choice.model,
    ...(system ? { system } : {}),
    messages: prompt,
    // Spawning sub-todos (or proposing a shell command) ends the turn: the todo waits, holding no turn.
    ...(tools && Object.keys(tools).length ? { tools, stopWhen: [stepCountIs(ctx.maxSteps ?? MAX_STEPS), hasToolCall(SPAWN_TOOL), endsTurn(defs)] } : {}),
    ...(choice.maxOutputTokens !== undefined ? { maxOutputTokens: choice.maxOutputTokens } : {}),
    ...(settings.temperature !== undefined ? { temperature: settings.temperature } : {}),
    maxRetries: ctx.maxRetries ?? 2,
    abortSignal: AbortSignal.any([controller.signal, idle.controller.signal]),
    // Failures come through the stream's error part (and are recorded on the todo), not the console.
    onError: () => undefined,
  });

  const skip = new RepeatedPrefix(resumeFrom);
  let usage: TurnUsage | null = null;
  const stepUsage: TurnUsage[] = [];
  // The reply streams from memory: deltas go out at most every flushMs, the text is written at most
  // every persistMs (one statement, which appends only while the todo still runs), at a tool call,
  // and at the end. Pause, complete and cancel come as a signal from the lifecycle (./turn-signals.ts),
  // never from reading the todo's row.
  const writer = new ReplyWriter(
    {
      publish: (delta, offset) => publishTodo("message.delta", todo, { messageId: turn.messageId, delta, offset }),
      // With the other turns' appends of the same moment, as one statement (./reply-appends.ts).
      append: (text) => replyAppends.append(turn.messageId, todoId, text),
      appendFinal: async (text) => {
        await db().$executeRaw`
          UPDATE "Message" SET "content" = "content" || ${text}, "updatedAt" = (now() AT TIME ZONE 'UTC')
          WHERE "id" = ${turn.messageId} AND "state" = 'PROCESSING'`;
      },
    },
    current.content,
    { publishMs: ctx.flushMs, persistMs: ctx.persistMs ?? PERSIST_MS, onHalt: () => controller.abort() },
  );
  watch.writer = writer;
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
  if (ctx.stopping()) controller.abort();
  const stopWatch = ctx.onStopping?.(() => controller.abort());
  const stop = async () => {
    clearInterval(heartbeat);
    await renewing;
    if (lost) {
      writer.close();
      return false;
    }
    return interrupted(todo, turn, writer, provider.name);
  };
  const iterator = result.fullStream[Symbol.asyncIterator]();
  try {
    for (;;) {
      idle.arm();
      let next: IteratorResult<(typeof result.fullStream extends AsyncIterable<infer P> ? P : never)>;
      try {
        next = await iterator.next();
      } finally {
        idle.disarm();
      }
      if (next.done) break;
      const part = next.value;
      if (part.type === "text-delta") {
        writer.push(skip.push(part.text));
      } else if (part.type === "tool-call") {
        // What the model said before the call is stored before the call's step shows.
        writer.push(skip.end());
        if (!(await writer.flush())) {
          controller.abort();
          return stop();
        }
        await steps.called(part.toolCallId, part.toolName, part.input);
      } else if (part.type === "tool-result") {
        await steps.ended(part.toolCallId, "done", part.output);
      } else if (part.type === "tool-error") {
        await steps.ended(part.toolCallId, "error", { error: provider.describeError(part.error) });
      } else if (part.type === "finish-step") {
        stepUsage.push({ tokensIn: part.usage.inputTokens ?? 0, tokensOut: part.usage.outputTokens ?? 0 });
      } else if (part.type === "finish") {
        const known = part.totalUsage.inputTokens !== undefined || part.totalUsage.outputTokens !== undefined;
        if (known) usage = { tokensIn: part.totalUsage.inputTokens ?? 0, tokensOut: part.totalUsage.outputTokens ?? 0 };
      } else if (part.type === "abort") {
        break;
      } else if (part.type === "error") {
        throw part.error;
      }
    }
  } catch (err) {
    if (controller.signal.aborted) return stop();
    // The model failed: what it did send is kept with the reply, which then fails.
    writer.push(skip.end());
    await writer.finish().catch(() => undefined);
    throw new Error(provider.describeError(idle.controller.signal.aborted ? idle.controller.signal.reason : err));
  } finally {
    stopWatch?.();
    clearInterval(heartbeat);
    idle.disarm();
  }
  if (idle.controller.signal.aborted) {
    writer.push(skip.end());
    await writer.finish().catch(() => undefined);
    throw new Error(provider.describeError(idle.controller.signal.reason));
  }
  if (controller.signal.aborted) return stop();
  writer.push(skip.end());
  // The end writes the whole reply (finishTurn): only the writes in flight are waited for.
  await writer.settle();
  if (writer.stopped) return stop();
  await renewing;
  if (lost) return false;
  return finishTurn(todo, turn, provider, settings, writer.content, usage, { modelId: choice.modelId, steps: stepUsage, toolBlocks: steps.count, checklistBlocks: steps.checklists, ...(summary ? { summary } : {}) });
}
