// The public course pages' operations: the course, the signup, the ideas wall, coupon redemption.
import {
  ZCourseParams,
  ZIdea,
  ZIdeaInput,
  ZIdeaList,
  ZPublicCourse,
  ZRedeemInput,
  ZRedeemResult,
  ZSignupInput,
  ZSignupResult,
} from "../../../lib/schemas/courses.ts";
import { CLIENT_IP_HEADER } from "../../http/rate-limit.ts";
import { USER_CREDENTIAL, defineOperation } from "../../http/define.ts";
import { listIdeas, redeemCoupon, submitIdea } from "../../services/courses/courses.ts";
import { publicCourse, signUp } from "../../services/courses/signup.ts";

const TAG = "Courses";

export const coursePublic = defineOperation({
  id: "course_get",
  description: "Title, start and the perk's description, for the signup page; an unknown slug is 404. No credential needed.",
  method: "GET",
  path: "/courses/{slug}",
  tag: TAG,
  summary: "A course's public page data",
  auth: "none",
  params: ZCourseParams,
  response: ZPublicCourse,
  handler: ({ params }) => publicCourse(params.slug),
});

export const courseSignup = defineOperation({
  id: "course_signup",
  method: "POST",
  path: "/courses/{slug}/signups",
  tag: TAG,
  summary: "Sign up for a course",
  description:
    "Records the address with the page's device fingerprint and the request's IP, and mails a confirmation to a new address. The answer is the same for a known address (no mail again). Rate-limited per IP (`courseSignup`).",
  auth: "none",
  rateLimit: "courseSignup",
  params: ZCourseParams,
  body: ZSignupInput,
  response: ZSignupResult,
  handler: ({ params, body, request }) => signUp(params.slug, body, request.headers.get(CLIENT_IP_HEADER)),
});

export const courseIdeas = defineOperation({
  id: "course_listIdeas",
  description: "Signed-in users only. Newest first (up to 500); hidden ideas are left out; `mine` marks the caller's own.",
  method: "GET",
  path: "/courses/{slug}/ideas",
  tag: TAG,
  summary: "The ideas wall (hidden ideas are left out)",
  auth: USER_CREDENTIAL,
  params: ZCourseParams,
  response: ZIdeaList,
  handler: ({ caller, params }) => listIdeas(caller, params.slug),
});

export const courseSubmitIdea = defineOperation({
  id: "course_submitIdea",
  method: "POST",
  path: "/courses/{slug}/ideas",
  tag: TAG,
  summary: "Submit an idea to the wall",
  description: "At most 20 an hour per user (429 beyond).",
  auth: USER_CREDENTIAL,
  errors: ["TOO_MANY_REQUESTS"],
  params: ZCourseParams,
  body: ZIdeaInput,
  response: ZIdea,
  handler: ({ caller, params, body }) => submitIdea(caller, params.slug, body.text),
});

export const courseRedeem = defineOperation({
  id: "course_redeemCoupon",
  method: "POST",
  path: "/courses/coupons/redeem",
  tag: TAG,
  summary: "Redeem a course coupon code (once)",
  description: "Grants the course perk to the caller through the billing ledger (once per course and user). A code redeemed already is 409; an unknown code 404. Rate-limited (`courseRedeem`).",
  auth: USER_CREDENTIAL,
  rateLimit: "courseRedeem",
  errors: ["NOT_FOUND", "CONFLICT"],
  body: ZRedeemInput,
  response: ZRedeemResult,
  handler: ({ caller, body, request }) => redeemCoupon(caller, body.code, { fingerprint: body.fingerprint, ip: request.headers.get(CLIENT_IP_HEADER) }),
});
