#!/usr/bin/env node
// The registry these machines reach has no darwin/win32 builds of Next's SWC, so `npm install`
// leaves them out of package-lock.json and `npm ci` then refuses the lockfile. This adds the
// missing optional platform entries (restricted by os/cpu, so no machine here ever fetches
// them). Run it after any `npm install` that changes the lockfile: `node scripts/complete-lockfile.mjs`.
import { readFileSync, writeFileSync } from "node:fs";

const PLATFORMS = {
  "darwin-arm64": { os: ["darwin"], cpu: ["arm64"] },
  "darwin-x64": { os: ["darwin"], cpu: ["x64"] },
  "win32-arm64-msvc": { os: ["win32"], cpu: ["arm64"] },
  "win32-x64-msvc": { os: ["win32"], cpu: ["x64"] },
};

const file = new URL("../package-lock.json", import.meta.url);
const lock = JSON.parse(readFileSync(file, "utf8"));
const next = lock.packages["node_modules/next"];
let added = 0;
for (const [suffix, platform] of Object.entries(PLATFORMS)) {
  const name = `@next/swc-${suffix}`;
  const version = next?.optionalDependencies?.[name];
  const key = `node_modules/${name}`;
  if (!version || lock.packages[key]) continue;
  lock.packages[key] = { version, cpu: platform.cpu, license: "MIT", optional: true, os: platform.os, engines: { node: ">= 10" } };
  added++;
}
lock.packages = Object.fromEntries(Object.entries(lock.packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a < b ? -1 : a > b ? 1 : 0)));
writeFileSync(file, JSON.stringify(lock, null, 2) + "\n");
console.log(added ? `package-lock.json: added ${added} optional platform entries` : "package-lock.json already complete");
