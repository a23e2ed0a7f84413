import Link from "next/link";
import { connection } from "next/server";
import { auth, signOut } from "@/auth";
import { ProjectList } from "@/components/projects/project-list";

export default async function Home() {
  await connection();
  const session = await auth();
  if (!session?.user) {
    return (
      <section className="card">
        <h1>Todo Service</h1>
        <p>Organize todos in projects and run an AI agent on each one, as a chat.</p>
        <p>
          <Link href="/signin">Sign in with your email</Link> · <Link href="/reference">API reference</Link>
        </p>
      </section>
    );
  }
  return (
    <>
      <section className="card">
        <p>
          Signed in as <strong data-testid="signed-in-email">{session.user.email}</strong>
        </p>
        <form
          action={async () => {
            "use server";
            await signOut({ redirectTo: "/" });
          }}
        >
          <button type="submit" className="secondary">Sign out</button>
        </form>
      </section>
      <ProjectList />
    </>
  );
}
