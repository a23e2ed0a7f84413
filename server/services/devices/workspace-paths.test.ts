import { test } from "node:test";
import assert from "node:assert/strict";
import { ApiError } from "../../http/errors.ts";
import { normaliseWorkspacePaths } from "./workspace-paths.ts";

test("absolute paths are normalised and deduplicated, in order", () => {
  assert.deepEqual(normaliseWorkspacePaths(["/home/ada/src/", "/home//ada/./src", "/srv/app", "C:\\Users\\ada\\", "D:/work"]), [
    "/home/ada/src",
    "/srv/app",
    "C:\\Users\\ada",
    "D:\\work",
  ]);
  assert.deepEqual(normaliseWorkspacePaths([]), []);
});

test("relative paths, roots, '..' and control characters are 400 with one issue per bad entry", () => {
  for (const bad of ["relative/path", "./x", "/", "//", "/home/../etc", "/home/ada/..", "C:\\", "C:/", "C:\\a\\..\\b", "/tmp/a\nb", "~/src", "/tmp/a\tb", "/tmp/\u001b[31mred", "/tmp/a\u007fb", "/tmp/a\u0085b"]) {
    assert.throws(
      () => normaliseWorkspacePaths(["/ok", bad]),
      (err: unknown) => err instanceof ApiError && err.status === 400 && (err.data as { issues: { path: string }[] }).issues[0]!.path === "body.1",
      bad,
    );
  }
});
