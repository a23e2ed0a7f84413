import type { Metadata } from "next";
import { InvitePage } from "@/components/team/invite-page";

export const metadata: Metadata = { title: "Team invite · Todo Service" };

// The link of an invite mail: works signed out (it shows the invite and asks to sign in).
export default async function Invite({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  return <InvitePage token={token} />;
}
