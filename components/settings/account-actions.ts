"use server";

import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { SESSION_COOKIES } from "@/server/auth/resolve";

/**
 * After user_deleteAccount: the session row is already gone (the cookie is refused everywhere), so
 * next-auth's signOut has nothing to end; this clears the browser's cookie and shows the goodbye page.
 */
export async function forgetDeletedSessionAction(): Promise<void> {
  const jar = await cookies();
  for (const name of SESSION_COOKIES) jar.delete(name);
  redirect("/goodbye");
}
