import type { Base } from "../auth/caller.ts";
import type { Runtime } from "../runtime.ts";

/**
 * Next.js bundles route handlers apart from the custom server's modules, so module-level
 * singletons would exist twice. The server publishes its one pipeline and runtime here, on
 * globalThis, and the catch-all route handlers hand every request to it.
 */
export type Bridge = {
  handle(base: Base, request: Request): Promise<Response>;
  runtime: Runtime;
};

const KEY = Symbol.for("todo-service.bridge");
type Holder = { [KEY]?: Bridge };

export function setBridge(bridge: Bridge | undefined): void {
  (globalThis as Holder)[KEY] = bridge;
}

export function getBridge(): Bridge | undefined {
  return (globalThis as Holder)[KEY];
}

/**
 * A GET through the one pipeline, in process, for server components: answers exactly what
 * `GET /<base>/v1<path>` answers over HTTP (the same caller resolution from `cookie`, the same
 * access checks and errors), without a round trip to the server's own origin. Null when the app
 * runs without the custom server.
 */
export async function pipelineGet(base: Base, path: string, opts: { cookie?: string } = {}): Promise<Response | null> {
  const bridge = getBridge();
  if (!bridge) return null;
  return bridge.handle(base, new Request(`http://in-process.internal/${base}/v1${path}`, { headers: opts.cookie ? { cookie: opts.cookie } : {} }));
}

/** The handler the catch-all route files export for every method. */
export function routeHandler(base: Base) {
  return async function handle(request: Request): Promise<Response> {
    const bridge = getBridge();
    if (!bridge) {
      return Response.json(
        { message: "The API is served by the custom server: start it with `npm start` or `npm run dev`", code: "INTERNAL_SERVER_ERROR" },
        { status: 500 },
      );
    }
    return bridge.handle(base, request);
  };
}
