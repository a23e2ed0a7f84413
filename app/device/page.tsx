import type { Metadata } from "next";
import { connection } from "next/server";
import { redirect } from "next/navigation";
import { auth } from "@/auth";
import { DeviceApproval } from "@/components/devices/device-approval";

export const metadata: Metadata = { title: "Approve a device · Todo Service" };

// The verification URL of the device-code login (cli_loginInit's `url`). Outside the (app) group
// because that layout's sign-in redirect cannot know the page: this one sends the visitor to sign
// in with `next` set to itself (code included), and the sign-in link brings them back here.
export default async function DevicePage({ searchParams }: { searchParams: Promise<{ code?: string }> }) {
  await connection();
  const { code } = await searchParams;
  const session = await auth();
  const self = code ? `/device?code=${encodeURIComponent(code)}` : "/device";
  if (!session?.user) redirect(`/signin?next=${encodeURIComponent(self)}`);
  return (
    <section className="card">
      <h1>Approve a device</h1>
      <DeviceApproval initialCode={code ?? ""} email={session.user.email ?? ""} />
    </section>
  );
}
