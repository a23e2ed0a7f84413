import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { createServer, type Server as HttpServer } from "node:http";
import { io as connectClient, type Socket as ClientSocket } from "socket.io-client";
import { newApiKey, newDeviceToken, sha256 } from "../auth/tokens.ts";
import { ApiError } from "../http/errors.ts";
import { createTestUser, suiteTestRuntime } from "../testing/runtime.ts";
import { listenLocal } from "../testing/listen.ts";
import { attachSockets, joinRoom } from "./sockets.ts";
import { callerOf } from "../testing/caller.ts";
import { createWaitingTodo } from "../testing/runtime.ts";
import { addMessage } from "../services/todos/messages.ts";
import { updateTodo } from "../services/todos/todos.ts";
import { turnSignals } from "../agent/turn-signals.ts";
import { TurnWatch } from "../agent/turn-stream.ts";
import type { Server } from "socket.io";

// Real Socket.IO server and clients on a throw-away database: the rules of joining rooms, and the
// effects that take connections out of rooms or close them.

const t = suiteTestRuntime({ setup, teardown });
const rt = () => t;
let http: HttpServer;
let io: Server;
let close: () => Promise<void>;
let origin: string;
const clients: ClientSocket[] = [];

async function setup() {
  http = createServer();
  ({ io, close } = await attachSockets(http, rt().bus, { appUrl: "http://app.test" }));
  origin = await listenLocal(http);
}

async function teardown() {
  for (const c of clients) c.disconnect();
  await close();
  await new Promise((r) => http.close(r));
}

async function connect(token: string): Promise<ClientSocket> {
  const socket = connectClient(origin, { path: "/socket.io", transports: ["websocket"], auth: { token }, reconnection: false });
  clients.push(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("connect_error", reject);
  });
  return socket;
}

async function userWithKey() {
  const user = await createTestUser(rt().prisma);
  const key = newApiKey();
  await rt().prisma.apiKey.create({ data: { userId: user.id, name: "k", keyHash: sha256(key), last4: key.slice(-4) } });
  return { user, key };
}

async function roomsOf(socketId: string): Promise<Set<string>> {
  const [s] = await io.in(socketId).fetchSockets();
  return s?.rooms ?? new Set();
}

function isSocketRefusal(err: unknown): boolean {
  return err instanceof ApiError && err.status === 400 && (err.data?.issues as { path: string }[])[0]?.path === "header.x-socket-id";
}

describe("joinRoom", () => {
  test("a room name is not a socket id: other users' connections in that room are never joined", async () => {
    const owner = await userWithKey();
    const caller = await userWithKey();
    const ownerSocket = await connect(owner.key);
    const callerSocket = await connect(caller.key);
    // Both are in the room of a project shared between them.
    await joinRoom(io, ownerSocket.id, { userId: owner.user.id }, "project:shared");
    await joinRoom(io, callerSocket.id, { userId: caller.user.id }, "project:shared");
    for (const name of ["project:shared", `user:${owner.user.id}`, `user:${caller.user.id}`]) {
      await assert.rejects(joinRoom(io, name, { userId: caller.user.id }, "project:callers-own"), isSocketRefusal, name);
    }
    assert.equal((await roomsOf(ownerSocket.id!)).has("project:callers-own"), false);
    assert.equal((await roomsOf(callerSocket.id!)).has("project:callers-own"), false);
  });

  test("only the caller's own connection: another user's socket id is refused", async () => {
    const a = await userWithKey();
    const b = await userWithKey();
    const bSocket = await connect(b.key);
    await assert.rejects(joinRoom(io, bSocket.id, { userId: a.user.id }, "project:x"), isSocketRefusal);
    await joinRoom(io, bSocket.id, { userId: b.user.id }, "project:x");
    assert.equal((await roomsOf(bSocket.id!)).has("project:x"), true);
  });

  test("a connection opened with a todo-scoped token joins its own todo's room only", async () => {
    const { user } = await userWithKey();
    const token = newDeviceToken();
    await rt().prisma.deviceToken.create({
      data: { userId: user.id, kind: "mayfly", tokenHash: sha256(token), todoId: "todo-in-scope", expiresAt: new Date(Date.now() + 3_600_000) },
    });
    const socket = await connect(token);
    await assert.rejects(joinRoom(io, socket.id, { userId: user.id }, "todo:another"), isSocketRefusal);
    await assert.rejects(joinRoom(io, socket.id, { userId: user.id }, "project:p"), isSocketRefusal);
    await joinRoom(io, socket.id, { userId: user.id }, "todo:todo-in-scope");
    const rooms = await roomsOf(socket.id!);
    assert.equal(rooms.has("todo:todo-in-scope"), true);
    assert.equal(rooms.has("todo:another") || rooms.has("project:p"), false);
  });
});

