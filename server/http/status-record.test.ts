import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { z } from "zod";
import type { Caller } from "../auth/caller.ts";
import { ANY_CREDENTIAL, defineOperation, type AnyOperation } from "./define.ts";
import { operations } from "../operations/index.ts";
import { ApiError } from "./errors.ts";
import { buildOpenApi } from "./openapi.ts";
import { createPipeline } from "./pipeline.ts";
import { Router } from "./router.ts";
import { parseObserved, undeclared } from "./status-record.ts";

type Doc = Parameters<typeof undeclared>[0];

describe("recording statuses (E2E_RECORD_STATUSES)", () => {
  test("the pipeline appends each (operation, status) pair once; unmatched paths and an unset variable record nothing", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "statuses-"));
    const file = path.join(dir, "statuses-1.jsonl");
    const caller: Caller = { credential: "apiKey", userId: "u_1", email: "a@example.com", name: "A", isAdmin: false, apiKeyId: "k_1" };
    const op = defineOperation({
      id: "thing_conflict",
      method: "POST",
      path: "/things/{thingId}",
      summary: "s",
      tag: "T",
      auth: ANY_CREDENTIAL,
      params: z.object({ thingId: z.string() }),
      response: z.null(),
      handler: async ({ params }) => {
        if (params.thingId === "busy") throw new ApiError("CONFLICT", "busy");
        return null;
      },
    });
    const handle = createPipeline(new Router([op]), async () => caller, "http://app.test");
    const post = (p: string) => handle("api", new Request(`http://app.test/api/v1${p}`, { method: "POST" }));
    const saved = process.env.E2E_RECORD_STATUSES;
    try {
      delete process.env.E2E_RECORD_STATUSES;
      await post("/things/free");
      process.env.E2E_RECORD_STATUSES = file;
      for (const p of ["/things/free", "/things/busy", "/things/free", "/things/busy", "/nothing/here"]) await post(p);
      const lines = readFileSync(file, "utf8").trim().split("\n");
      assert.deepEqual(lines.map((l) => JSON.parse(l)), [
        { op: "thing_conflict", status: 200 },
        { op: "thing_conflict", status: 409 },
      ]);
    } finally {
      if (saved === undefined) delete process.env.E2E_RECORD_STATUSES;
      else process.env.E2E_RECORD_STATUSES = saved;
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("parseObserved reads several files' lines without repeats", () => {
    const text = ['{"op":"a","status":200}', '{"op":"a","status":404}', "", '{"op":"a","status":200}'].join("\n");
    assert.deepEqual(parseObserved(text), [
      { op: "a", status: 200 },
      { op: "a", status: 404 },
    ]);
  });
});

describe("declared vs observed", () => {
  const doc = buildOpenApi(operations) as Doc;

  test("statuses the registry declares pass", () => {
    assert.deepEqual(
      undeclared(doc, [
        { op: "apiKey_create", status: 200 },
        { op: "apiKey_create", status: 409 },
        { op: "todo_updateStatus", status: 409 },
        { op: "user_setDefaultProject", status: 404 },
        { op: "project_get", status: 403 },
        { op: "project_list", status: 429 },
      ]),
      [],
    );
  });

  test("an undeclared status, a 5xx and an unknown operation are each reported", () => {
    assert.deepEqual(
      undeclared(doc, [
        { op: "project_list", status: 404 },
        { op: "project_list", status: 500 },
        { op: "nope_op", status: 200 },
      ]),
      ["nope_op: not in the document (answered 200)", "project_list: answered 404, which it does not declare", "project_list: answered 500, a server error"],
    );
  });

  test("removing a declaration from an operation makes its observed status undeclared", () => {
    const withoutConflict = operations.map((op) => (op.id === "apiKey_create" ? ({ ...op, errors: [] } as AnyOperation) : op));
    const observed = [{ op: "apiKey_create", status: 409 }];
    assert.deepEqual(undeclared(doc, observed), []);
    assert.deepEqual(undeclared(buildOpenApi(withoutConflict) as Doc, observed), ["apiKey_create: answered 409, which it does not declare"]);
  });
});
