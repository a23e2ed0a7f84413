import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, readFile, readdir, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { download, formatBytes, suggestedName } from "./export.ts";

const chunks = (parts: string[], failAfter?: number) =>
  new Response(
    new ReadableStream<Uint8Array>({
      start(c) {
        parts.forEach((p, i) => {
          if (i === failAfter) c.error(new Error("connection reset"));
          else if (failAfter === undefined || i < failAfter) c.enqueue(new TextEncoder().encode(p));
        });
        if (failAfter === undefined) c.close();
      },
    }),
  );

describe("todo export", () => {
  test("the server's file name, never a path; else a dated default", () => {
    const now = new Date(Date.UTC(2026, 10, 27));
    assert.equal(suggestedName('attachment; filename="todo-service-export-2026-11-27.json"', now), "todo-service-export-2026-11-27.json");
    for (const bad of [null, "attachment", 'attachment; filename="../../etc/passwd"', 'attachment; filename="a b.json"', 'attachment; filename="x.sh"'])
      assert.equal(suggestedName(bad, now), "todo-service-export-2026-11-27.json", String(bad));
  });

  test("sizes for people", () => {
    assert.deepEqual([0, 1023, 1536, 5 * 1024 * 1024].map(formatBytes), ["0 B", "1023 B", "1.5 KB", "5.0 MB"]);
  });

  test("a complete download lands whole, readable by its owner only, with its size and progress", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "todo-export-"));
    const target = path.join(dir, "export.json");
    const seen: number[] = [];
    assert.equal(await download(chunks(['{"a":', "1}"]), target, (n) => seen.push(n)), 7);
    assert.equal(await readFile(target, "utf8"), '{"a":1}');
    assert.equal((await stat(target)).mode & 0o777, 0o600);
    assert.deepEqual(seen, [5, 7]);
    assert.deepEqual(await readdir(dir), ["export.json"]);
  });

  test("a download cut off half way leaves nothing behind, and an earlier export as it was", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "todo-export-"));
    const target = path.join(dir, "export.json");
    await writeFile(target, "earlier");
    await assert.rejects(download(chunks(['{"a":', "1", "}"], 2), target), /connection reset/);
    assert.equal(await readFile(target, "utf8"), "earlier");
    assert.deepEqual(await readdir(dir), ["export.json"]);
  });
});
