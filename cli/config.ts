import { chmod, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import path from "node:path";

// The stored login: one JSON file in the user's config directory, mode 0600 in a 0700 directory.
// TODO_CONFIG_DIR overrides the directory (tests, several accounts).

export type StoredConfig = {
  server: string;
  apiKey?: string;
  /** Set by `todo bridge`: the device's durable credentials. */
  device?: { id: string; secret: string };
};

export function configDir(): string {
  if (process.env.TODO_CONFIG_DIR) return process.env.TODO_CONFIG_DIR;
  if (process.platform === "win32" && process.env.APPDATA) return path.join(process.env.APPDATA, "todo-service");
  return path.join(process.env.XDG_CONFIG_HOME || path.join(homedir(), ".config"), "todo-service");
}

export const configFile = () => path.join(configDir(), "config.json");

export async function readConfig(): Promise<StoredConfig | null> {
  try {
    return JSON.parse(await readFile(configFile(), "utf8")) as StoredConfig;
  } catch {
    return null;
  }
}

export async function writeConfig(config: StoredConfig): Promise<void> {
  await mkdir(configDir(), { recursive: true, mode: 0o700 });
  const file = configFile();
  await writeFile(file, JSON.stringify(config, null, 2) + "\n", { mode: 0o600 });
  // writeFile keeps the mode of a file that already exists: set it every time.
  await chmod(file, 0o600);
}

export async function clearConfig(): Promise<void> {
  await rm(configFile(), { force: true });
}

export const DEFAULT_SERVER = "http://localhost:3000";

/** --server, then TODO_SERVER, then the stored server, then localhost:3000. */
export function serverOf(flag: string | undefined, stored: StoredConfig | null): string {
  return (flag || process.env.TODO_SERVER || stored?.server || DEFAULT_SERVER).replace(/\/+$/, "");
}
