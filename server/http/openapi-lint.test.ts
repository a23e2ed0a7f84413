import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { operations } from "../operations/index.ts";
import { buildOpenApi } from "./openapi.ts";

// The served document, linted by the two tools an external client is likely to use. Their rule
// sets are redocly.yaml and .spectral.yaml at the repository's root (rules off only with a reason).
const root = path.resolve(import.meta.dirname, "../..");
const bin = (name: string) => path.join(root, "node_modules", ".bin", name);

function lint(doc: unknown): { redocly: { status: number | null; output: string }; spectral: { status: number | null; output: string } } {
  const dir = mkdtempSync(path.join(tmpdir(), "openapi-lint-"));
  try {
    const file = path.join(dir, "openapi.json");
    writeFileSync(file, JSON.stringify(doc, null, 2));
    const run = (cmd: string, args: string[]) => {
      const r = spawnSync(cmd, args, { cwd: root, encoding: "utf8", env: { ...process.env, REDOCLY_TELEMETRY: "off", NO_COLOR: "1", FORCE_COLOR: "0" } });
      return { status: r.status, output: `${r.stdout}${r.stderr}${r.error ? String(r.error) : ""}` };
    };
    return {
      redocly: run(bin("redocly"), ["lint", "--config", path.join(root, "redocly.yaml"), "--format", "stylish", file]),
      spectral: run(bin("spectral"), ["lint", "--ruleset", path.join(root, ".spectral.yaml"), "--fail-severity", "error", "--format", "text", file]),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("OpenAPI lint", () => {
  test("the generated document passes redocly (recommended) and spectral (spectral:oas) without errors", () => {
    const { redocly, spectral } = lint(buildOpenApi(operations));
    assert.equal(redocly.status, 0, `redocly lint:\n${redocly.output}`);
    assert.equal(spectral.status, 0, `spectral lint:\n${spectral.output}`);
  });

  test("both linters fail a document with an error (so the test above can fail)", () => {
    const doc = buildOpenApi(operations) as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
    doc.paths["/projects"]!.get!.responses["200"] = { description: "x", content: { "application/json": { schema: { $ref: "#/components/schemas/Missing" } } } };
    const { redocly, spectral } = lint(doc);
    assert.notEqual(redocly.status, 0, redocly.output);
    assert.match(redocly.output, /no-unresolved-refs/);
    assert.notEqual(spectral.status, 0, spectral.output);
  });
});
