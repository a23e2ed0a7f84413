import type { Metadata } from "next";
import { CloudDevice } from "@/components/devices/cloud-device";
import { Devices } from "@/components/devices/devices";
import { SettingsHeader } from "@/components/settings/settings-nav";

export const metadata: Metadata = { title: "Devices · Todo Service" };

export default function DevicesPage() {
  return (
    <>
      <SettingsHeader title="Devices" current="/settings/devices" />
      <Devices />
      <CloudDevice />
    </>
  );
}
