import { ApiError } from "./errors.ts";

export const MAX_BODY_BYTES = 1024 * 1024;

function isJsonContentType(value: string | null): boolean {
  if (!value) return false;
  const type = value.split(";")[0]!.trim().toLowerCase();
  return type === "application/json" || (type.startsWith("application/") && type.endsWith("+json"));
}

/** Reads at most 1 MiB (413 past it) and parses JSON; an empty body is `undefined`. */
export async function readJsonBody(request: Request): Promise<unknown> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > MAX_BODY_BYTES) throw new ApiError("PAYLOAD_TOO_LARGE", `Body exceeds ${MAX_BODY_BYTES} bytes`);
  if (!request.body) return undefined;

  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel().catch(() => undefined);
      throw new ApiError("PAYLOAD_TOO_LARGE", `Body exceeds ${MAX_BODY_BYTES} bytes`);
    }
    chunks.push(value);
  }
  if (size === 0) return undefined;
  const text = Buffer.concat(chunks).toString("utf8");
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
