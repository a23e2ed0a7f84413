import { ApiError } from "./errors.ts";

export const MAX_BODY_BYTES = 1024 * 1024;

function isJsonContentType(value: string | null): boolean {
  if (!value) return false;
  const type = value.split(";")[0]!.trim().toLowerCase();
  return type === "application/json" || (type.startsWith("application/") && type.endsWith("+json"));
}

/** Reads the body's exact bytes, at most `max` (413 past it, without reading further). */
export async function readBodyBytes(request: Request, max = MAX_BODY_BYTES): Promise<Buffer> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > max) throw new ApiError("PAYLOAD_TOO_LARGE", `Body exceeds ${max} bytes`);
  if (!request.body) return Buffer.alloc(0);

  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => undefined);
      throw new ApiError("PAYLOAD_TOO_LARGE", `Body exceeds ${max} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

function malformed(message: string): ApiError {
  return new ApiError("BAD_REQUEST", "Malformed JSON body", { issues: [{ path: "body", message, code: "invalid_json" }] });
}

/**
 * JSON text from a body's bytes (RFC 8259): UTF-8 only, a leading byte order mark ignored (the
 * decoder drops it), bytes that are not UTF-8 refused rather than read as U+FFFD; blank is `undefined`.
 */
export function parseJsonBytes(bytes: Uint8Array): unknown {
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    throw malformed("not valid UTF-8");
  }
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw malformed("not valid JSON");
  }
}

/**
 * Whether the bytes read as latin1 are all whitespace to String.prototype.trim (tab to CR, space
 * and 0xA0), as the blank-body rule always read them; stops at the first other byte instead of
 * converting the whole body to a string.
 */
export function isBlank(bytes: Uint8Array): boolean {
  for (const b of bytes) if (!((b >= 0x09 && b <= 0x0d) || b === 0x20 || b === 0xa0)) return false;
  return true;
}

/**
 * Reads at most 1 MiB (413 past it) and parses JSON; an empty body is `undefined`. A compressed
 * body (`Content-Encoding` other than identity) is refused by name: the server does not inflate
 * request bodies, and reading gzip as JSON would only say "malformed".
 */

export async function readJsonBody(request: Request): Promise<unknown> {
  const bytes = await readBodyBytes(request);
  if (bytes.length === 0) return undefined;
  const encoding = request.headers.get("content-encoding")?.trim().toLowerCase();
  if (encoding && encoding !== "identity")
    throw new ApiError("BAD_REQUEST", `Content-Encoding ${encoding.slice(0, 32)} is not accepted; send the JSON body uncompressed`, {
      issues: [{ path: "header.content-encoding", message: "expected no encoding (identity)", code: "invalid_value" }],
    });
  if (isBlank(bytes)) return undefined;
  if (!isJsonContentType(request.headers.get("content-type")))
    throw new ApiError("BAD_REQUEST", "Content-Type must be application/json", {
      issues: [{ path: "header.content-type", message: "expected application/json", code: "invalid_type" }],
    });
  return parseJsonBytes(bytes);
}
