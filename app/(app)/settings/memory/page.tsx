import type { Metadata } from "next";
import { MemoryNotes } from "@/components/settings/memory-notes";
import { SettingsHeader } from "@/components/settings/settings-nav";

export const metadata: Metadata = { title: "Memory · Todo Service" };

export default function MemoryPage() {
  return (
    <>
      <SettingsHeader title="Memory" current="/settings/memory" />
      <MemoryNotes />
    </>
  );
}
