import type { NextRequest } from "next/server";
import { handlers } from "@/auth";
import { signInMailLimited } from "@/server/auth/sign-in-limit";

export const dynamic = "force-dynamic";
export const { GET } = handlers;

/** Email sign-in (`POST /api/auth/signin/resend`) is rate limited per address and per IP first. */
export async function POST(request: NextRequest): Promise<Response> {
  if (/\/signin\/resend\/?$/.test(request.nextUrl.pathname)) {
    const form = await request.clone().formData().catch(() => null);
    const email = form?.get("email");
    const refused = typeof email === "string" && email ? await signInMailLimited(email, request.headers) : null;
    if (refused) return refused;
  }
  return handlers.POST(request);
}
