// One error type and one code→status table (CONVENTIONS.md "Errors").
export const ERROR_STATUS = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  PAYMENT_REQUIRED: 402,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_SUPPORTED: 405,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNPROCESSABLE_CONTENT: 422,
  TOO_MANY_REQUESTS: 429,
  INTERNAL_SERVER_ERROR: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export type ErrorBody = { message: string; code: ErrorCode; data?: Record<string, unknown> };

export class ApiError extends Error {
  override readonly name = "ApiError";
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly data?: Record<string, unknown>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }

  toBody(): ErrorBody {
    return this.data === undefined
      ? { message: this.message, code: this.code }
      : { message: this.message, code: this.code, data: this.data };
  }
}

export type Issue = { path: string; message: string; code: string };

export function badRequest(message: string, issues?: Issue[]): ApiError {
  return new ApiError("BAD_REQUEST", message, issues ? { issues } : undefined);
}

export function notFound(what: string): ApiError {
  return new ApiError("NOT_FOUND", `${what} not found`);
}

type PrismaLikeError = { name: string; code: string; meta?: Record<string, unknown> };

function isPrismaKnownError(err: unknown): err is PrismaLikeError {
  return (
    typeof err === "object" &&
    err !== null &&
    (err as { name?: unknown }).name === "PrismaClientKnownRequestError" &&
    typeof (err as { code?: unknown }).code === "string"
  );
}

/** Maps anything thrown by a handler to an ApiError; unknown errors become a generic 500. */
export function toApiError(err: unknown): { error: ApiError; unexpected: boolean } {
  if (err instanceof ApiError) return { error: err, unexpected: false };
  if (isPrismaKnownError(err)) {
    // Races the service did not foresee still get an honest 4xx rather than a 500.
    if (err.code === "P2002") return { error: new ApiError("CONFLICT", "A record with these values already exists"), unexpected: false };
    if (err.code === "P2025") return { error: new ApiError("NOT_FOUND", "Record not found"), unexpected: false };
    if (err.code === "P2003") return { error: new ApiError("CONFLICT", "A related record does not exist or is still in use"), unexpected: false };
  }
  return { error: new ApiError("INTERNAL_SERVER_ERROR", "Internal server error"), unexpected: true };
}

/** Below this many bytes a JSON answer is sent as it is, never compressed (the threshold of Next's `compression`). */
export const COMPRESS_MIN_BYTES = 1024;

/**
 * A JSON answer. Next drops a route handler's `content-length` and sends the body chunked, so its
 * compression cannot see the size and gzipped every answer a client accepts gzip for, `null`
 * included: larger than it was, and a zlib stream each. An answer under COMPRESS_MIN_BYTES says
 * `no-transform`, which that compression (and any proxy) respects; larger ones are compressed.
 */
export function jsonResponse(body: unknown, status = 200, headers?: Record<string, string>): Response {
  const text = JSON.stringify(body ?? null);
  const small = text.length < COMPRESS_MIN_BYTES && Buffer.byteLength(text) < COMPRESS_MIN_BYTES;
  return new Response(text, {
    status,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": small ? "no-store, no-transform" : "no-store", ...headers },
  });
}

export function errorResponse(error: ApiError, headers?: Record<string, string>): Response {
  return jsonResponse(error.toBody(), error.status, { ...error.headers, ...headers });
}
