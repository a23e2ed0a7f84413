import type { Metadata } from "next";
import { AdminLogView } from "@/components/admin/admin-log";

export const metadata: Metadata = { title: "Admin log · Course console" };

export default function AdminLogPage() {
  return <AdminLogView />;
}