describe("connection effects", () => {
  test("access.lost takes the user's connections out of the rooms of projects (and their todos) they can no longer read", async () => {
    const owner = await userWithKey();
    const sharee = await userWithKey();
    const prisma = rt().prisma;
    const lost = await prisma.project.create({ data: { ownerId: owner.user.id, name: "Unshared" } });
    const kept = await prisma.project.create({ data: { ownerId: owner.user.id, name: "Still shared" } });
    const own = await prisma.project.create({ data: { ownerId: sharee.user.id, name: "Own" } });
    for (const p of [lost, kept]) await prisma.projectShare.create({ data: { projectId: p.id, userId: sharee.user.id, role: "viewer" } });
    const lostTodo = await prisma.todo.create({ data: { projectId: lost.id, userId: owner.user.id, content: "t" } });
    const keptTodo = await prisma.todo.create({ data: { projectId: kept.id, userId: owner.user.id, content: "t" } });
    const socket = await connect(sharee.key);
    const ownerSocket = await connect(owner.key);
    const rooms = [`project:${lost.id}`, `todo:${lostTodo.id}`, `project:${kept.id}`, `todo:${keptTodo.id}`, `project:${own.id}`] as const;
    for (const room of rooms) await joinRoom(io, socket.id, { userId: sharee.user.id }, room);
    await joinRoom(io, ownerSocket.id, { userId: owner.user.id }, `project:${lost.id}`);

    await prisma.projectShare.deleteMany({ where: { projectId: lost.id, userId: sharee.user.id } });
    await rt().bus.affect({ kind: "access.lost", userId: sharee.user.id });

    const after = await roomsOf(socket.id!);
    assert.equal(after.has(`project:${lost.id}`), false);
    assert.equal(after.has(`todo:${lostTodo.id}`), false);
    for (const room of [`project:${kept.id}`, `todo:${keptTodo.id}`, `project:${own.id}`]) assert.equal(after.has(room), true, room);
    assert.equal(socket.connected, true);
    // The owner's own connection is untouched.
    assert.equal((await roomsOf(ownerSocket.id!)).has(`project:${lost.id}`), true);
  });

  test("credential.revoked disconnects that credential's connections only", async () => {
    const u = await userWithKey();
    const other = newApiKey();
    const otherRow = await rt().prisma.apiKey.create({ data: { userId: u.user.id, name: "other", keyHash: sha256(other), last4: other.slice(-4) } });
    const keep = await connect(u.key);
    const revoked = await connect(other);
    const gone = new Promise<string>((resolve) => revoked.once("disconnect", resolve));
    await rt().bus.affect({ kind: "credential.revoked", credential: `apiKey:${otherRow.id}` });
    assert.equal(await gone, "io server disconnect");
    assert.equal(keep.connected, true);
    // The whole user (account deleted): every connection.
    const all = new Promise<string>((resolve) => keep.once("disconnect", resolve));
    await rt().bus.affect({ kind: "credential.revoked", credential: `user:${u.user.id}` });
    assert.equal(await all, "io server disconnect");
  });

  test("a connection whose token expires is closed when it does", async () => {
    const { user } = await userWithKey();
    const token = newDeviceToken();
    await rt().prisma.deviceToken.create({ data: { userId: user.id, tokenHash: sha256(token), expiresAt: new Date(Date.now() + 1_000) } });
    const socket = await connect(token);
    const reason = await new Promise<string>((resolve) => socket.once("disconnect", resolve));
    assert.equal(reason, "io server disconnect");
  });

  test("a key revoked while its handshake is being checked does not leave a connection behind", async () => {
    const u = await userWithKey();
    const racing = newApiKey();
    const row = await rt().prisma.apiKey.create({ data: { userId: u.user.id, name: "racing", keyHash: sha256(racing), last4: racing.slice(-4) } });
    // Runs after the credential check passed and before the connection counts as connected: the
    // moment at which the revocation's disconnect cannot reach it yet.
    io.use((socket, next) => {
      if ((socket.handshake.auth as { token?: string }).token !== racing) return next();
      rt()
        .prisma.apiKey.delete({ where: { id: row.id } })
        .then(() => rt().bus.affect({ kind: "credential.revoked", credential: `apiKey:${row.id}` }))
        .then(() => next(), next);
    });
    const socket = connectClient(origin, { path: "/socket.io", transports: ["websocket"], auth: { token: racing }, reconnection: false });
    clients.push(socket);
    const reason = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("the revoked key's connection stayed open")), 10_000);
      socket.once("disconnect", (r) => {
        clearTimeout(timer);
        resolve(r);
      });
      socket.once("connect_error", reject);
    });
    assert.equal(reason, "io server disconnect");
  });
});

