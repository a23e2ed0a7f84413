import type { Metadata } from "next";
import { CourseList } from "@/components/admin/course-list";

export const metadata: Metadata = { title: "Courses · Course console" };

export default function AdminHome() {
  return <CourseList />;
}
