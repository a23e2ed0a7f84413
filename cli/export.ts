import { createWriteStream } from "node:fs";
import { rename, rm } from "node:fs/promises";
import { once } from "node:events";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";

// `todo export`: the account's data export (user_exportData), streamed to a file as it arrives.

/** The file name the server suggests (Content-Disposition), never a path; else a dated default. */
export function suggestedName(disposition: string | null, now = new Date()): string {
  const name = path.basename(disposition?.match(/filename="([^"]+)"/)?.[1] ?? "");
  return /^[\w.-]+\.json$/.test(name) ? name : `todo-service-export-${now.toISOString().slice(0, 10)}.json`;
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/**
 * Writes the body to `target` ("-": stdout) and resolves with its size. A file is written beside
 * the target first and renamed once complete, readable by its owner only (it holds personal data):
 * a download that fails half way leaves nothing behind, and never half of an earlier export.
 */
export async function download(res: Response, target: string, progress?: (bytes: number) => void): Promise<number> {
  let bytes = 0;
  const body = Readable.fromWeb(res.body! as import("node:stream/web").ReadableStream<Uint8Array>).on("data", (chunk: Buffer) => {
    bytes += chunk.length;
    progress?.(bytes);
  });
  if (target === "-") {
    for await (const chunk of body) if (!process.stdout.write(chunk as Buffer)) await once(process.stdout, "drain");
    return bytes;
  }
  const part = `${target}.part`;
  try {
    await pipeline(body, createWriteStream(part, { mode: 0o600 }));
    await rename(part, target);
  } catch (err) {
    await rm(part, { force: true });
    throw err;
  }
  return bytes;
}
