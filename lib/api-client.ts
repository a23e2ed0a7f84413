// Browser-side calls to the cookie base; errors carry the API's own message.
export class ApiClientError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly status: number,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

export async function apiFetch<T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const res = await fetch(`/cookie/v1${path}`, {
    method: init.method ?? "GET",
    credentials: "same-origin",
    headers: init.body === undefined ? undefined : { "content-type": "application/json" },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.text();
  const json: unknown = text ? JSON.parse(text) : null;
  if (!res.ok) {
    const err = (json ?? {}) as { message?: string; code?: string; data?: unknown };
    throw new ApiClientError(err.message ?? `Request failed (${res.status})`, err.code ?? "UNKNOWN", res.status, err.data);
  }
  return json as T;
}
