#!/usr/bin/env node
// `npm start`: builds the Next app when the sources changed since the last build, then serves
// production on PORT (default 3000). Nothing else needs to run first.
import { spawnSync, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { serverNodeArgs } from "./server-node.mjs";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const stampFile = path.join(root, ".next", "source-fingerprint");
const SOURCES = ["app", "components", "lib", "public", "auth.ts", "next.config.js", "package-lock.json", "tsconfig.json", "server/http/bridge.ts", "server/email"];

function walk(p, out) {
  if (!existsSync(p)) return;
  const st = statSync(p);
  if (st.isDirectory()) for (const name of readdirSync(p).sort()) walk(path.join(p, name), out);
  else out.push(`${path.relative(root, p)}:${st.size}:${st.mtimeMs}`);
}

function fingerprint() {
  const parts = [];
  for (const s of SOURCES) walk(path.join(root, s), parts);
  return createHash("sha256").update(parts.join("\n")).digest("hex");
}

const fp = fingerprint();
const built = existsSync(path.join(root, ".next", "BUILD_ID")) && existsSync(stampFile) && readFileSync(stampFile, "utf8") === fp;
if (!built) {
  console.log("Building the web app (first start or changed sources)…");
  const r = spawnSync(process.execPath, [path.join(root, "node_modules/next/dist/bin/next"), "build"], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", NODE_ENV: "production" },
  });
  if (r.status !== 0) process.exit(r.status ?? 1);
  writeFileSync(stampFile, fp);
}

// `--build-only`: build when needed and stop (npm run cluster builds once for all its processes).
if (process.argv.includes("--build-only")) process.exit(0);

const child = spawn(process.execPath, serverNodeArgs(path.join(root, "server/main.ts")), {
  cwd: root,
  stdio: "inherit",
  env: { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" },
});
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => child.kill(sig));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
