import { spawn } from "node:child_process";
import type { Client } from "./client.ts";
import { CliError, EXIT } from "./exit-codes.ts";

type Init = { code: string; userCode: string; url: string; expiresIn: number; interval: number };
export type Completed = { status: "complete"; apiKey?: string; edgeId?: string; device?: { id: string; secret: string }; apiToken?: string; expiresAt?: number };

/** Opens the approval page in the user's browser when there is one to open; never fails the login. */
function openBrowser(url: string): void {
  if (process.env.TODO_NO_BROWSER || !process.stdout.isTTY) return;
  const cmd = process.platform === "darwin" ? "open" : process.platform === "win32" ? "cmd" : "xdg-open";
  const args = process.platform === "win32" ? ["/c", "start", "", url] : [url];
  try {
    spawn(cmd, args, { stdio: "ignore", detached: true }).on("error", () => undefined).unref();
  } catch {
    // no browser: the URL is printed
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** RFC 8628 from the client's side: init, show the code, poll at the interval (slower when told), until done. */
export async function deviceLogin(client: Client, clientName: "cli" | "bridge", name: string, say: (line: string) => void): Promise<Completed> {
  const start = (await client.call("cli_loginInit", { body: { clientName, name } })) as Init;
  say(`Open ${start.url}`);
  say(`and check that it shows the code ${start.userCode}`);
  openBrowser(start.url);
  let interval = start.interval;
  const deadline = Date.now() + start.expiresIn * 1000;
  while (Date.now() < deadline) {
    await sleep(interval * 1000);
    const res = await client.raw("cli_loginPoll", { query: { code: start.code } });
    if (res.status === 429) {
      // slow_down: wait what the server asks, and poll 5 s slower from now on (RFC 8628 §3.5).
      interval = Math.max(interval + 5, Number(res.headers.get("retry-after") ?? 0));
      continue;
    }
    const body = (await res.json()) as { status?: string; message?: string };
    if (!res.ok) throw new CliError(body.message ?? `HTTP ${res.status}`, EXIT.LOGIN_REFUSED);
    if (body.status === "complete") return body as Completed;
    if (body.status === "denied") throw new CliError("The login was denied in the browser.", EXIT.LOGIN_REFUSED);
    if (body.status === "expired") break;
  }
  throw new CliError("The login code expired. Run the command again.", EXIT.LOGIN_REFUSED);
}
