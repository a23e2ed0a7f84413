import type { Metadata } from "next";
import { SettingsHeader } from "@/components/settings/settings-nav";
import { TeamPage } from "@/components/team/team-page";

export const metadata: Metadata = { title: "Team · Todo Service" };

export default function Team() {
  return (
    <>
      <SettingsHeader title="Team" current="/team" />
      <TeamPage />
    </>
  );
}
