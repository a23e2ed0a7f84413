// Holds the statuses the e2e servers answered (E2E_RECORD_STATUSES files, see
// server/http/status-record.ts) against those the OpenAPI document declares; exits 1 listing any
// that is not declared. Run by e2e/global-teardown.ts; by hand: node --import tsx
// scripts/check-observed-statuses.ts <file or directory>…
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { operations } from "../server/operations/index.ts";
import { buildOpenApi } from "../server/http/openapi.ts";
import { parseObserved, undeclared } from "../server/http/status-record.ts";

function files(p: string): string[] {
  let stat;
  try {
    stat = statSync(p);
  } catch {
    return [];
  }
  if (stat.isFile()) return p.endsWith(".jsonl") && path.basename(p).startsWith("statuses") ? [p] : [];
  return readdirSync(p).flatMap((name) => files(path.join(p, name)));
}

const found = process.argv.slice(2).flatMap(files);
const observed = parseObserved(found.map((f) => readFileSync(f, "utf8")).join("\n"));
const problems = undeclared(buildOpenApi(operations) as Parameters<typeof undeclared>[0], observed);
const ops = new Set(observed.map((o) => o.op)).size;
if (problems.length) {
  console.error(`Statuses answered but not declared in the OpenAPI document (server/http/openapi.ts declaredStatuses, or \`errors\` on the operation):\n  ${problems.join("\n  ")}`);
  process.exit(1);
}
console.log(`declared statuses: ${observed.length} observed (operation, status) pairs over ${ops} operations, all declared (${found.length} files)`);
