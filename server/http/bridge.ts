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
