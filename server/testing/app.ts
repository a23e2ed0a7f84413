// Test support: the real pipeline (every operation of the registry, the real credential resolver)
// over a throw-away test runtime, called in process with fetch Requests.
import { randomUUID } from "node:crypto";
import { BASE_PATH, type Base } from "../auth/caller.ts";
import { resolveCaller } from "../auth/resolve.ts";
import { createPipeline, type Pipeline } from "../http/pipeline.ts";
import { Router } from "../http/router.ts";
import { operations } from "../operations/index.ts";
import { createKeyForUser } from "../services/api-keys/api-keys.ts";
import { readResponse } from "./http.ts";
import { createTestUser, startTestRuntime, suiteFixture, type TestHooks, type TestRuntime, type TestRuntimeOptions } from "./runtime.ts";

export const TEST_APP_URL = "http://app.test";

export type TestAppUser = { userId: string; email: string; apiKey: string; /** A database session, for the cookie base. */ sessionCookie: string };

export type CallOptions = {
  /** Default `api`; `cookie` sends `cookie` and this app's Origin. */
  base?: Base;
  key?: string;
  cookie?: string;
  query?: Record<string, string>;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
};

export type TestApp = {
  rt: TestRuntime;
  handle: Pipeline;
  /** A fresh user with an API key; `isAdmin` makes them an administrator. */
  newUser(opts?: { isAdmin?: boolean }): Promise<TestAppUser>;
  /** `method /<base>/v1<path>` through the pipeline; `path` is sent as given (encode it yourself). */
  call(method: string, path: string, opts?: CallOptions): ReturnType<typeof readResponse>;
  close(): Promise<void>;
};

export async function startTestApp(opts: TestRuntimeOptions = {}): Promise<TestApp> {
  const rt = await startTestRuntime(opts);
  const handle = createPipeline(new Router(operations), resolveCaller, TEST_APP_URL);
  return {
    rt,
    handle,
    async newUser(o = {}) {
      const user = await createTestUser(rt.prisma, o);
      const key = await createKeyForUser(user.id, "test");
      const sessionToken = randomUUID();
      await rt.prisma.session.create({ data: { sessionToken, userId: user.id, expires: new Date(Date.now() + 86_400_000) } });
      return { userId: user.id, email: user.email, apiKey: key.key, sessionCookie: `authjs.session-token=${sessionToken}` };
    },
    async call(method, path, o = {}) {
      const qs = o.query ? `?${new URLSearchParams(o.query).toString()}` : "";
      const base = o.base ?? "api";
      const headers: Record<string, string> = {
        ...(o.key ? { "x-api-key": o.key } : {}),
        ...(o.cookie ? { cookie: o.cookie, origin: TEST_APP_URL } : {}),
        ...o.headers,
      };
      let body: string | undefined;
      if (o.rawBody !== undefined || o.body !== undefined) {
        body = o.rawBody ?? JSON.stringify(o.body);
        headers["content-type"] ??= "application/json";
      }
      const res = await handle(base, new Request(`${TEST_APP_URL}${BASE_PATH[base]}${path}${qs}`, { method, headers, body }));
      return readResponse(res);
    },
    close: () => rt.close(),
  };
}

/**
 * A test app over a fresh runtime for the enclosing suite (the test file, or the describe block it
 * is called in), started and closed by node:test hooks (suiteFixture, in runtime.ts):
 *
 *   let owner: TestAppUser;
 *   const app = suiteTestApp({ setup: async () => { owner = await app.newUser(); } });
 *   test("…", async () => { await ok(app.call("GET", "/projects", { key: owner.apiKey })); });
 */
export function suiteTestApp(opts: TestRuntimeOptions & TestHooks<TestApp> = {}): TestApp {
  const { setup, teardown, ...start } = opts;
  return suiteFixture("test app", () => startTestApp(start), { setup, teardown });
}
