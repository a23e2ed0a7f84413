import { io, type Socket } from "socket.io-client";
import type { Client } from "./client.ts";

// `--watch`: streams the agent's reply (message.delta) from Socket.IO until the turn ends.

const ENDED = new Set(["READY", "DONE", "ERROR", "CANCELLED", "PAUSED"]);
const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

type Envelope = { todoId?: string; data: { messageId?: string; delta?: string; status?: string } };
type BlockLike = { id: string; type: string; content: unknown };

/** A shell command the agent proposed that waits for the user's decision. */
export function isPendingShell(block: BlockLike): boolean {
  return block.type === "shell" && (block.content as { state?: unknown } | null)?.state === "pending";
}

/** A waiting shell command (isPendingShell) as a line for people, with the commands that decide it; else null. */
export function pendingShellNotice(todoId: string, block: BlockLike): string | null {
  if (!isPendingShell(block)) return null;
  const c = block.content as { command?: unknown; deviceName?: unknown; path?: unknown };
  return `The agent wants to run \`${String(c.command)}\` on ${String(c.deviceName)}:${String(c.path)}. Approve: todo approve ${todoId} ${block.id}   Deny: todo deny ${todoId} ${block.id}`;
}

function spinner(enabled: boolean) {
  if (!enabled) return { stop() {} };
  let i = 0;
  const timer = setInterval(() => process.stderr.write(`\r${FRAMES[i++ % FRAMES.length]} waiting for the agent…`), 100);
  return {
    stop() {
      clearInterval(timer);
      process.stderr.write("\r\x1b[K");
    },
  };
}

/**
 * The CLI's connection for one todo: subscribed in every handshake (auth.subscribe), reconnecting
 * by itself; its `subscription` event says whether the todo was joined, after each (re)connect.
 */
export function todoSocket(server: string, token: string, todoId: string): Socket {
  return io(server, { path: "/socket.io", transports: ["websocket"], auth: { token, subscribe: [{ kind: "todo", id: todoId }] }, reconnectionDelayMax: 2000 });
}

type Subscription = { subscribed?: { kind: string; id: string }[] };

/**
 * Prints the reply as it streams (`write`, unless quiet) and resolves with the final status once
 * the todo leaves RUNNING. The connection subscribes to the todo in its handshake (auth.subscribe),
 * on the first connection and on every reconnect, so a restarted server or a dropped network costs
 * nothing but the gap: after each (re)subscription the todo is read as it stands, text written
 * before it is printed first, and nothing is lost or repeated (the final message is checked at the end).
 */
export async function watchTodo(client: Client, token: string, todoId: string, opts: { quiet: boolean }): Promise<string> {
  const socket = todoSocket(client.server, token, todoId);
  const write = (s: string) => {
    if (!opts.quiet) process.stdout.write(s);
  };
  const spin = spinner(!opts.quiet && !!process.stderr.isTTY);
  let printed = "";
  let messageId: string | undefined;
  // Deltas that arrive before a snapshot may already be in it: held until it is here.
  let held: { messageId?: string; delta: string }[] | null = [];
  const show = (id: string | undefined, delta: string) => {
    if (messageId && id !== messageId) return;
    messageId = id;
    spin.stop();
    printed += delta;
    write(delta);
  };
  // A proposed shell command holds the turn until someone decides: say so once per block (stderr).
  const announced = new Set<string>();
  const announce = (block: BlockLike) => {
    const notice = pendingShellNotice(todoId, block);
    if (!notice || announced.has(block.id)) return;
    announced.add(block.id);
    spin.stop();
    process.stderr.write(`${printed && !printed.endsWith("\n") ? "\n" : ""}${notice}\n`);
  };
  let settle!: (status: string) => void;
  let fail!: (err: unknown) => void;
  const ended = new Promise<string>((resolve, reject) => {
    settle = resolve;
    fail = reject;
  });

  /** After each (re)subscription: the todo as it stands, then the deltas held meanwhile. */
  const catchUp = async () => {
    const snapshot = await client.call("todo_get", { params: { todoId } });
    // The reply streaming now (the newest assistant message after the newest user message), as stored.
    const last = snapshot.messages.at(-1);
    if (last?.role === "assistant" && snapshot.status === "RUNNING" && (!messageId || last.id === messageId)) {
      messageId = last.id;
      if (last.content.startsWith(printed)) show(last.id, last.content.slice(printed.length));
    }
    // The held deltas already stored are a prefix of them (the stream only appends): skip those.
    const pending = (held ?? []).filter((d) => !messageId || d.messageId === messageId);
    let skip = 0;
    for (let j = pending.length; j > 0; j--)
      if (printed.endsWith(pending.slice(0, j).map((d) => d.delta).join(""))) {
        skip = j;
        break;
      }
    held = null;
    for (const d of pending.slice(skip)) show(d.messageId, d.delta);
    for (const block of snapshot.blocks) announce(block);
    if (ENDED.has(snapshot.status)) settle(snapshot.status);
  };

  try {
    socket.on("todo.status", (e: Envelope) => {
      if (e.todoId === todoId && e.data.status && ENDED.has(e.data.status)) settle(e.data.status);
    });
    socket.on("message.delta", (e: Envelope) => {
      if (e.todoId !== todoId || !e.data.delta) return;
      if (held) held.push({ messageId: e.data.messageId, delta: e.data.delta });
      else show(e.data.messageId, e.data.delta);
    });
    socket.on("block.updated", (e: { todoId?: string; data: BlockLike }) => {
      if (e.todoId === todoId && e.data) announce(e.data);
    });
    // Deltas sent while offline are lost: hold the next ones until the todo was read again.
    socket.on("disconnect", () => (held ??= []));
    socket.on("subscription", (outcome: Subscription) => {
      const ok = outcome?.subscribed?.some((t) => t.kind === "todo" && t.id === todoId);
      // Refused: todo_subscribe answers why (404, 403…), or subscribes after all.
      const joined = ok ? Promise.resolve() : client.call("todo_subscribe", { params: { todoId }, body: { todoId, socketId: socket.id } }).then(() => undefined);
      joined.then(catchUp).catch(fail);
    });
    // Only the first connection's failure is fatal; later ones are retried by Socket.IO.
    const firstError = (err: Error) => fail(err);
    socket.once("connect_error", firstError);
    socket.once("connect", () => socket.off("connect_error", firstError));
    const status = await ended;
    spin.stop();
    const final = await client.call("todo_get", { params: { todoId } });
    const reply = [...final.messages].reverse().find((m) => m.role === "assistant");
    if (reply) {
      if (reply.content.startsWith(printed)) write(reply.content.slice(printed.length));
      else write(`\n${reply.content}`);
      write("\n");
    }
    return status;
  } finally {
    spin.stop();
    socket.disconnect();
  }
}
