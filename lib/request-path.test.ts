import { test } from "node:test";
import assert from "node:assert/strict";
import { signInUrl } from "./request-path.ts";

test("signInUrl: next is the page asked for, without Next's _rsc; home, missing or odd paths go to plain /signin", () => {
  assert.equal(signInUrl("/projects/p1/todos/t1"), "/signin?next=%2Fprojects%2Fp1%2Ftodos%2Ft1");
  assert.equal(signInUrl("/admin/log?course=c1&_rsc=abc"), "/signin?next=%2Fadmin%2Flog%3Fcourse%3Dc1");
  for (const plain of [null, undefined, "", "/", "/?_rsc=1", "//evil.example/x", "https://evil.example/", "/" + "x".repeat(2001)]) assert.equal(signInUrl(plain), "/signin", String(plain));
});
