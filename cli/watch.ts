import { io, type Socket } from "socket.io-client";
import type { Client } from "./client.ts";

// `--watch`: streams the agent's reply (message.delta) from Socket.IO until the turn ends.

const ENDED = new Set(["READY", "DONE", "ERROR", "CANCELLED", "PAUSED"]);
const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

type Envelope = { todoId?: string; data: { messageId?: string; delta?: string; status?: string } };

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

async function connect(server: string, token: string): Promise<Socket> {
  const socket = io(server, { path: "/socket.io", transports: ["websocket"], auth: { token }, reconnection: false });
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", () => resolve());
    socket.once("connect_error", (err) => reject(err));
  });
  return socket;
}

/**
 * Prints the reply as it streams (`write`, unless quiet) and resolves with the final status once
 * the todo leaves RUNNING. The subscription returns the todo as it stands, so text written before
 * it is printed first and nothing is lost or repeated: the final message is checked at the end.
 */
export async function watchTodo(client: Client, token: string, todoId: string, opts: { quiet: boolean }): Promise<string> {
  const socket = await connect(client.server, token);
  const write = (s: string) => {
    if (!opts.quiet) process.stdout.write(s);
  };
  const spin = spinner(!opts.quiet && !!process.stderr.isTTY);
  let printed = "";
  let messageId: string | undefined;
  // Deltas that arrive before the snapshot may already be in it: held until it is here.
  let held: { messageId?: string; delta: string }[] | null = [];
  const show = (id: string | undefined, delta: string) => {
    if (messageId && id !== messageId) return;
    messageId = id;
    spin.stop();
    printed += delta;
    write(delta);
  };
  try {
    const ended = new Promise<string>((resolve) => {
      socket.on("todo.status", (e: Envelope) => {
        if (e.todoId === todoId && e.data.status && ENDED.has(e.data.status)) resolve(e.data.status);
      });
    });
    socket.on("message.delta", (e: Envelope) => {
      if (e.todoId !== todoId || !e.data.delta) return;
      if (held) held.push({ messageId: e.data.messageId, delta: e.data.delta });
      else show(e.data.messageId, e.data.delta);
    });
    const snapshot = await client.call("todo_subscribe", { params: { todoId }, body: { todoId, socketId: socket.id } });
    // The reply streaming now (the newest assistant message after the newest user message), as stored.
    const last = snapshot.messages.at(-1);
    if (last?.role === "assistant" && snapshot.status === "RUNNING") {
      messageId = last.id;
      if (last.content) show(last.id, last.content);
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
    const status = ENDED.has(snapshot.status) ? snapshot.status : await ended;
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
