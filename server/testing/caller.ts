// What service tests share: a Caller for a test user, and the check that a call rejected with an ApiError.
import assert from "node:assert/strict";
import type { Caller } from "../auth/caller.ts";
import { ApiError } from "../http/errors.ts";

/** The Caller of a signed-in test user (an API key, not an admin). */
export function callerOf(user: { id: string; email: string }): Caller {
  return { credential: "apiKey", userId: user.id, email: user.email, name: null, isAdmin: false };
}

/** For `assert.rejects`: the error is an ApiError with this code (and a message matching `message`). */
export function apiError(code: string, message?: RegExp) {
  return (err: unknown) => {
    assert.ok(err instanceof ApiError, `expected an ApiError, got ${String(err)}`);
    assert.equal(err.code, code);
    if (message) assert.match(err.message, message);
    return true;
  };
}
