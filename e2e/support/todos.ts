import { expect, type APIResponse } from "@playwright/test";
import type { Socket } from "socket.io-client";
import { bearer, type TestUser } from "./users";

// Shapes of docs/api.md "Todos, messages and blocks (issue 3)". Timestamps are integer ms.

export type TodoStatus = "PROPOSED" | "TODO" | "SCHEDULED" | "RUNNING" | "PAUSED" | "READY" | "DONE" | "ERROR" | "CANCELLED";
export type MessageState = "SCHEDULED" | "PENDING" | "PROCESSING" | "DONE" | "ERROR";
export type StatusAction = "pause" | "resume" | "complete" | "cancel" | "accept" | "dismiss";

export type Block = {
  id: string;
  blockId: string;
  todoId: string;
  messageId: string;
  type: string;
  content: Record<string, unknown>;
  actionable: boolean;
  checked: boolean;
  subTodoIds: string[];
  position: number;
  createdAt: number;
  updatedAt: number;
};

export type Message = {
  id: string;
  messageId: string;
  todoId: string;
  role: "user" | "assistant" | "system" | "tool";
  authorId: string | null;
  content: string;
  state: MessageState;
  scheduledAt: number | null;
  usage: unknown;
  createdAt: number;
  updatedAt: number;
  blocks: Block[];
};

export type TodoItem = {
  id: string;
  projectId: string;
  userId: string;
  groupId: string | null;
  groupSlug: string | null;
  content: string;
  status: TodoStatus;
  scheduledAt: number | null;
  assignedAgent: string | null;
  agentSettingsId: string | null;
  businessContextId: string | null;
  agentSettings: Record<string, unknown> | null;
  isPublic: boolean;
  metadata: Record<string, unknown>;
  lastActivityAt: number;
  createdAt: number;
  updatedAt: number;
};

export type Todo = TodoItem & { workflow?: unknown; messages: Message[]; blocks: Block[]; hasMoreMessages: boolean };
export type TodoPage = { items: TodoItem[]; nextCursor: number | null };
export type MessagesPage = { items: Message[]; nextCursor: string | null };
export type ErrorBody = { message: string; code: string; data?: { issues?: { path: string; message: string }[] } & Record<string, unknown> };
export type Project = { id: string; name: string };

/** Looks like a cuid but names nothing. */
export const MISSING_ID = "cmissingtodoid00000000000";

/** Generous bound for one agent turn (AGENT_STEP_MS is small in tests, 200 ms by default). */
export const TURN_TIMEOUT = 30_000;

export function h(u: TestUser) {
  return bearer(u.apiKey);
}

export async function okJson<T>(res: APIResponse): Promise<T> {
  expect(res.status(), `${res.url()} → ${await res.text()}`).toBe(200);
  return (await res.json()) as T;
}

export async function expectNull(res: APIResponse): Promise<void> {
  expect(res.status(), `${res.url()} → ${await res.text()}`).toBe(200);
  expect(await res.text()).toBe("null");
}

/** Asserts the error status, code and body shape; returns the body. */
export async function expectError(res: APIResponse, status: number, code: string): Promise<ErrorBody> {
  const text = await res.text();
  expect(res.status(), `${res.url()} → ${text}`).toBe(status);
  const body = JSON.parse(text) as ErrorBody;
  expect(body.code).toBe(code);
  expect(typeof body.message).toBe("string");
  expect(Object.keys(body).filter((k) => k !== "data").sort()).toEqual(["code", "message"]);
  return body;
}

/** A 400 whose data.issues names `path` (e.g. "body.content", "query.cursor"). */
export async function expectBadRequest(res: APIResponse, path: string): Promise<ErrorBody> {
  const body = await expectError(res, 400, "BAD_REQUEST");
  expect(Array.isArray(body.data?.issues), JSON.stringify(body)).toBe(true);
  expect(body.data!.issues!.map((i) => i.path), JSON.stringify(body)).toContainEqual(expect.stringMatching(new RegExp(`^${path.replace(/\./g, "\\.")}`)));
  return body;
}

