import type { z } from "zod";
import type { ZTheme } from "@/lib/schemas/settings";

/**
 * Applying the user's theme (settings_getUserSettings `theme`) to the page.
 *
 * The theme is an attribute on <html>: data-theme="light" | "dark", none for "system" (then the
 * prefers-color-scheme media query in app/globals.css decides). The choice is also remembered in
 * this browser, in the `theme` cookie (absent = "system"), because the stored setting is only
 * readable signed in, yet every page should be painted in the right colours from its first frame:
 *
 *  - THEME_BOOT_SCRIPT, inline in <head> of the root layout, reads the cookie and sets the
 *    attribute before <body> is parsed: no flash on any page, signed in or not (sign-in, the
 *    public share page, the API reference), and those pages stay static.
 *  - The signed-in layout reads the stored setting in process; when the cookie disagrees (the
 *    theme was changed in another browser) it puts themeScript(stored) at the top of the page,
 *    which corrects the attribute (and the cookie) before the first paint, and <ThemeSync>
 *    (components/shell/theme-sync.tsx) applies it after client-side navigations.
 *  - Saving the theme in /settings applies it at once (applyTheme), without a reload.
 *
 * A cookie rather than localStorage: the server sees it too, so the signed-in layout knows when
 * the first paint already has the stored theme and sends no script at all in the usual case.
 * It holds nothing secret (readable by scripts on purpose), SameSite=Lax, one year.
 */
export type TTheme = z.infer<typeof ZTheme>;

export const THEME_COOKIE = "theme";
const MAX_AGE = 60 * 60 * 24 * 365;

/** The theme a `theme` cookie value stands for ("system" for anything but light or dark). */
export function themeFromCookie(value: string | undefined): TTheme {
  return value === "light" || value === "dark" ? value : "system";
}

/** The cookie that remembers `theme` in this browser ("system" deletes it). */
function cookieFor(theme: TTheme): string {
  return theme === "system" ? `${THEME_COOKIE}=; path=/; max-age=0; samesite=lax` : `${THEME_COOKIE}=${theme}; path=/; max-age=${MAX_AGE}; samesite=lax`;
}

/** Inline JavaScript (no dependencies) that applies `theme` to the document and remembers it, as applyTheme does. */
export function themeScript(theme: TTheme): string {
  const attr = theme === "system" ? "" : theme;
  return (
    `(function(t,c){try{var d=document.documentElement;t?d.setAttribute("data-theme",t):d.removeAttribute("data-theme");document.cookie=c}catch(e){}})` +
    `(${JSON.stringify(attr)},${JSON.stringify(cookieFor(theme))})`
  );
}

/** Inline in <head>: the theme remembered in the cookie, on <html> before anything is painted. */
export const THEME_BOOT_SCRIPT =
  `(function(){try{var m=document.cookie.match(/(?:^|;\\s*)${THEME_COOKIE}=(light|dark)(?:;|$)/);` +
  `if(m)document.documentElement.setAttribute("data-theme",m[1])}catch(e){}})()`;

// The newest theme this tab knows of, by the settings' updatedAt: a layout rendered before the
// user saved a new theme (say, restored from the router cache on Back) must not undo it.
let newest: { theme: TTheme; at: number } | null = null;

/**
 * Applies `theme` to this page and remembers it in the cookie (browser only). `updatedAt` is
 * the settings' updatedAt (ms) it comes from: an older one than the newest applied is ignored.
 */
export function applyTheme(theme: TTheme, updatedAt?: number | null): void {
  const at = updatedAt ?? 0;
  if (newest && at < newest.at) return;
  newest = { theme, at };
  const root = document.documentElement;
  if (theme === "system") root.removeAttribute("data-theme");
  else root.setAttribute("data-theme", theme);
  document.cookie = cookieFor(theme);
}
