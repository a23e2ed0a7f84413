import type { Metadata } from "next";
import { ApiKeys } from "@/components/api-keys/api-keys";
import { SettingsHeader } from "@/components/settings/settings-nav";

export const metadata: Metadata = { title: "API keys · Todo Service" };

export default function ApiKeysPage() {
  return (
    <>
      <SettingsHeader title="API keys" current="/settings/api-keys" />
      <ApiKeys />
    </>
  );
}