export async function createProject(u: TestUser, name = "Todos"): Promise<Project> {
  return okJson<Project>(await u.session.post("/api/v1/projects", { headers: h(u), data: { name } }));
}

export type CreateTodoInput = {
  content: string;
  groupSlug?: string;
  scheduledAt?: number;
  startProcessing?: boolean;
  agentSettings?: Record<string, unknown>;
  assignedAgent?: string;
  agentSettingsId?: string;
  businessContextId?: string;
  metadata?: Record<string, unknown>;
};

export async function createTodo(u: TestUser, projectId: string, input: CreateTodoInput | string): Promise<Todo> {
  const data = typeof input === "string" ? { content: input } : input;
  return okJson<Todo>(await u.session.post(`/api/v1/projects/${projectId}/todos`, { headers: h(u), data }));
}

export async function fromTemplate(u: TestUser, projectId: string, data: Record<string, unknown>): Promise<Todo> {
  return okJson<Todo>(await u.session.post(`/api/v1/projects/${projectId}/todos/from-template`, { headers: h(u), data }));
}

export async function getTodo(u: TestUser, todoId: string, query?: Record<string, string | number>): Promise<Todo> {
  return okJson<Todo>(await u.session.get(`/api/v1/todos/${todoId}`, { headers: h(u), params: query }));
}

export async function listTodos(u: TestUser, projectId: string, query?: Record<string, string | number>): Promise<TodoPage> {
  return okJson<TodoPage>(await u.session.get(`/api/v1/projects/${projectId}/todos`, { headers: h(u), params: query }));
}

export async function getMessages(u: TestUser, todoId: string, query?: Record<string, string | number>): Promise<MessagesPage> {
  return okJson<MessagesPage>(await u.session.get(`/api/v1/todos/${todoId}/messages`, { headers: h(u), params: query }));
}

export function addMessageRaw(u: TestUser, todoId: string, data: { content: string; startProcessing?: boolean; scheduledAt?: number }) {
  return u.session.post(`/api/v1/todos/${todoId}/messages`, { headers: h(u), data });
}

export async function addMessage(u: TestUser, todoId: string, data: { content: string; startProcessing?: boolean; scheduledAt?: number }): Promise<Message> {
  return okJson<Message>(await addMessageRaw(u, todoId, data));
}

/** todo_updateAgentMapping: the todo's agent settings, whole; throws unless 200. */
export async function setAgentSettings(u: TestUser, todoId: string, agentSettings: Record<string, unknown>): Promise<void> {
  await expectNull(await u.session.post(`/api/v1/todos/${todoId}/todo-agent-mapping`, { headers: h(u), data: { agentSettings } }));
}

export function setStatusRaw(u: TestUser, todoId: string, action: string) {
  return u.session.patch(`/api/v1/todos/${todoId}/status`, { headers: h(u), data: { action } });
}

export async function setStatus(u: TestUser, todoId: string, action: StatusAction): Promise<void> {
  await expectNull(await setStatusRaw(u, todoId, action));
}

export async function shareProject(owner: TestUser, projectId: string, email: string, role: "editor" | "viewer"): Promise<void> {
  const res = await owner.session.post(`/api/v1/projects/${projectId}/share`, { headers: h(owner), data: { email, role } });
  expect(res.status(), await res.text()).toBe(200);
}

/** Polls todo_get until the todo has `status` (bounded), and returns it. */
export async function waitForStatus(u: TestUser, todoId: string, status: TodoStatus | TodoStatus[], timeout = TURN_TIMEOUT): Promise<Todo> {
  const wanted = Array.isArray(status) ? status : [status];
  let last: Todo | undefined;
  await expect
    .poll(
      async () => {
        last = await getTodo(u, todoId);
        return wanted.includes(last.status) ? "reached" : last.status;
      },
      { timeout, intervals: [50, 100, 200, 250], message: `todo ${todoId} never reached ${wanted.join("|")}` },
    )
    .toBe("reached");
  return last!;
}

