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

/** Reads at most 1 MiB (413 past it) and parses JSON; an empty body is `undefined`. */
export async function readJsonBody(request: Request): Promise<unknown> {
  const bytes = await readBodyBytes(request);
  if (bytes.length === 0) return undefined;
  const text = bytes.toString("utf8");
  if (text.trim() === "") return undefined;
  if (!isJsonContentType(request.headers.get("content-type")))
    throw new ApiError("BAD_REQUEST", "Content-Type must be application/json", {
      issues: [{ path: "header.content-type", message: "expected application/json", code: "invalid_type" }],
    });
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError("BAD_REQUEST", "Malformed JSON body", {
      issues: [{ path: "body", message: "not valid JSON", code: "invalid_json" }],
    });
  }
}
