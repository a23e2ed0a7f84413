import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Config } from "../config.ts";
import { log } from "../log.ts";

/**
 * Auth.js needs a secret. Without AUTH_SECRET the server makes one once and keeps it in
 * data/auth-secret (mode 600), so sign-ins survive restarts on the embedded default.
 */
export function ensureAuthSecret(config: Config): Config {
  if (config.authSecret) {
    process.env.AUTH_SECRET = config.authSecret;
    return config;
  }
  const file = path.join(config.dataDir, "auth-secret");
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  if (!existsSync(file)) {
    try {
      // "wx": of several processes starting on one data directory, the first one writes it.
      writeFileSync(file, randomBytes(32).toString("base64url"), { mode: 0o600, flag: "wx" });
      log.info("AUTH_SECRET not set: generated one in data/auth-secret");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
  }
  const secret = readFileSync(file, "utf8").trim();
  process.env.AUTH_SECRET = secret;
  return { ...config, authSecret: secret };
}