/** Waits until a turn has ended (READY) and the todo carries a finished assistant reply. */
export async function waitForReply(u: TestUser, todoId: string, timeout = TURN_TIMEOUT): Promise<Todo> {
  const todo = await waitForStatus(u, todoId, "READY", timeout);
  const reply = todo.messages.at(-1);
  expect(reply?.role, JSON.stringify(todo.messages)).toBe("assistant");
  expect(reply?.state).toBe("DONE");
  return todo;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export const inOneHour = () => Date.now() + 60 * 60 * 1000;

/** A todo in a status that can be reached without racing the agent. */
export async function todoIn(u: TestUser, projectId: string, status: Exclude<TodoStatus, "RUNNING" | "ERROR">, content = `Todo ${status}`): Promise<Todo> {
  switch (status) {
    case "TODO":
      return createTodo(u, projectId, content);
    case "SCHEDULED":
      return createTodo(u, projectId, { content, scheduledAt: inOneHour() });
    case "PAUSED": {
      const t = await createTodo(u, projectId, { content, scheduledAt: inOneHour() });
      await setStatus(u, t.id, "pause");
      return getTodo(u, t.id);
    }
    case "READY": {
      const t = await createTodo(u, projectId, { content, startProcessing: true });
      return waitForReply(u, t.id);
    }
    case "DONE": {
      const t = await createTodo(u, projectId, content);
      await setStatus(u, t.id, "complete");
      return getTodo(u, t.id);
    }
    case "CANCELLED": {
      const t = await createTodo(u, projectId, content);
      await setStatus(u, t.id, "cancel");
      return getTodo(u, t.id);
    }
    case "PROPOSED":
      return fromTemplate(u, projectId, { content, propose: true });
  }
}

/**
 * Starts a turn and pauses it while it runs. The agent may finish a turn before the pause
 * arrives (then pause is a 409 on a READY todo), so this tries a few fresh todos.
 */
export async function pausedMidTurn(u: TestUser, projectId: string, content: string, attempts = 5): Promise<Todo> {
  for (let i = 0; i < attempts; i++) {
    const t = await createTodo(u, projectId, { content, startProcessing: true });
    expect(t.status).toBe("RUNNING");
    const res = await setStatusRaw(u, t.id, "pause");
    if (res.status() === 200) return waitForStatus(u, t.id, "PAUSED");
    await expectError(res, 409, "CONFLICT");
    expect((await getTodo(u, t.id)).status).toBe("READY");
  }
  throw new Error(`the agent finished every turn before a pause could reach it (${attempts} tries)`);
}

export type Envelope<D = Record<string, unknown>> = { type: string; id: string; at: number; projectId?: string; todoId?: string; data: D };

/** Records every event a socket receives, in arrival order. */
export function recordEvents(socket: Socket): { events: Envelope[]; stop(): void; ofType(type: string, todoId?: string): Envelope[] } {
  const events: Envelope[] = [];
  const on = (type: string, e: Envelope) => events.push({ ...e, type: e?.type ?? type });
  socket.onAny(on);
  return {
    events,
    stop: () => socket.offAny(on),
    ofType: (type, todoId) => events.filter((e) => e.type === type && (todoId === undefined || e.todoId === todoId)),
  };
}

export async function subscribeTodo(u: TestUser, todoId: string, socketId: string): Promise<APIResponse> {
  return u.session.post(`/api/v1/todos/${todoId}/subscribe`, { headers: { ...h(u), "x-socket-id": socketId } });
}

/** Every todo of a list query, page by page, following the contract's cursor rule. */
export async function listAllPages(u: TestUser, projectId: string, query: Record<string, string | number>): Promise<TodoPage[]> {
  const pages: TodoPage[] = [];
  let cursor: number | null = null;
  for (let i = 0; i < 1000; i++) {
    const page: TodoPage = await listTodos(u, projectId, cursor === null ? query : { ...query, cursor });
    pages.push(page);
    if (page.nextCursor === null) return pages;
    cursor = page.nextCursor;
  }
  throw new Error("todo_list never returned nextCursor null");
}
