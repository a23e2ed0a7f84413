#!/usr/bin/env node
// The registry these machines reach lacks some platform builds of native packages (Next's SWC,
// the resolver bindings of eslint's import plugin, …), so `npm install` leaves those optional
// dependencies out of package-lock.json and `npm ci` then refuses the lockfile. This adds each
// missing optional platform entry, restricted by the os/cpu/libc its name states, so no machine
// here ever fetches it. Run it after any `npm install` that changes the lockfile:
//   node scripts/complete-lockfile.mjs
import { readFileSync, writeFileSync } from "node:fs";

const OS = ["darwin", "linux", "win32", "android", "freebsd", "openharmony", "netbsd", "openbsd", "sunos", "aix"];
const CPU = { arm64: "arm64", x64: "x64", ia32: "ia32", loong64: "loong64", ppc64: "ppc64", riscv64: "riscv64", s390x: "s390x", arm: "arm" };

function platformOf(name) {
  const tokens = name.split("/").pop().split("-");
  const os = tokens.find((t) => OS.includes(t));
  const cpuToken = tokens.find((t) => t in CPU);
  if (!os || !cpuToken) return null;
  const entry = { os: [os], cpu: [CPU[cpuToken]] };
  if (os === "linux") {
    if (tokens.some((t) => t.startsWith("musl"))) entry.libc = ["musl"];
    else if (tokens.some((t) => t.startsWith("gnu"))) entry.libc = ["glibc"];
  }
  return entry;
}

const file = new URL("../package-lock.json", import.meta.url);
const lock = JSON.parse(readFileSync(file, "utf8"));
const added = [];
const unknown = [];
for (const [key, pkg] of Object.entries(lock.packages)) {
  for (const [dep, range] of Object.entries(pkg.optionalDependencies ?? {})) {
    const depKey = `node_modules/${dep}`;
    const nestedKey = `${key}/node_modules/${dep}`;
    if (lock.packages[depKey] || lock.packages[nestedKey]) continue;
    const platform = platformOf(dep);
    if (!platform) {
      unknown.push(dep);
      continue;
    }
    lock.packages[depKey] = { version: range.replace(/^[\^~=]/, ""), ...platform, optional: true };
    added.push(dep);
  }
}
if (unknown.length) {
  console.error(`cannot tell the platform of: ${unknown.join(", ")}; add them by hand`);
  process.exit(1);
}
lock.packages = Object.fromEntries(Object.entries(lock.packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a < b ? -1 : a > b ? 1 : 0)));
writeFileSync(file, JSON.stringify(lock, null, 2) + "\n");
console.log(added.length ? `package-lock.json: added ${added.length} optional platform entries` : "package-lock.json already complete");
