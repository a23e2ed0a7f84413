import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { operations } from "../../server/operations/index.ts";
import { ROUTES_FILE, onCookieBase, renderRoutes } from "../../scripts/gen-api-routes.ts";
import { ROUTES } from "./routes.ts";

test("lib/api/routes.ts is what the registry generates (run `npx tsx scripts/gen-api-routes.ts` after changing an operation)", () => {
  assert.equal(readFileSync(ROUTES_FILE, "utf8"), renderRoutes(operations));
});

test("the route map holds exactly the cookie base's operations, with the registry's method and path", () => {
  const expected = Object.fromEntries(operations.filter(onCookieBase).map((op) => [op.id, [op.method, op.path]]));
  assert.deepEqual(
    Object.fromEntries(Object.entries(ROUTES).map(([id, [method, path]]) => [id, [method, path]])),
    expected,
  );
  // Operations no session may call (device-only, API-key-only) are not in the browser's map.
  for (const op of operations.filter((o) => !onCookieBase(o))) assert.equal(op.id in ROUTES, false, op.id);
});
