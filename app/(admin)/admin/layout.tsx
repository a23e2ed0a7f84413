import type { ReactNode } from "react";
import Link from "next/link";
import { connection } from "next/server";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { auth } from "@/auth";
import { REQUEST_PATH_HEADER, signInUrl } from "@/lib/request-path";
import { cookieGet } from "@/components/shell/cookie-get";

// The admin console's own route group: signed-out visitors go to /signin; a signed-in user who is
// not an administrator gets a clear refusal, and no console page (or its data) renders.
export default async function AdminLayout({ children }: { children: ReactNode }) {
  await connection();
  const session = await auth();
  if (!session?.user) redirect(signInUrl((await headers()).get(REQUEST_PATH_HEADER)));
  const profile = await cookieGet("user_profile", {});
  if (!profile?.isAdmin)
    return (
      <section className="card" data-testid="admin-refused">
          <h1>Administrators only</h1>
          <p>
            You are signed in as <strong>{session.user.email}</strong>, which is not an administrator account. The course console is for administrators.
          </p>
          <p>
            <Link href="/">Back to your projects</Link>
          </p>
      </section>
    );
  return (
    <>
      <nav aria-label="Course console" className="inline-fields" style={{ marginBottom: "1rem" }}>
        <strong>Course console</strong>
        <Link href="/admin">Courses</Link>
        <Link href="/admin/reports">Reported replies</Link>
        <Link href="/admin/log">Admin log</Link>
        <Link href="/">Back to the app</Link>
      </nav>
      {children}
    </>
  );
}
