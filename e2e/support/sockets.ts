import { io, type Socket } from "socket.io-client";

/** `origin` sends the Origin a browser page on that site would send (scripts send none). */
export async function connect(baseURL: string, auth: { token?: string; cookie?: string; origin?: string }): Promise<Socket> {
  const headers = { ...(auth.cookie ? { cookie: auth.cookie } : {}), ...(auth.origin ? { origin: auth.origin } : {}) };
  const socket = io(baseURL, {
    path: "/socket.io",
    transports: ["websocket"],
    auth: auth.token ? { token: auth.token } : {},
    extraHeaders: Object.keys(headers).length ? headers : undefined,
    reconnection: false,
    timeout: 10_000,
  });
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", () => resolve());
    socket.once("connect_error", (err) => reject(err));
  });
  return socket;
}

/** Resolves with the first `type` event matching `pred`, or rejects after `ms`. */
export function nextEvent<T = { type: string; data: unknown }>(socket: Socket, type: string, pred: (e: T) => boolean = () => true, ms = 10_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.off(type, on);
      reject(new Error(`no ${type} event within ${ms} ms`));
    }, ms);
    const on = (e: T) => {
      if (!pred(e)) return;
      clearTimeout(timer);
      socket.off(type, on);
      resolve(e);
    };
    socket.on(type, on);
  });
}

/** Collects every `type` event for `ms` (to prove that something did NOT arrive). */
export async function collect(socket: Socket, type: string, ms: number): Promise<unknown[]> {
  const seen: unknown[] = [];
  const on = (e: unknown) => seen.push(e);
  socket.on(type, on);
  await new Promise((r) => setTimeout(r, ms));
  socket.off(type, on);
  return seen;
}
