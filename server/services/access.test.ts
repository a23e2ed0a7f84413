import { test } from "node:test";
import assert from "node:assert/strict";
import type { Caller } from "../auth/caller.ts";
import { ApiError } from "../http/errors.ts";
import { createTestUser, suiteTestRuntime } from "../testing/runtime.ts";
import { callerOf } from "../testing/caller.ts";
import { allows, getProjectOrThrow, requireProjectAccess, type Need } from "./access.ts";

const testRuntime = suiteTestRuntime();

async function outcome(caller: Caller, projectId: string, need: Need): Promise<string> {
  try {
    return await requireProjectAccess(caller, projectId, need);
  } catch (err) {
    assert.ok(err instanceof ApiError);
    return err.status.toString();
  }
}

test("role ranks: viewer reads, editor writes, owner does everything", () => {
  assert.deepEqual(
    (["viewer", "editor", "owner"] as const).map((r) => (["read", "write", "owner"] as const).map((n) => allows(r, n))),
    [
      [true, false, false],
      [true, true, false],
      [true, true, true],
    ],
  );
});

test("access matrix: owner, editor, viewer, stranger, missing project", async () => {
  const [owner, editor, viewer, stranger] = await Promise.all([1, 2, 3, 4].map(() => createTestUser(testRuntime.prisma)));
  const project = await testRuntime.prisma.project.create({ data: { ownerId: owner!.id, name: "Matrix" } });
  await testRuntime.prisma.projectShare.createMany({
    data: [
      { projectId: project.id, userId: editor!.id, role: "editor" },
      { projectId: project.id, userId: viewer!.id, role: "viewer" },
    ],
  });
  const table: Record<string, string[]> = {};
  for (const [name, user] of Object.entries({ owner, editor, viewer, stranger })) {
    table[name] = [];
    for (const need of ["read", "write", "owner"] as const) table[name].push(await outcome(callerOf(user!), project.id, need));
  }
  assert.deepEqual(table, {
    owner: ["owner", "owner", "owner"],
    editor: ["editor", "editor", "403"],
    viewer: ["viewer", "403", "403"],
    stranger: ["404", "404", "404"],
  });
  assert.equal(await outcome(callerOf(owner!), "cnosuchproject", "read"), "404");
});

test("getProjectOrThrow returns the row with the role, and hides what the caller cannot read", async () => {
  const [owner, viewer, stranger] = await Promise.all([1, 2, 3].map(() => createTestUser(testRuntime.prisma)));
  const project = await testRuntime.prisma.project.create({ data: { ownerId: owner!.id, name: "Row" } });
  await testRuntime.prisma.projectShare.create({ data: { projectId: project.id, userId: viewer!.id, role: "viewer" } });
  const got = await getProjectOrThrow(callerOf(viewer!), project.id, "read");
  assert.equal(got.role, "viewer");
  assert.equal(got.project.name, "Row");
  const hidden = await getProjectOrThrow(callerOf(stranger!), project.id, "read").catch((e: ApiError) => e);
  const missing = await getProjectOrThrow(callerOf(stranger!), "cmissing", "read").catch((e: ApiError) => e);
  assert.ok(hidden instanceof ApiError && missing instanceof ApiError);
  assert.deepEqual(hidden.toBody(), missing.toBody());
  await assert.rejects(getProjectOrThrow(callerOf(viewer!), project.id, "write"), (e: ApiError) => e.code === "FORBIDDEN");
});
