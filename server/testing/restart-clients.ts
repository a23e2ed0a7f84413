// The clients of the restart fault test (e2e/api/faults.spec.ts, 200 of them) and bench
// (bench/fault-restart.ts, 1,000): half run the browser's subscription logic
// (lib/realtime-subscriptions.ts, with an API key instead of the cookie), half the CLI's
// (`todo … --watch`, cli/watch.ts). Each counts its subscriptions and the todo.updated contents
// it received, so a test can wait for every client to be back and to have every later event.
import { io, type Socket } from "socket.io-client";
import { todoSocket } from "../../cli/watch.ts";
import { keepSubscribed, TargetRegistry } from "../../lib/realtime-subscriptions.ts";

export type RestartClients = {
  sockets: Socket[];
  /** Subscriptions (the todo joined) per client since the start. */
  live: number[];
  /** The `content` of every todo.updated event of the todo, per client. */
  received: Set<string>[];
  close(): void;
};

export function connectRestartClients(base: string, apiKey: string, todoId: string, count: number): RestartClients {
  const received: Set<string>[] = Array.from({ length: count }, () => new Set());
  const live = new Array<number>(count).fill(0);
  const sockets: Socket[] = [];
  for (let i = 0; i < count; i++) {
    let socket: Socket;
    if (i % 2 === 0) {
      const targets = new TargetRegistry();
      socket = io(base, { path: "/socket.io", transports: ["websocket"], auth: targets.auth({ token: apiKey }), reconnectionDelayMax: 2000 });
      keepSubscribed(socket, targets, { kind: "todo", id: todoId }, {
        httpSubscribe: async (t, socketId) => {
          const res = await fetch(`${base}/api/v1/todos/${t.id}/subscribe`, { method: "POST", headers: { "x-api-key": apiKey, "content-type": "application/json", "x-socket-id": socketId }, body: "{}" });
          if (!res.ok) throw new Error(`todo_subscribe ${res.status}`);
        },
        onLive: () => live[i]!++,
        onOffline: () => undefined,
      });
    } else {
      socket = todoSocket(base, apiKey, todoId);
      socket.on("subscription", (o: { subscribed: { id: string }[] }) => {
        if (o.subscribed.some((t) => t.id === todoId)) live[i]!++;
      });
    }
    socket.on("todo.updated", (e: { todoId?: string; data: { content?: string } }) => {
      if (e.todoId === todoId && e.data.content) received[i]!.add(e.data.content);
    });
    sockets.push(socket);
  }
  return { sockets, live, received, close: () => sockets.forEach((s) => s.close()) };
}
