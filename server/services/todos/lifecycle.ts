// The one writer of Todo.status. Every status change goes through `changeTodo` (or `createTodoRow`
// for a new todo): it locks the todo's row, lets the caller pick the next status by the table in
// lib/todo-lifecycle.ts, writes it with `setStatus`, and after the commit runs the effects the
// change collected — its events, then "todo.status", then stopping the turn of a todo that left
// RUNNING (server/agent/turn-signals.ts: the runner never polls the row), then starting a turn when
// the todo runs.
import type { TTodoStatus } from "../../../lib/schemas/todos.ts";
import { Prisma } from "../../db/generated/client.ts";
import { lockAndRead } from "../../db/lock.ts";
import { log } from "../../log.ts";
import type { EventType } from "../../realtime/bus.ts";
import { db, runtime } from "../../runtime.ts";
import { assertCanStartTurn } from "../billing/usage.ts";
import { publishStatus, publishTodo } from "./events.ts";
import { nextStatus } from "../../../lib/todo-lifecycle.ts";
import { handResultsToParent, linksOf, SETTLED, SHELL_WAIT_PREFIX } from "./sub-todos.ts";
import { closeShellRuns } from "./shell-runs.ts";
import { signalTurn } from "../../agent/turn-signals.ts";

type Tx = Prisma.TransactionClient;
/** A todo as its events need it (./events.ts PublishedTodo): `isPublic` decides whether its public viewers hear them. */
export type TodoRef = { id: string; projectId: string; isPublic: boolean };
/** The todo's row as read under its lock. */
export type LockedTodo = Prisma.TodoGetPayload<{
  select: { id: true; projectId: true; userId: true; isPublic: true; status: true; scheduledAt: true; workflow: true; metadata: true; agentSettings: true; leaseOwner: true; leaseUntil: true };
}>;
/** LockedTodo's columns in SQL (the status as its text, as Prisma reads it). */
const LOCKED_COLUMNS = Prisma.sql`"id", "projectId", "userId", "isPublic", "status"::text AS "status", "scheduledAt", "workflow", "metadata", "agentSettings", "leaseOwner", "leaseUntil"`;

/** What runs after the commit: events in order, then the status event, then a turn when asked. */
export class Effects {
  readonly events: { type: EventType; data: unknown }[] = [];
  from?: TTodoStatus;
  to?: TTodoStatus;
  /** Whether to hand the todo to the agent after the commit (it is RUNNING and nobody else continues it). */
  startTurn = false;
  /** The running turn itself made the change (it ended): no signal has to stop it. */
  byTurn = false;
  /** Work to queue once committed (jobs: a scheduled message's fire job), as closures so this module imports no job. */
  readonly jobs: (() => Promise<unknown>)[] = [];
  constructor(readonly todo: TodoRef & { userId?: string }) {}

  emit(type: EventType, data: unknown): this {
    this.events.push({ type, data });
    return this;
  }

  /** Queues `enqueue` to run after the commit (never inside the transaction: a rollback would leave a job behind). */
  later(enqueue: () => Promise<unknown>): this {
    this.jobs.push(enqueue);
    return this;
  }
}

/**
 * Called before a todo moves into RUNNING from another status, inside the transaction, so throwing
 * an ApiError refuses the change and rolls it back: billing refuses a new turn with 402
 * PAYMENT_REQUIRED when the plan's windows are used up and extra spend (with credit) does not
 * cover it (server/services/billing/usage.ts). A turn already running is never stopped here.
 */
export async function assertTurnAllowed(tx: Tx, who: { userId: string; projectId: string; todoId?: string }): Promise<void> {
  await assertCanStartTurn(tx, who.userId);
}

/**
 * Locks the todo's row, runs `change` with it in one transaction and, once that committed, runs
 * the effects `change` collected (nothing runs when it throws). Resolves null, running nothing,
 * when the todo does not exist.
 */
export async function changeTodo<T>(todoId: string, change: (tx: Tx, todo: LockedTodo, fx: Effects) => Promise<T>): Promise<T | null> {
  const done = await db().$transaction(async (tx) => {
    const todo = await lockTodo(tx, todoId);
    if (!todo) return null;
    const fx = new Effects(todo);
    return { value: await change(tx, todo, fx), fx };
  });
  if (!done) return null;
  await runEffects(done.fx);
  return done.value;
}

/**
 * The todo's row under its lock (null when there is none), for changes that do not touch the status.
 * One statement, the lock's own read: every status change, and an agent turn's start and end, take it.
 */
