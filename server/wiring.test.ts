import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { crossings, findCycles, importGraph, importsOf } from "./testing/imports.ts";

// The wiring rules of docs/api.md "Layers": no import circle under server/, and server/http/
// (the transport: router, pipeline, define.ts, OpenAPI) imports nothing from server/operations/.

const SERVER = path.dirname(fileURLToPath(import.meta.url));
const rel = (file: string) => path.relative(SERVER, file).split(path.sep).join("/");

test("importsOf reads static, type-only, re-export and dynamic imports, not strings or comments", () => {
  const source = [
    `import { a } from "./a.ts";`,
    `import type { B } from "../b.ts";`,
    `import "./side-effect.ts";`,
    `export { c } from "./c.ts";`,
    `export * from "./d.ts";`,
    `import {`,
    `  e,`,
    `  f,`,
    `} from "./ef.ts";`,
    `const g = await import("./g.ts");`,
    `// import { no } from "./comment.ts";`,
    `const text = "import { no } from './string.ts'";`,
    `import { z } from "zod";`,
  ].join("\n");
  assert.deepEqual(importsOf(source).sort(), ["../b.ts", "./a.ts", "./c.ts", "./d.ts", "./ef.ts", "./g.ts", "./side-effect.ts", "zod"].sort());
});

test("findCycles finds a circle through a dynamic import and none in a tree", () => {
  assert.deepEqual(findCycles(new Map([["a", ["b"]], ["b", ["c"]], ["c", []]])), []);
  const cycles = findCycles(new Map([["index", ["meta"]], ["meta", ["get"]], ["get", ["index", "x"]], ["x", []]]));
  assert.equal(cycles.length, 1);
  assert.deepEqual([...cycles[0]].sort(), ["get", "index", "meta"]);
});

test("there is no import circle under server/", () => {
  const graph = importGraph(SERVER);
  assert.ok(graph.size > 100, `read ${graph.size} modules`);
  assert.ok(graph.has(path.join(SERVER, "operations/index.ts")));
  const cycles = findCycles(graph).map((c) => c.map(rel).join(" → "));
  assert.deepEqual(cycles, []);
});

const HTTP = path.join(SERVER, "http");
const OPERATIONS = path.join(SERVER, "operations");
const REGISTRY = path.join(OPERATIONS, "index.ts");
/** A test of the whole registry (fuzz, OpenAPI) takes its list as data; nothing else may cross. */
const registryInTests = (file: string, target: string) => file.endsWith(".test.ts") && target === REGISTRY;

test("server/http/ imports nothing from server/operations/ (tests may read the registry's list)", () => {
  const graph = importGraph(SERVER);
  assert.ok([...graph.keys()].filter((f) => f.startsWith(HTTP + path.sep)).length > 10);
  assert.ok(existsSync(path.join(HTTP, "define.ts")));
  const wrong = crossings(graph, HTTP, OPERATIONS, registryInTests).map(([f, t]) => `${rel(f)} → ${rel(t)}`);
  assert.deepEqual(wrong, []);
});

test("crossings reports the pre-issue-10 layout: the pipeline importing operations/define.ts", () => {
  const pipeline = path.join(HTTP, "pipeline.ts");
  const define = path.join(OPERATIONS, "define.ts");
  const fuzz = path.join(HTTP, "fuzz.test.ts");
  const graph = new Map([
    [pipeline, [define]],
    [fuzz, [REGISTRY, define]],
    [REGISTRY, [define]],
  ]);
  assert.deepEqual(crossings(graph, HTTP, OPERATIONS, registryInTests), [
    [pipeline, define],
    [fuzz, define],
  ]);
});
