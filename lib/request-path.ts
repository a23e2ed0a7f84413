// The custom server puts every request's path and query here before Next sees it
// (server/http/front-door.ts, overwriting whatever a client sent), so a server component that
// redirects a signed-out visitor to /signin can bring them back afterwards.
export const REQUEST_PATH_HEADER = "x-todo-request-path";

/** /signin, with `next` when the visitor came for another page (the sign-in page checks it with safeNext). */
export function signInUrl(requestedPath: string | null | undefined): string {
  if (!requestedPath || !requestedPath.startsWith("/") || requestedPath.startsWith("//") || requestedPath.length > 2000) return "/signin";
  // A client-side navigation asks with Next's `_rsc` cache-buster: not part of the page's address.
  const url = new URL(requestedPath, "http://app.invalid");
  url.searchParams.delete("_rsc");
  const path = `${url.pathname}${url.search}`;
  return path === "/" ? "/signin" : `/signin?next=${encodeURIComponent(path)}`;
}
