import type { Metadata } from "next";
import { SettingsHeader } from "@/components/settings/settings-nav";
import { UserSettings } from "@/components/settings/user-settings";

export const metadata: Metadata = { title: "Settings · Todo Service" };

export default function SettingsPage() {
  return (
    <>
      <SettingsHeader title="Settings" current="/settings" />
      <UserSettings />
    </>
  );
}
