import { io, type Socket } from "socket.io-client";
import { createClient, type Client } from "./client.ts";
import { readConfig, writeConfig, type StoredConfig } from "./config.ts";
import { CliError, EXIT } from "./exit-codes.ts";
import { deviceLogin } from "./login.ts";
import { ShellRunner } from "./shell-runner.ts";

// `todo bridge`: this machine as a device. Online while its Socket.IO connection is open; the
// dst_ token is renewed (POST /cli/device/token) before it expires, the connection reopened with
// backoff when it drops, and the workspace paths reported on every (re)connect. Shell commands of
// the agent that the user approved in the chat run here, inside those paths (./shell-runner.ts).

const RENEW_BEFORE_MS = 5 * 60_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Token = { apiToken: string; expiresAt: number };

async function credentials(server: string, name: string, say: (l: string) => void): Promise<{ device: { id: string; secret: string }; token?: Token }> {
  const stored = await readConfig();
  if (stored?.device && (stored.server ?? server) === server) return { device: stored.device };
  const key = process.env.TODO_API_KEY || stored?.apiKey;
  let got: { device: { id: string; secret: string }; apiToken: string; expiresAt: number };
  if (key) {
    // Already logged in: enroll this machine with the key instead of a second browser approval.
    got = await createClient(server, key).call("cli_enrollSelf", { body: { name } });
  } else {
    const done = await deviceLogin(createClient(server), "bridge", name, say);
    got = { device: done.device!, apiToken: done.apiToken!, expiresAt: done.expiresAt! };
  }
  const next: StoredConfig = { ...(stored ?? {}), server, device: got.device };
  await writeConfig(next);
  return { device: got.device, token: { apiToken: got.apiToken, expiresAt: got.expiresAt } };
}

async function exchange(server: string, device: { id: string; secret: string }): Promise<Token> {
  const res = await createClient(server).raw("cli_deviceToken", { body: { deviceId: device.id, deviceSecret: device.secret } });
  if (res.status === 401) {
    const stored = await readConfig();
    if (stored) await writeConfig({ ...stored, device: undefined });
    throw new CliError("This device was deleted or its secret revoked; run `todo bridge` again to enroll anew.", EXIT.AUTH);
  }
  if (!res.ok) throw new CliError(`Token exchange failed (HTTP ${res.status})`, EXIT.ERROR);
  return (await res.json()) as Token;
}

function open(server: string, token: string): Promise<Socket> {
  const socket = io(server, { path: "/socket.io", transports: ["websocket"], auth: { token }, reconnection: false });
  return new Promise((resolve, reject) => {
    socket.once("connect", () => resolve(socket));
    socket.once("connect_error", (err) => {
      socket.close();
      reject(err);
    });
  });
}

export async function runBridge(server: string, opts: { name: string; paths: string[]; say: (l: string) => void; json: boolean }): Promise<void> {
  const { device, token: first } = await credentials(server, opts.name, opts.say);
  let token = first ?? (await exchange(server, device));
  let stopping = false;
  let socket: Socket | undefined;
  let wake: (() => void) | undefined;
  const shell = new ShellRunner(opts.paths, () => socket, opts.say);
  const stop = () => {
    stopping = true;
    shell.stopAll();
    socket?.disconnect();
    wake?.();
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);

  let backoff = 1000;
  let announced = false;
  while (!stopping) {
    try {
      if (token.expiresAt - Date.now() < RENEW_BEFORE_MS) token = await exchange(server, device);
      socket = await open(server, token.apiToken);
      shell.attach(socket);
      backoff = 1000;
      const client: Client = createClient(server, token.apiToken);
      if (opts.paths.length) await client.call("device_setWorkspacePaths", { params: { id: device.id }, body: opts.paths });
      if (!announced) {
        announced = true;
        if (opts.json) process.stdout.write(JSON.stringify({ deviceId: device.id, online: true }) + "\n");
        opts.say(`Bridge online as device ${device.id} (${opts.name}). Ctrl-C stops it.`);
      }
      // Until the connection drops or the token needs renewing (then a fresh connection replaces it).
      const current = socket;
      await new Promise<void>((resolve) => {
        wake = resolve;
        current.once("disconnect", () => resolve());
        const renewIn = Math.max(0, token.expiresAt - Date.now() - RENEW_BEFORE_MS);
        const timer = setTimeout(resolve, Math.min(renewIn, 2 ** 31 - 1));
        current.once("disconnect", () => clearTimeout(timer));
      });
      if (!stopping && current.connected) {
        // Renewal: open the next connection before closing this one, so the device never blinks offline.
        token = await exchange(server, device);
        const next = await open(server, token.apiToken);
        shell.attach(next);
        current.disconnect();
        socket = next;
        await new Promise<void>((resolve) => {
          wake = resolve;
          next.once("disconnect", () => resolve());
        });
      }
    } catch (err) {
      if (err instanceof CliError) throw err;
      if (stopping) break;
      // A refused token (revoked, or the device deleted): exchange again next time, which tells which.
      if ((err as { data?: { code?: string } }).data?.code === "UNAUTHORIZED") token = { ...token, expiresAt: 0 };
      opts.say(`Connection lost (${(err as Error).message}); retrying in ${Math.round(backoff / 1000)} s`);
      await sleep(backoff);
      backoff = Math.min(backoff * 2, 60_000);
      continue;
    }
    if (!stopping) {
      opts.say(`Disconnected; reconnecting in ${Math.round(backoff / 1000)} s`);
      await sleep(backoff);
      backoff = Math.min(backoff * 2, 60_000);
    }
  }
  opts.say("Bridge stopped.");
}
