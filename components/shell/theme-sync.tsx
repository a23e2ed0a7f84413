"use client";

import { useLayoutEffect } from "react";
import { applyTheme, type TTheme } from "@/lib/ui/theme";

/**
 * Puts the signed-in user's stored theme on the page (see lib/ui/theme.ts). On a full page load
 * the boot script or the signed-in layout's script has already done it before the first paint;
 * this covers client-side navigation into the signed-in pages. A layout effect: it runs before
 * the browser paints the navigation's result.
 */
export function ThemeSync({ theme, updatedAt }: { theme: TTheme; updatedAt: number | null }) {
  useLayoutEffect(() => applyTheme(theme, updatedAt), [theme, updatedAt]);
  return null;
}
