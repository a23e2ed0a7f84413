#!/usr/bin/env node
// Runs every *.test.ts beside the code (lib/, server/, scripts/, bench/) with node's test runner.
// Node 20 has no glob support in `node --test`, so the files are listed here.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import path from "node:path";

const roots = ["lib", "server", "scripts", "bench"];
const skip = new Set(["node_modules", "generated", ".next", "data"]);
const files = [];
function walk(dir) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    if (skip.has(e.name)) continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p);
    else if (e.name.endsWith(".test.ts")) files.push(p);
  }
}
roots.forEach(walk);
const filter = process.argv.slice(2);
const chosen = filter.length ? files.filter((f) => filter.some((x) => f.includes(x))) : files;
if (chosen.length === 0) {
  console.error("no unit test files found");
  process.exit(1);
}
// --test-force-exit: a test file that leaves a handle open (a server, a timer) ends when its tests
// have, instead of holding the whole run forever.
const r = spawnSync(process.execPath, ["--import", "tsx", "--test", "--test-concurrency=2", "--test-force-exit", ...chosen.sort()], { stdio: "inherit" });
process.exit(r.status ?? 1);
