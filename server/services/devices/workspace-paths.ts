import path from "node:path";
import { ApiError } from "../../http/errors.ts";

const WINDOWS_ABSOLUTE = /^[A-Za-z]:[\\/]/;

/**
 * Workspace roots: absolute (POSIX, or Windows with a drive letter), normalised (no trailing
 * slash, no `.` or doubled separators), never a filesystem root, never with a `..` segment
 * (refused rather than resolved: a path that climbs is a mistake or an attack). Duplicates drop.
 */
export function normaliseWorkspacePaths(paths: string[]): string[] {
  const out: string[] = [];
  const issues: { path: string; message: string; code: string }[] = [];
  paths.forEach((raw, i) => {
    const problem = (message: string) => issues.push({ path: `body.${i}`, message, code: "custom" });
    // Every C0 and C1 control character and DEL (a tab, an ESC that would colour the bridge's terminal), not only NUL and line breaks.
    if (/[\u0000-\u001f\u007f-\u009f]/.test(raw)) return problem("control characters are not allowed");
    const windows = WINDOWS_ABSOLUTE.test(raw);
    if (!windows && !raw.startsWith("/")) return problem("must be an absolute path");
    if (raw.split(/[\\/]/).includes("..")) return problem("must not contain '..'");
    const flavour = windows ? path.win32 : path.posix;
    let normal = flavour.normalize(raw);
    if (normal.length > 1 && /[\\/]$/.test(normal) && !/^[A-Za-z]:\\$/.test(normal)) normal = normal.slice(0, -1);
    if (normal === "/" || /^[A-Za-z]:\\?$/.test(normal)) return problem("a filesystem root is not allowed");
    if (!out.includes(normal)) out.push(normal);
  });
  if (issues.length) throw new ApiError("BAD_REQUEST", `Invalid workspace paths: ${issues.map((x) => `${x.path}: ${x.message}`).join("; ")}`, { issues });
  return out;
}
