import type { Metadata } from "next";
import { Upcoming } from "@/components/upcoming/upcoming";

export const metadata: Metadata = { title: "Upcoming · Todo Service" };

export default function UpcomingPage() {
  return <Upcoming />;
}
