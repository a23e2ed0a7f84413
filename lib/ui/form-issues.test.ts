import { test } from "node:test";
import assert from "node:assert/strict";
import { z } from "zod";
import { ApiClientError } from "../api/client.ts";
import { apiFieldErrors, errorMessage, issueMessages, issueSummary, zodFieldErrors } from "./form-issues.ts";

const schema = z.object({ name: z.string().min(1, "must not be empty"), agent: z.object({ temperature: z.number().max(2, "at most 2") }) });
const failed = (v: unknown) => {
  const r = schema.safeParse(v);
  assert.equal(r.success, false);
  return r.error!;
};

test("issue messages name their field: by label, else by path; the two forms' separators", () => {
  const { issues } = failed({ name: "", agent: { temperature: 3 } });
  assert.deepEqual(issueMessages(issues, { name: "Name" }), ["Name must not be empty", "agent.temperature at most 2"]);
  assert.deepEqual(issueMessages(issues, { name: "Message" }, ": "), ["Message: must not be empty", "agent.temperature: at most 2"]);
  assert.equal(issueSummary(issues, { name: "Name", "agent.temperature": "Temperature" }), "Name must not be empty; Temperature at most 2");
  assert.deepEqual(issueMessages([{ path: [], message: "nothing to change" }], { name: "Name" }), ["nothing to change"]);
});

test("field errors from a zod parse and from an API 400 use the same keys", () => {
  assert.deepEqual(zodFieldErrors(failed({ name: "", agent: { temperature: 3 } })), { name: "must not be empty", "agent.temperature": "at most 2" });
  const bad = new ApiClientError("Invalid input", "BAD_REQUEST", 400, {
    issues: [
      { path: "body.agent.temperature", message: "at most 2" },
      { path: "body.agent.temperature", message: "second" },
      { path: "body", message: "whole body" },
      { path: 3, message: "ignored" },
    ],
  });
  assert.deepEqual(apiFieldErrors(bad), { "agent.temperature": "at most 2", "": "whole body" });
  assert.equal(apiFieldErrors(new ApiClientError("Not found", "NOT_FOUND", 404)), null);
  assert.equal(apiFieldErrors(new ApiClientError("Invalid input", "BAD_REQUEST", 400, {})), null);
});

test("errorMessage: the error's own message, else a fallback", () => {
  assert.equal(errorMessage(new ApiClientError("Project not found", "NOT_FOUND", 404)), "Project not found");
  assert.equal(errorMessage(new Error("")), "Something went wrong. Please try again.");
  assert.equal(errorMessage("boom"), "Something went wrong. Please try again.");
});
