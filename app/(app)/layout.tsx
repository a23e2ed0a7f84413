import type { ReactNode } from "react";
import { connection } from "next/server";
import { redirect } from "next/navigation";
import { auth } from "@/auth";
import { AppShell } from "@/components/shell/app-shell";

// Every page in this group needs a signed-in user; the signed-out visitor goes to /signin.
export default async function SignedInLayout({ children }: { children: ReactNode }) {
  await connection();
  const session = await auth();
  if (!session?.user) redirect("/signin");
  return <AppShell email={session.user.email ?? ""}>{children}</AppShell>;
}