describe("subscribing in the handshake (auth.subscribe)", () => {
  type Outcome = { subscribed: { kind: string; id: string }[]; refused: { kind: string; id: string; code: string }[] };

  async function connectSubscribed(token: string, subscribe: unknown): Promise<{ socket: ClientSocket; outcome: Outcome }> {
    const socket = connectClient(origin, { path: "/socket.io", transports: ["websocket"], auth: { token, subscribe }, reconnection: false });
    clients.push(socket);
    const outcome = await new Promise<Outcome>((resolve, reject) => {
      socket.once("subscription", resolve);
      socket.once("connect_error", reject);
    });
    return { socket, outcome };
  }

  test("joins the rooms the caller may read before connect, and names the refused with todo_subscribe's codes", async () => {
    const prisma = rt().prisma;
    const owner = await userWithKey();
    const stranger = await userWithKey();
    const project = await prisma.project.create({ data: { ownerId: owner.user.id, name: "P" } });
    const todo = await prisma.todo.create({ data: { projectId: project.id, userId: owner.user.id, content: "t" } });
    const theirs = await prisma.project.create({ data: { ownerId: stranger.user.id, name: "Theirs" } });
    const theirTodo = await prisma.todo.create({ data: { projectId: theirs.id, userId: stranger.user.id, content: "t" } });
    const { socket, outcome } = await connectSubscribed(owner.key, [
      { kind: "todo", id: todo.id },
      { kind: "project", id: project.id },
      { kind: "todo", id: theirTodo.id },
      { kind: "todo", id: "no-such-todo" },
    ]);
    assert.deepEqual(outcome.subscribed, [
      { kind: "todo", id: todo.id },
      { kind: "project", id: project.id },
    ]);
    assert.deepEqual(
      outcome.refused.map((r) => [r.id, r.code]),
      [
        [theirTodo.id, "NOT_FOUND"],
        ["no-such-todo", "NOT_FOUND"],
      ],
    );
    const rooms = await roomsOf(socket.id!);
    assert.equal(rooms.has(`todo:${todo.id}`), true);
    assert.equal(rooms.has(`project:${project.id}`), true);
    assert.equal(rooms.has(`todo:${theirTodo.id}`), false);
    // An event published now reaches it, with no todo_subscribe.
    const got = new Promise((resolve) => socket.once("todo.updated", resolve));
    rt().bus.publish({ type: "todo.updated", projectId: project.id, todoId: todo.id, data: { id: todo.id } });
    assert.equal(((await got) as { todoId: string }).todoId, todo.id);
  });

  test("a todo-scoped token subscribes to its own todo only", async () => {
    const prisma = rt().prisma;
    const { user } = await userWithKey();
    const project = await prisma.project.create({ data: { ownerId: user.id, name: "P" } });
    const mine = await prisma.todo.create({ data: { projectId: project.id, userId: user.id, content: "in scope" } });
    const other = await prisma.todo.create({ data: { projectId: project.id, userId: user.id, content: "out of scope" } });
    const token = newDeviceToken();
    await prisma.deviceToken.create({ data: { userId: user.id, kind: "mayfly", tokenHash: sha256(token), todoId: mine.id, expiresAt: new Date(Date.now() + 3_600_000) } });
    const { outcome } = await connectSubscribed(token, [
      { kind: "todo", id: mine.id },
      { kind: "todo", id: other.id },
      { kind: "project", id: project.id },
    ]);
    assert.deepEqual(outcome.subscribed, [{ kind: "todo", id: mine.id }]);
    assert.deepEqual(
      outcome.refused.map((r) => r.code),
      ["FORBIDDEN", "FORBIDDEN"],
    );
  });

  test("public todos need no credential: a public one is joined, a private one refused like todo_getPublic, and the viewer hears only that it changed, never the private event", async () => {
    const prisma = rt().prisma;
    const { user } = await userWithKey();
    const project = await prisma.project.create({ data: { ownerId: user.id, name: "P" } });
    const shown = await prisma.todo.create({ data: { projectId: project.id, userId: user.id, content: "shown", isPublic: true } });
    const hidden = await prisma.todo.create({ data: { projectId: project.id, userId: user.id, content: "hidden" } });
    const { socket, outcome } = await connectSubscribed("", [
      { kind: "publicTodo", id: shown.id },
      { kind: "publicTodo", id: hidden.id },
    ]);
    assert.deepEqual(outcome.subscribed, [{ kind: "publicTodo", id: shown.id }]);
    assert.deepEqual(outcome.refused.map((r) => [r.id, r.code]), [[hidden.id, "NOT_FOUND"]]);
    const rooms = await roomsOf(socket.id!);
    assert.equal(rooms.has(`public:${shown.id}`), true);
    assert.equal([...rooms].some((r) => r.startsWith("user:") || r.startsWith("todo:") || r.startsWith("project:")), false);
    const heard: { type: string; data: unknown }[] = [];
    socket.onAny((type: string, e: { data: unknown }) => void heard.push({ type, data: e?.data }));
    const changed = new Promise((resolve) => socket.once("publicTodo.changed", resolve));
    rt().bus.publish({ type: "todo.status", projectId: project.id, todoId: shown.id, toPublic: true, data: { status: "READY", previous: "RUNNING" } });
    assert.deepEqual(await changed, { type: "publicTodo.changed", id: (await changed as { id: string }).id, at: (await changed as { at: number }).at, todoId: shown.id, data: {} });
    // Made private: one last signal, then it is out of the room.
    const last = new Promise((resolve) => socket.once("publicTodo.changed", resolve));
    rt().bus.publish({ type: "todo.updated", projectId: project.id, todoId: shown.id, toPublic: true, data: { id: shown.id, isPublic: false } });
    await last;
    assert.equal((await roomsOf(socket.id!)).has(`public:${shown.id}`), false);
    assert.deepEqual(heard.map((h) => [h.type, h.data]), [["publicTodo.changed", {}], ["publicTodo.changed", {}]]);
  });

  test("without a credential, a connection that names a todo or project (not only public todos) is refused", async () => {
    const { user } = await userWithKey();
    const project = await rt().prisma.project.create({ data: { ownerId: user.id, name: "P" } });
    await assert.rejects(connectSubscribed("", [{ kind: "project", id: project.id }]), (err: Error & { data?: { code?: string } }) => err.data?.code === "UNAUTHORIZED");
    await assert.rejects(connectSubscribed("", []), (err: Error & { data?: { code?: string } }) => err.data?.code === "UNAUTHORIZED");
    // A bad token is refused even when only public todos are named.
    await assert.rejects(connectSubscribed("tsk_bad", [{ kind: "publicTodo", id: "x" }]), (err: Error & { data?: { code?: string } }) => err.data?.code === "UNAUTHORIZED");
  });

  test("a malformed auth.subscribe refuses the connection with BAD_REQUEST", async () => {
    const { key } = await userWithKey();
    for (const bad of ["todo:x", [{ kind: "edge", id: "x" }], [{ kind: "todo" }], Array.from({ length: 101 }, (_, i) => ({ kind: "todo", id: `t${i}` }))]) {
      const err = await connectSubscribed(key, bad).then(
        () => undefined,
        (e: unknown) => e as Error & { data?: { code?: string } },
      );
      assert.equal(err?.data?.code, "BAD_REQUEST", JSON.stringify(bad).slice(0, 60));
    }
  });

  test("without auth.subscribe no subscription event is sent", async () => {
    const { key } = await userWithKey();
    const socket = await connect(key);
    let got = false;
    socket.once("subscription", () => (got = true));
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(got, false);
  });
});

