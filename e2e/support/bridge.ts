import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

const BIN = path.resolve("cli/todo.mjs");

export type RunningBridge = { deviceId: string; workspace: string; child: ChildProcess; output(): string; stop(): Promise<number | null> };

/**
 * The real command-line bridge (`todo bridge`) as a child process, enrolled with the user's API
 * key, with a fresh temporary directory as its one workspace path; resolves once it is online.
 */
export async function startBridge(server: string, apiKey: string, name = "e2e-box"): Promise<RunningBridge> {
  const configDir = await mkdtemp(path.join(tmpdir(), "todo-bridge-cfg-"));
  const workspace = await realpath(await mkdtemp(path.join(tmpdir(), "todo-bridge-ws-")));
  const child = spawn(process.execPath, [BIN, "bridge", "--name", name, "--path", workspace, "--json"], {
    env: { ...process.env, TODO_API_KEY: apiKey, TODO_SERVER: server, TODO_CONFIG_DIR: configDir, TODO_NO_BROWSER: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stderr!.on("data", (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  const line = await new Promise<string>((resolve, reject) => {
    child.stdout!.once("data", (d: Buffer) => resolve(d.toString()));
    void exited.then(() => reject(new Error(`bridge exited: ${out}`)));
  });
  const { deviceId } = JSON.parse(line) as { deviceId: string };
  return {
    deviceId,
    workspace,
    child,
    output: () => out,
    stop: async () => {
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      const code = await exited;
      clearTimeout(timer);
      await rm(configDir, { recursive: true, force: true });
      await rm(workspace, { recursive: true, force: true });
      return code;
    },
  };
}
