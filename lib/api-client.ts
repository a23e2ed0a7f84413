// Browser-side calls to the cookie base by path. New code calls operations by id through the typed
// client (lib/api/client.ts `call`); this remains for the pages not yet moved onto it.
import { ApiClientError, request } from "./api/client";

export { ApiClientError };

export async function apiFetch<T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  return (await request(init.method ?? "GET", path, init.body)) as T;
}
