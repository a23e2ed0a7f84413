/**
 * The document a `show` block's card runs as (components/todo/show-block.tsx puts it in a
 * sandboxed iframe, scripts allowed, no same origin). Its own Content-Security-Policy lets nothing
 * out: no requests, no images but data: URLs. The card's HTML gets:
 * - `{{field}}` and `{{a.b.0}}` replaced with that value of the data, HTML-escaped (objects as JSON,
 *   missing values as nothing);
 * - `window.cardData`: the data, as JSON in a script (with `<` escaped, so no string in it can end
 *   the script);
 * - after it, a script that tells the page the body's height (`{cardHeight}` by postMessage) as it
 *   changes.
 */

export const CARD_CSP = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; font-src data:; form-action 'none'; base-uri 'none'";

function escapeHtml(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

/** The value at a dotted path (`a.b.0`), or undefined. */
function at(data: unknown, path: string): unknown {
  let v: unknown = data;
  for (const part of path.split(".")) {
    if (v === null || typeof v !== "object" || !Object.prototype.hasOwnProperty.call(v, part)) return undefined;
    v = (v as Record<string, unknown>)[part];
  }
  return v;
}

/** `{{path}}` placeholders filled with the data's values, escaped. */
export function fillPlaceholders(html: string, data: unknown): string {
  return html.replace(/\{\{\s*([A-Za-z0-9_$-]+(?:\.[A-Za-z0-9_$-]+)*)\s*\}\}/g, (_m, path: string) => {
    const v = at(data, path);
    if (v === undefined || v === null) return "";
    return escapeHtml(typeof v === "object" ? JSON.stringify(v) : String(v));
  });
}

/** JSON that is safe inside a <script> element (no `</script>`, no `<!--`, no line separators). */
export function scriptJson(data: unknown): string {
  return (JSON.stringify(data ?? null) ?? "null").replace(/</g, "\\u003c").replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
}

// The body's height, not the document's scrollHeight (never less than the frame itself, so a
// frame could grow but never shrink to its content). Runs after the card's HTML, on its body.
const HEIGHT_REPORTER =
  "(function(){var last=-1;function post(){var h=Math.ceil(document.body.getBoundingClientRect().height);if(h!==last){last=h;parent.postMessage({cardHeight:h},'*');}}" +
  "new ResizeObserver(post).observe(document.body);addEventListener('load',post);})();";

export function cardDocument(html: string, data: unknown, scheme: "light" | "dark"): string {
  return [
    "<!doctype html><html><head><meta charset=\"utf-8\">",
    `<meta http-equiv="Content-Security-Policy" content="${CARD_CSP}">`,
    `<style>:root{color-scheme:${scheme}}body{margin:0;padding:0.5rem;font:14px/1.45 system-ui,sans-serif}</style>`,
    `<script>window.cardData=${scriptJson(data)};</script>`,
    "</head><body>",
    fillPlaceholders(html, data),
    `<script>${HEIGHT_REPORTER}</script>`,
    "</body></html>",
  ].join("");
}
