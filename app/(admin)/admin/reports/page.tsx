import type { Metadata } from "next";
import { AiReports } from "@/components/admin/ai-reports";

export const metadata: Metadata = { title: "Reported replies · Course console" };

export default function ReportsPage() {
  return <AiReports />;
}
