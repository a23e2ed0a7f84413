import type { Metadata } from "next";
import { connection } from "next/server";
import { redirect } from "next/navigation";
import { auth } from "@/auth";
import { signInUrl } from "@/lib/request-path";
import { DeviceApproval } from "@/components/devices/device-approval";

export const metadata: Metadata = { title: "Approve a device · Todo Service" };

// The verification URL of the device-code login (cli_loginInit's `url`), outside the (app) group
// and its shell: a signed-out visitor signs in with `next` set to this page (code included), and
// the sign-in link brings them back here.
export default async function DevicePage({ searchParams }: { searchParams: Promise<{ code?: string }> }) {
  await connection();
  const { code } = await searchParams;
  const session = await auth();
  const self = code ? `/device?code=${encodeURIComponent(code)}` : "/device";
  if (!session?.user) redirect(signInUrl(self));
  return (
    <section className="card">
      <h1>Approve a device</h1>
      <DeviceApproval initialCode={code ?? ""} email={session.user.email ?? ""} />
    </section>
  );
}
