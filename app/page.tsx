import Link from "next/link";
import { connection } from "next/server";
import { redirect } from "next/navigation";
import { auth } from "@/auth";
import { AppShell } from "@/components/shell/app-shell";
import { FirstProject } from "@/components/shell/first-project";
import { homeProjectId } from "@/components/shell/home-target";

// Signed out: the landing. Signed in: the default project (or the first one), else an invitation
// to create the first project inside the signed-in shell.
export default async function Home() {
  await connection();
  const session = await auth();
  if (!session?.user) {
    return (
      <section className="card landing">
        <h1>Todo Service</h1>
        <p>Organize todos in projects and run an AI agent on each one, as a chat.</p>
        <p>
          <Link href="/signin">Sign in with your email</Link> · <Link href="/reference">API reference</Link>
        </p>
      </section>
    );
  }
  const target = await homeProjectId();
  if (target) redirect(`/projects/${target}`);
  return (
    <AppShell email={session.user.email ?? ""}>
      <FirstProject />
    </AppShell>
  );
}
