import type { Metadata } from "next";
import { CourseAdmin } from "@/components/admin/course-admin";

export const metadata: Metadata = { title: "Course · Course console" };

export default async function CoursePage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  return <CourseAdmin slug={slug} />;
}
