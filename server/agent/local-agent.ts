import type { Prisma } from "../db/generated/client.ts";
import { log } from "../log.ts";
import { db } from "../runtime.ts";
import { publishStatus, publishTodo } from "../services/todos/events.ts";
import { afterTurn } from "../services/todos/lifecycle.ts";
import { asObject, messageWithBlocks, toBlock, toMessage } from "../services/todos/serialize.ts";
import { chunks, countTokens, planReply, type LocalReply } from "./local-reply.ts";
import type { AgentRunner } from "./runner.ts";

type Plan = LocalReply & { messageId: string; startedAt: number; tokensIn: number };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * AGENT_PROVIDER=local: streams a deterministic reply in steps of `stepMs`, turns a list in the
 * user's message into checklist blocks, and looks at the todo's status between steps, so pause,
 * complete and cancel (made by any process) take effect at the next step.
 */
export class LocalAgent implements AgentRunner {
  private readonly turns = new Map<string, Promise<void>>();
  private readonly again = new Set<string>();
  private stopping = false;

  constructor(private readonly stepMs: number) {}

  start(todoId: string): void {
    if (this.stopping) return;
    if (this.turns.has(todoId)) {
      this.again.add(todoId); // looked at again when the current turn ends
      return;
    }
    const run = this.run(todoId).finally(() => {
      this.turns.delete(todoId);
      if (this.again.delete(todoId)) this.start(todoId);
    });
    this.turns.set(todoId, run);
  }

  async idle(): Promise<void> {
    while (this.turns.size) await Promise.allSettled([...this.turns.values()]);
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await this.idle();
  }

  private async run(todoId: string): Promise<void> {
    try {
      while (!this.stopping && (await this.turn(todoId)));
    } catch (err) {
      if (this.stopping) return;
      log.error("agent turn failed", { todoId, error: err instanceof Error ? err.message : String(err) });
      await this.fail(todoId, err).catch(() => undefined);
    }
  }

  /** One turn, or its continuation after a pause. Returns true when another turn should follow. */
  private async turn(todoId: string): Promise<boolean> {
    const todo = await db().todo.findUnique({ where: { id: todoId }, select: { id: true, projectId: true, status: true, workflow: true } });
    if (!todo || todo.status !== "RUNNING") return false;
    const plan = await this.planFor(todo);
    if (!plan) {
      await this.finish(todo, null);
      return false;
    }
    const message = await db().message.findUniqueOrThrow({ where: { id: plan.messageId }, select: { content: true } });
    let written = message.content;
    for (const piece of chunks(plan.text.slice(written.length))) {
      await sleep(this.stepMs);
      if (this.stopping) return false;
      const now = await db().todo.findUnique({ where: { id: todoId }, select: { status: true } });
      if (now?.status !== "RUNNING") {
        // Paused: the message stays PROCESSING and resume continues it. Completed or cancelled: it ends here.
        if (now && now.status !== "PAUSED") await this.closeMessage(todo, plan, written, true);
        return false;
      }
      written += piece;
      await db().message.update({ where: { id: plan.messageId }, data: { content: written } });
      publishTodo("message.delta", todo, { messageId: plan.messageId, delta: piece });
    }
    return this.finish(todo, plan);
  }

  /** The turn in progress, or a new one over the user messages that wait for it. */
  private async planFor(todo: { id: string; projectId: string; workflow: unknown }): Promise<Plan | null> {
    const current = asObject(todo.workflow).currentTurn as Plan | undefined;
    if (current) {
      const open = await db().message.findFirst({ where: { id: current.messageId, state: "PROCESSING" }, select: { id: true } });
      if (open) return current;
    }
    const started = await db().$transaction(async (tx) => {
      const waiting = await tx.message.findMany({ where: { todoId: todo.id, role: "user", state: "PENDING" }, orderBy: { seq: "asc" } });
      if (waiting.length === 0) return null;
      await tx.message.updateMany({ where: { id: { in: waiting.map((m) => m.id) } }, data: { state: "DONE" } });
      const reply = planReply(waiting.map((m) => m.content));
      const message = await tx.message.create({ data: { todoId: todo.id, role: "assistant", content: "", state: "PROCESSING" }, include: messageWithBlocks });
      const plan: Plan = { ...reply, messageId: message.id, startedAt: Date.now(), tokensIn: countTokens(waiting.map((m) => m.content).join("\n")) };
      const workflow = asObject(todo.workflow);
      await tx.todo.update({
        where: { id: todo.id },
        data: { workflow: { ...workflow, currentTurn: plan, state: "running", turn: Number(workflow.turn ?? 0) + 1 } as Prisma.InputJsonValue },
      });
      return { plan, message };
    });
    if (!started) return null;
    publishTodo("message.created", todo, toMessage(started.message));
    return started.plan;
  }

