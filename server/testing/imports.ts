import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

/**
 * A small import graph of the TypeScript files under one directory, for the wiring test
 * (server/wiring.test.ts): no import circle, and the layers point one way. Every kind of import
 * counts (static, `import type`, re-exports, `import("…")`), since each ties one module to another.
 */

const STATIC = /^[ \t]*(?:import|export)\b[^;"'`]*?\bfrom[ \t]*["']([^"']+)["']/gm;
const SIDE_EFFECT = /^[ \t]*import[ \t]*["']([^"']+)["']/gm;
const DYNAMIC = /\bimport\(\s*["']([^"']+)["']\s*\)/g;

/** The module specifiers a source file imports. Comment lines are skipped. */
export function importsOf(source: string): string[] {
  const code = source
    .split("\n")
    .filter((line) => !/^\s*(\/\/|\/\*|\*)/.test(line))
    .join("\n");
  const found = new Set<string>();
  for (const re of [STATIC, SIDE_EFFECT, DYNAMIC]) for (const m of code.matchAll(re)) found.add(m[1]);
  return [...found];
}

function tsFiles(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name === "node_modules" || e.name === "generated") continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) tsFiles(p, out);
    else if (/\.tsx?$/.test(e.name)) out.push(p);
  }
  return out;
}

function resolve(from: string, spec: string): string | null {
  if (!spec.startsWith(".")) return null;
  const base = path.resolve(path.dirname(from), spec);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, "index.ts")]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

/** Every .ts file under `root` → the files under `root` it imports (relative imports only). */
export function importGraph(root: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const inside = root + path.sep;
  for (const file of tsFiles(root)) {
    const targets = importsOf(readFileSync(file, "utf8"))
      .map((spec) => resolve(file, spec))
      .filter((t): t is string => t !== null && t.startsWith(inside));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** The import circles of a graph: each strongly connected set of two or more modules (or a self-import). */
export function findCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  // Tarjan's algorithm, iterative so a deep chain cannot overflow the stack.
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: Array<{ node: string; edge: number }> = [{ node: start, edge: 0 }];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length) {
      const frame = work[work.length - 1];
      const edges = graph.get(frame.node) ?? [];
      if (frame.edge < edges.length) {
        const to = edges[frame.edge++];
        if (!index.has(to)) {
          index.set(to, next);
          low.set(to, next++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, edge: 0 });
        } else if (onStack.has(to)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(to)!));
        }
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1].node;
        low.set(parent, Math.min(low.get(parent)!, low.get(frame.node)!));
      }
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        const selfImport = (graph.get(frame.node) ?? []).includes(frame.node);
        if (component.length > 1 || selfImport) cycles.push(component.reverse());
      }
    }
  }
  return cycles;
}

/**
 * Imports that break the layering rule: from a file under `from` to a file under `to`. `allow`
 * lets a pair through (e.g. a test reading the registry's list).
 */
export function crossings(
  graph: ReadonlyMap<string, readonly string[]>,
  from: string,
  to: string,
  allow: (file: string, target: string) => boolean = () => false,
): Array<[string, string]> {
  const src = from.endsWith(path.sep) ? from : from + path.sep;
  const dst = to.endsWith(path.sep) ? to : to + path.sep;
  const out: Array<[string, string]> = [];
  for (const [file, targets] of graph) {
    if (!file.startsWith(src)) continue;
    for (const target of targets) if (target.startsWith(dst) && !allow(file, target)) out.push([file, target]);
  }
  return out;
}