export async function lockTodo(tx: Tx, todoId: string): Promise<LockedTodo | null> {
  return lockAndRead<LockedTodo>(tx, "Todo", todoId, LOCKED_COLUMNS);
}

/**
 * The only write of Todo.status (with lastActivityAt and whatever else changes with it). Moving
 * into RUNNING asks `assertTurnAllowed` first and, unless `continued` (the runner ends its own turn
 * and goes on with the next one itself), starts a turn after the commit.
 */
export async function setStatus(tx: Tx, todo: LockedTodo, fx: Effects, to: TTodoStatus, data: Omit<Prisma.TodoUncheckedUpdateInput, "status"> = {}, opts: { continued?: boolean } = {}): Promise<void> {
  if (to === "RUNNING" && todo.status !== "RUNNING") await assertTurnAllowed(tx, { userId: todo.userId, projectId: todo.projectId, todoId: todo.id });
  await tx.todo.update({ where: { id: todo.id }, data: { ...data, status: to, lastActivityAt: new Date() } });
  fx.from ??= todo.status;
  fx.to = to;
  fx.startTurn = to === "RUNNING" && !opts.continued;
  fx.byTurn = opts.continued === true;
  // Sub-todos: a child that settles tells its parent; a parent cancelled cancels its children.
  if (to !== todo.status) {
    const links = linksOf(todo.workflow);
    if (links.parentTodoId && SETTLED.has(to)) fx.later(() => subTodoSettled(links.parentTodoId!));
    if (to === "CANCELLED" && links.subTodos?.length) fx.later(() => cancelSubTodos(links.subTodos!));
    // Shell commands it proposed: a closed todo runs none, and stops one still running.
    if ((to === "CANCELLED" || to === "DONE") && links.waitingFor?.some((id) => id.startsWith(SHELL_WAIT_PREFIX)))
      fx.later(async () => {
        await closeShellRuns(todo.id);
        await waitSettled(todo.id);
      });
  }
}

/** Creates a todo in its first status (initialStatus), inside the caller's transaction; the effects start a RUNNING one. */
export async function createTodoRow<I extends Prisma.TodoInclude>(tx: Tx, data: Omit<Prisma.TodoUncheckedCreateInput, "status">, status: TTodoStatus, include: I) {
  if (status === "RUNNING") await assertTurnAllowed(tx, { userId: data.userId, projectId: data.projectId });
  const todo = await tx.todo.create({ data: { ...data, status }, include });
  const fx = new Effects(todo);
  fx.startTurn = status === "RUNNING";
  return { todo, fx };
}

/**
 * Runs after the commit: the collected events, "todo.status" when the status changed, the stop
 * signal when it left RUNNING, the turn, then the jobs. A job that cannot be queued is logged, not thrown: the change is committed, and the
 * scheduler's sweep (server/agent/scheduler.ts) queues what is missing.
 */
export async function runEffects(fx: Effects): Promise<void> {
  for (const e of fx.events) publishTodo(e.type, fx.todo, e.data);
  if (fx.from && fx.to) publishStatus(fx.todo, fx.to, fx.from);
  // Paused, completed, cancelled, failed: its turn (in this process or another) stops now; a turn
  // that ended itself has nothing left to stop.
  if (fx.from === "RUNNING" && fx.to !== "RUNNING" && !fx.byTurn) await signalTurn(fx.todo.id, "stop");
  if (fx.startTurn) runtime().agent.start(fx.todo.id, fx.todo.userId);
  for (const job of fx.jobs) {
    await job().catch((err: unknown) => log.warn("could not queue a job after a todo change", { todoId: fx.todo.id, error: err instanceof Error ? err.message : String(err) }));
  }
}

/**
 * Something the todo waits for settled (a sub-todo, a shell command it proposed): the todo takes
 * the results once all it waits for have (./sub-todos.ts handResultsToParent).
 */
export async function waitSettled(todoId: string): Promise<void> {
  await changeTodo(todoId, (tx, parent, fx) => handResultsToParent(tx, parent, fx));
}

/** A sub-todo settled: its parent takes the results once all it waits for have. */
export const subTodoSettled = waitSettled;

/** Cancels the sub-todos (and so theirs) that are not closed yet. */
export async function cancelSubTodos(ids: readonly string[]): Promise<void> {
  for (const id of ids) {
    await changeTodo(id, async (tx, child, fx) => {
      const to = nextStatus(child.status as TTodoStatus, "cancel", { turnInterrupted: false, hasScheduled: false });
      if (to) await setStatus(tx, child, fx, to);
    }).catch((err: unknown) => log.warn("could not cancel a sub-todo", { todoId: id, error: err instanceof Error ? err.message : String(err) }));
  }
}
