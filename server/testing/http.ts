// Test support for HTTP-level unit tests.
import assert from "node:assert/strict";

/** A parsed response body: tests index freely into it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests index freely into parsed bodies
export type Json = any;

/** Reads a Response's text and JSON (undefined when the body is not JSON). */
export async function readResponse(res: Response): Promise<{ status: number; text: string; json: Json }> {
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, text, json };
}

/** The JSON of an answer that must be 200 (a call of TestApp, say); anything else fails with its body. */
export async function ok(res: Promise<{ status: number; text: string; json: Json }>): Promise<Json> {
  const r = await res;
  assert.equal(r.status, 200, r.text);
  return r.json;
}