describe("public room fan-out", () => {
  /** Every room emit (what each costs a PUBLISH with the Redis adapter), recorded while `fn` runs and its fan-out flushes. */
  async function emitsDuring(fn: () => Promise<unknown>): Promise<{ rooms: string[]; type: string; data: unknown }[]> {
    const seen: { rooms: string[]; type: string; data: unknown }[] = [];
    const to = io.to.bind(io);
    io.to = ((rooms: Parameters<typeof io.to>[0]) => {
      const op = to(rooms);
      const emit = op.emit.bind(op);
      op.emit = ((ev: string, ...rest: unknown[]) => {
        seen.push({ rooms: [rooms].flat().map(String), type: ev, data: (rest[0] as { data?: unknown } | undefined)?.data });
        return emit(ev, ...rest);
      }) as typeof op.emit;
      return op;
    }) as typeof io.to;
    try {
      await fn();
      await new Promise((r) => setImmediate(r));
    } finally {
      io.to = to;
    }
    return seen;
  }
  const publicEmits = (seen: { rooms: string[]; type: string; data: unknown }[]) => seen.filter((e) => e.rooms.some((r) => r.startsWith("public:")));

  test("a private todo's events emit nothing to its public room; made public they do (its messages as public), made private they stop", async () => {
    const { user } = await userWithKey();
    const caller = callerOf(user);
    const project = await rt().prisma.project.create({ data: { ownerId: user.id, name: "P" } });
    const todo = await rt().prisma.todo.create({ data: { projectId: project.id, userId: user.id, content: "private" } });
    const change = async () => {
      await updateTodo(caller, todo.id, { content: "renamed" });
      await addMessage(caller, todo.id, { content: "a note", startProcessing: false });
    };

    const whilePrivate = await emitsDuring(change);
    assert.ok(whilePrivate.some((e) => e.rooms.includes(`todo:${todo.id}`)), "the todo's own room still hears them");
    assert.deepEqual(publicEmits(whilePrivate), []);

    await updateTodo(caller, todo.id, { isPublic: true });
    const whilePublic = publicEmits(await emitsDuring(change));
    assert.ok(whilePublic.length > 0);
    assert.ok(whilePublic.every((e) => e.rooms.length === 1 && e.rooms[0] === `public:${todo.id}`));
    // The rename (and the status the note changes) as the data-less signal, the note as the public read shows it.
    assert.deepEqual(new Set(whilePublic.map((e) => e.type)), new Set(["publicTodo.changed", "message.created"]));
    const note = whilePublic.find((e) => e.type === "message.created")!;
    assert.deepEqual(Object.keys(note.data as object).sort(), ["blocks", "content", "createdAt", "id", "messageId", "role", "state"]);

    const madePrivate = publicEmits(await emitsDuring(() => updateTodo(caller, todo.id, { isPublic: false })));
    assert.deepEqual(madePrivate.map((e) => e.type), ["publicTodo.changed"], "its viewers hear the last signal");
    assert.deepEqual(publicEmits(await emitsDuring(change)), []);
  });

  test("a reply streaming while its todo is made public or private starts or stops streaming to the public room", async () => {
    const { user } = await userWithKey();
    const project = await rt().prisma.project.create({ data: { ownerId: user.id, name: "P" } });
    const todo = await createWaitingTodo(rt().prisma, { projectId: project.id, userId: user.id }, "running");
    // The turn's end of the signal, as runTurn sets it up (the todo as read under its lock).
    const watch = new TurnWatch();
    watch.todo = { isPublic: false };
    const unwatch = turnSignals.watch(todo.id, watch);
    try {
      await updateTodo(callerOf(user), todo.id, { isPublic: true });
      assert.equal(watch.todo.isPublic, true);
      await updateTodo(callerOf(user), todo.id, { isPublic: false });
      assert.equal(watch.todo.isPublic, false);
    } finally {
      unwatch();
    }
  });
});

describe("fan-out", () => {
  test("runs after the publishing turn of the event loop, in publishing order: a response sent right after publish never waits for it", async () => {
    const emitted: string[] = [];
    const to = io.to.bind(io);
    io.to = ((rooms: Parameters<typeof io.to>[0]) => {
      const op = to(rooms);
      const emit = op.emit.bind(op);
      op.emit = ((ev: string, ...rest: unknown[]) => {
        // The public viewers' signal (server/realtime/public-todos.ts) carries no data.
        if (ev !== "publicTodo.changed") emitted.push((rest[0] as { data: { n: number } }).data.n.toString());
        return emit(ev, ...rest);
      }) as typeof op.emit;
      return op;
    }) as typeof io.to;
    try {
      for (let n = 0; n < 3; n++) rt().bus.publish({ type: "todo.updated", todoId: "fanout-order", data: { n } });
      assert.deepEqual(emitted, [], "nothing is written to sockets inside the publishing turn");
      await new Promise((r) => setImmediate(r));
      assert.deepEqual(emitted, ["0", "1", "2"]);
    } finally {
      io.to = to;
    }
  });
});
