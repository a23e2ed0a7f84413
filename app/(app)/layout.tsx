import type { ReactNode } from "react";
import { connection } from "next/server";
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { auth } from "@/auth";
import { REQUEST_PATH_HEADER, signInUrl } from "@/lib/request-path";
import { AppShell } from "@/components/shell/app-shell";
import { cookieGet } from "@/components/shell/cookie-get";
import { ThemeSync } from "@/components/shell/theme-sync";
import { THEME_COOKIE, themeFromCookie, themeScript } from "@/lib/ui/theme";

// Every page in this group needs a signed-in user; the signed-out visitor goes to /signin.
export default async function SignedInLayout({ children }: { children: ReactNode }) {
  await connection();
  const [session, settings] = await Promise.all([auth(), cookieGet("settings_getUserSettings", {})]);
  if (!session?.user) redirect(signInUrl((await headers()).get(REQUEST_PATH_HEADER)));
  // The user's stored theme (lib/ui/theme.ts). The root layout's boot script has painted the
  // theme this browser remembers; only when that differs from the stored one (changed in another
  // browser) does the page carry a script that corrects it before the first paint.
  const remembered = themeFromCookie((await cookies()).get(THEME_COOKIE)?.value);
  return (
    <>
      {settings && settings.theme !== remembered ? <script dangerouslySetInnerHTML={{ __html: themeScript(settings.theme) }} /> : null}
      {settings ? <ThemeSync theme={settings.theme} updatedAt={settings.updatedAt} /> : null}
      <AppShell email={session.user.email ?? ""}>{children}</AppShell>
    </>
  );
}
