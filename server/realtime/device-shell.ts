import type { Server } from "socket.io";
import { SHELL_EXIT, SHELL_OUTPUT, ZShellExit, ZShellOutput, type ShellAck } from "../../lib/shell-protocol.ts";
import { log } from "../log.ts";
import { failRunsOfDevice, receiveShellExit, receiveShellOutput } from "../services/todos/shell.ts";
import type { EventBus } from "./bus.ts";
import type { SocketData } from "./socket-data.ts";

// The bridge's half of the agent's shell commands (lib/shell-protocol.ts): output and exits come
// in on a device's own connection, wherever it is connected, and are taken for that device's runs
// only; a device that goes offline (device.offline, published once by the process that saw it go,
// also for a process that died) fails its running commands.

/** Listens on device connections; returns the stop function. */
export function attachDeviceShell(io: Server, bus: EventBus): () => void {
  io.on("connection", (socket) => {
    const data = socket.data as SocketData | undefined;
    const deviceId = data?.deviceId;
    if (!deviceId || data.todoScope) return;
    const handle = <T>(parse: (v: unknown) => T, run: (msg: T) => Promise<boolean>) => (raw: unknown, ack?: (a: ShellAck) => void) => {
      let msg: T;
      try {
        msg = parse(raw);
      } catch {
        ack?.({ ok: false, error: "malformed message" });
        return;
      }
      run(msg)
        .then((ok) => ack?.(ok ? { ok: true } : { ok: false, error: "no such running command of this device" }))
        .catch((err: unknown) => {
          log.error("shell message failed", { deviceId, error: String(err) });
          ack?.({ ok: false, error: "server error" });
        });
    };
    socket.on(SHELL_OUTPUT, handle((v) => ZShellOutput.parse(v), (m) => receiveShellOutput(deviceId, m)));
    socket.on(SHELL_EXIT, handle((v) => ZShellExit.parse(v), (m) => receiveShellExit(deviceId, m)));
  });
  return bus.subscribe((event) => {
    if (event.type !== "device.offline") return;
    const deviceId = (event.data as { deviceId?: unknown } | null)?.deviceId;
    if (typeof deviceId === "string" && event.userId) void failRunsOfDevice(deviceId, event.userId).catch((err: unknown) => log.error("could not end a gone device's commands", { deviceId, error: String(err) }));
  });
}