  private async closeMessage(todo: { id: string; projectId: string }, plan: Plan, content: string, interrupted: boolean) {
    const usage = { provider: "local", tokensIn: plan.tokensIn, tokensOut: countTokens(content), costCents: 0, durationMs: Date.now() - plan.startedAt, ...(interrupted ? { interrupted: true } : {}) };
    const message = await db().message.update({ where: { id: plan.messageId }, data: { content, state: "DONE", usage }, include: messageWithBlocks });
    await this.clearTurn(todo.id);
    publishTodo("message.updated", todo, toMessage(message));
  }

  private async clearTurn(todoId: string) {
    const { workflow } = await db().todo.findUniqueOrThrow({ where: { id: todoId }, select: { workflow: true } });
    const { currentTurn: _done, ...rest } = asObject(workflow);
    await db().todo.update({ where: { id: todoId }, data: { workflow: { ...rest, state: "idle" } as Prisma.InputJsonValue } });
  }

  /** Ends the turn: message DONE with usage and blocks, todo READY (or on to the next turn). */
  private async finish(todo: { id: string; projectId: string }, plan: Plan | null): Promise<boolean> {
    const result = await db().$transaction(async (tx) => {
      await tx.$executeRaw`SELECT 1 FROM "Todo" WHERE "id" = ${todo.id} FOR UPDATE`;
      const current = await tx.todo.findUniqueOrThrow({ where: { id: todo.id }, select: { status: true, workflow: true } });
      let message = null;
      if (plan) {
        const usage = { provider: "local", tokensIn: plan.tokensIn, tokensOut: countTokens(plan.text), costCents: 0, durationMs: Date.now() - plan.startedAt };
        await tx.block.createMany({
          data: plan.checklist.map((text, position) => ({ todoId: todo.id, messageId: plan.messageId, position, type: "checklist_item", actionable: true, content: { text } })),
        });
        message = await tx.message.update({ where: { id: plan.messageId }, data: { content: plan.text, state: "DONE", usage }, include: messageWithBlocks });
      }
      const [pending, scheduled] = await Promise.all([
        tx.message.count({ where: { todoId: todo.id, role: "user", state: "PENDING" } }),
        tx.message.count({ where: { todoId: todo.id, state: "SCHEDULED" } }),
      ]);
      const { currentTurn: _done, ...workflow } = asObject(current.workflow);
      // Only a turn that is still RUNNING moves on; a pause or cancel that came in first stands.
      const next = current.status === "RUNNING" ? afterTurn({ pendingInput: pending > 0, hasScheduled: scheduled > 0 }) : current.status;
      await tx.todo.update({ where: { id: todo.id }, data: { status: next, lastActivityAt: new Date(), workflow: { ...workflow, state: "idle" } as Prisma.InputJsonValue } });
      return { message, previous: current.status, next };
    });
    if (result.message) {
      publishTodo("message.updated", todo, toMessage(result.message));
      for (const block of result.message.blocks) publishTodo("block.updated", todo, toBlock(block));
    }
    publishStatus(todo, result.next, result.previous);
    return result.next === "RUNNING";
  }

  /** A turn that throws leaves the todo ERROR with the reason in its metadata. */
  private async fail(todoId: string, err: unknown) {
    const reason = err instanceof Error ? err.message : String(err);
    const todo = await db().todo.findUnique({ where: { id: todoId }, select: { id: true, projectId: true, status: true, metadata: true } });
    if (!todo) return;
    await db().message.updateMany({ where: { todoId, role: "assistant", state: "PROCESSING" }, data: { state: "ERROR" } });
    await db().todo.update({ where: { id: todoId }, data: { status: "ERROR", metadata: { ...asObject(todo.metadata), error: reason } as Prisma.InputJsonValue, lastActivityAt: new Date() } });
    publishStatus(todo, "ERROR", todo.status);
  }
}
