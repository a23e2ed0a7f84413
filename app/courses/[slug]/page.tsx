import type { Metadata } from "next";
import { CoursePublicPage } from "@/components/courses/course-page";

export const metadata: Metadata = { title: "Course · Todo Service" };

// Public: the signup form works signed out; the ideas wall asks to sign in.
export default async function Course({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  return <CoursePublicPage slug={slug} />;
}
