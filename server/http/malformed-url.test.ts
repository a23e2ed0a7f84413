import { describe, test } from "node:test";
import assert from "node:assert/strict";
import type { IncomingMessage, ServerResponse } from "node:http";
import { answerMalformedApiUrl } from "./malformed-url.ts";

function fakeExchange(url: string, headers: Record<string, string> = {}) {
  const sent: { status?: number; headers?: Record<string, string>; body?: string } = {};
  const req = { url, headers } as unknown as IncomingMessage;
  const res = {
    writeHead(status: number, h: Record<string, string>) {
      sent.status = status;
      sent.headers = h;
      return this;
    },
    end(body: string) {
      sent.body = body;
    },
  } as unknown as ServerResponse;
  return { answered: answerMalformedApiUrl(req, res), sent };
}

describe("answerMalformedApiUrl: broken percent-encodings under the API bases", () => {
  test("400 in the error shape with x-request-id, on every base", () => {
    for (const url of ["/api/v1/todos/%E0%A4%A", "/cookie/v1/todos/%ED%A0%80?x=1", "/dst/v1/projects/%ZZ/brand", "/api/v1/%"]) {
      const { answered, sent } = fakeExchange(url, { "x-request-id": "rid-1" });
      assert.equal(answered, true, url);
      assert.equal(sent.status, 400);
      assert.equal(sent.headers!["x-request-id"], "rid-1");
      const body = JSON.parse(sent.body!) as { code: string; message: string; data: { issues: { path: string }[] } };
      assert.equal(body.code, "BAD_REQUEST");
      assert.equal(body.data.issues[0]!.path, "path");
    }
  });
  test("leaves well-formed API paths, other paths and broken query strings to Next", () => {
    for (const url of ["/api/v1/todos/%00", "/api/v1/todos/abc?search=%E0%A4%A", "/share/%E0%A4%A", "/api/v10/%E0", "/"]) assert.equal(fakeExchange(url).answered, false, url);
  });
});
