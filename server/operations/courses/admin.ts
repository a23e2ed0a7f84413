// Course administration (SPEC.md §4.8): administrators only (`admin: true`: 401 without a
// credential, 403 for a signed-in non-admin), on the key and cookie bases. docs/api.md "Course administration".
import { z } from "zod";
import {
  ZAdminCourse,
  ZAdminCourseList,
  ZAdminIdea,
  ZAdminIdeaList,
  ZAdminLog,
  ZCouponAudit,
  ZCouponParams,
  ZCourseAudit,
  ZCourseInput,
  ZCourseParams,
  ZEligibleInput,
  ZEligibleResult,
  ZFollowersInput,
  ZFollowersResult,
  ZHideIdeaInput,
  ZMailParams,
  ZMailRun,
  ZMailRunFailures,
  ZMailRunList,
  ZMailRunParams,
  ZPageQuery,
  ZPerkResult,
  ZRegistrationList,
  ZRegistrationQuery,
  ZResendInput,
  ZCourseSlug,
  ZSetAdminInput,
  ZSetAdminResult,
} from "../../../lib/schemas/courses.ts";
import { ZKeysetCursor, ZLimit } from "../../../lib/schemas/common.ts";
import { USER_CREDENTIAL, defineOperation } from "../../http/define.ts";
import {
  addEligible,
  adminCourse,
  adminListIdeas,
  adminLog,
  courseAudit,
  courseBySlug,
  couponAudit,
  grantPerks,
  hideIdea,
  listCourses,
  listRegistrations,
  setAdmin,
  setFollowers,
  upsertCourse,
} from "../../services/courses/courses.ts";
import { listMailRuns, mailRunFailures, startMailRun } from "../../services/courses/mail-run.ts";

const ADMIN = { auth: USER_CREDENTIAL, admin: true, tag: "Course administration" } as const;
const RUN_NOTE =
  "Answers at once with the run (`state` `queued`, `total` = how many it reaches); the mail goes out in a background job at `COURSE_MAIL_PER_SECOND`, resumable after a crash or restart without mailing anyone twice. Progress: `GET /admin/course/{slug}/mail-runs` and the `course.mail` Socket.IO event. A run of the same kind still going is 409 with its id in `data.runId`.";

export const courseList = defineOperation({
  ...ADMIN,
  id: "admin_listCourses",
  description:
    "Courses, latest start first, each with its counts: signups, signups with an account, coupons mailed and redeemed, perks granted. Paged: `limit` (default 50, at most 200), `cursor` the previous page's `nextCursor` (null on the last page).",
  method: "GET",
  path: "/admin/courses",
  summary: "List courses with their signup counts",
  query: ZPageQuery,
  response: ZAdminCourseList,
  handler: ({ query }) => listCourses(query),
});

export const courseSave = defineOperation({
  ...ADMIN,
  id: "admin_saveCourse",
  method: "PUT",
  path: "/admin/course/{slug}",
  summary: "Create or update a course",
  description: "Creates the course with this slug, or replaces its fields. A `perkOpensAt` queues the perk's opening (granted by itself then).",
  params: ZCourseParams,
  body: ZCourseInput,
  response: ZAdminCourse,
  handler: ({ caller, params, body }) => upsertCourse(caller, params.slug, body),
});

export const courseGet = defineOperation({
  ...ADMIN,
  id: "admin_getCourse",
  description: "The course with its counts and, for administrators only, its attendee code. An unknown slug is 404.",
  method: "GET",
  path: "/admin/course/{slug}",
  summary: "A course with its counts (and its attendee code)",
  params: ZCourseParams,
  response: ZAdminCourse,
  handler: async ({ params }) => adminCourse(await courseBySlug(params.slug)),
});

export const eligible = defineOperation({
  ...ADMIN,
  id: "admin_courseEligible",
  method: "POST",
  path: "/admin/course/{slug}/eligible",
  summary: "Tag mailboxes as eligible for the course coupons",
  description:
    "Each valid address gets a signup row (`source` `eligible`), so coupons and mailings reach it. By default one invalid entry makes the call 400 with every invalid entry in `data.invalid` and nothing applied; with `skipInvalid: true` the valid ones are applied and the invalid ones listed in `rejected` (200).",
  params: ZCourseParams,
  body: ZEligibleInput,
  response: ZEligibleResult,
  handler: ({ caller, params, body }) => addEligible(caller, params.slug, body),
});

export const coupons = defineOperation({
  ...ADMIN,
  id: "admin_courseCoupons",
  method: "POST",
  path: "/admin/course/{slug}/coupons",
  summary: "Mail each signup its coupon code",
  description: `Makes one code per signup (redeemable once) and mails it to every signup not yet mailed; \`resend: true\` mails everyone again (same codes). ${RUN_NOTE}`,
  errors: ["CONFLICT"],
  params: ZCourseParams,
  body: ZResendInput.optional(),
  response: ZMailRun,
  handler: ({ caller, params, body }) => startMailRun(caller, params.slug, "coupons", body?.resend ?? false),
});

export const perks = defineOperation({
  ...ADMIN,
  id: "admin_coursePerks",
  method: "POST",
  path: "/admin/course/{slug}/perks",
  summary: "Grant the course perk now to every signup with an account",
  description:
    "Idempotent: each (course, user) is granted once (a unique grant row and a unique ledger reference), also under concurrent calls. Signups without an account get it when they sign in after the perk opens.",
  params: ZCourseParams,
  response: ZPerkResult,
  handler: ({ caller, params }) => grantPerks(caller, params.slug),
});

export const mail = defineOperation({
  ...ADMIN,
  id: "admin_courseMail",
  method: "POST",
  path: "/admin/course/{slug}/mail/{kind}",
  summary: "Bulk mail every signup: day, start or last",
  description: `\`day\` is the reminder the day before, \`start\` says the course is starting, \`last\` carries the attendee code until it expires (409 when the course has none). Each goes to signups no earlier run of that kind reached; \`resend: true\` mails everyone again. ${RUN_NOTE}`,
  errors: ["CONFLICT"],
  params: ZMailParams,
  body: ZResendInput.optional(),
  response: ZMailRun,
  handler: ({ caller, params, body }) => startMailRun(caller, params.slug, params.kind, body?.resend ?? false),
});

export const mailRuns = defineOperation({
  ...ADMIN,
  id: "admin_courseMailRuns",
  description:
    "Each run with `state`, `total`, `sent` and `failed`, newest first: what the console's progress bar reads after a reload. Paged: `limit` (default 50, at most 200), `cursor` the previous page's `nextCursor`.",
  method: "GET",
  path: "/admin/course/{slug}/mail-runs",
  summary: "The course's bulk mailings with their progress (newest first, paged)",
  params: ZCourseParams,
  query: ZPageQuery,
  response: ZMailRunList,
  handler: ({ params, query }) => listMailRuns(params.slug, query),
});

export const mailRunFailed = defineOperation({
  ...ADMIN,
  id: "admin_courseMailRunFailures",
  description:
    "The recipients of the run the provider refused three times, with the provider's message, the last to fail first; a run of another course is 404. Paged: `limit` (default 50, at most 200), `cursor` the previous page's `nextCursor`. To retry them, start the same kind again without `resend`: it reaches every signup no earlier run of that kind (for coupons: no earlier mailing) reached, the failed ones among them.",
  method: "GET",
  path: "/admin/course/{slug}/mail-runs/{runId}/failures",
  summary: "Recipients of a mailing the provider refused, with its reason",
  errors: ["NOT_FOUND"],
  params: ZMailRunParams,
  query: ZPageQuery,
  response: ZMailRunFailures,
  handler: ({ params, query }) => mailRunFailures(params.slug, params.runId, query),
});

export const audit = defineOperation({
  ...ADMIN,
  id: "admin_courseAudit",
  description: "Groups of two or more signups that share a device fingerprint or an IP (likely duplicates), biggest first, and every coupon redeemer with `followsPage` from the follower snapshot (the handle they gave at signup).",
  method: "GET",
  path: "/admin/course/{slug}/audit",
  summary: "Signups grouped by shared device or IP, and which redeemers follow the Page",
  params: ZCourseParams,
  response: ZCourseAudit,
  handler: ({ params }) => courseAudit(params.slug),
});

export const followers = defineOperation({
  ...ADMIN,
  id: "admin_courseFollowers",
  method: "PUT",
  path: "/admin/course/{slug}/followers",
  summary: "Replace the follower snapshot of the social-network Page",
  description: "The whole list of handles (a leading @ is dropped, compared case-insensitively). Any invalid entry is 400 with the invalid ones in `data.invalid`, and the snapshot stays as it was.",
  params: ZCourseParams,
  body: ZFollowersInput,
  response: ZFollowersResult,
  handler: ({ caller, params, body }) => setFollowers(caller, params.slug, body.handles),
});

export const hide = defineOperation({
  ...ADMIN,
  id: "admin_hideIdea",
  method: "POST",
  path: "/admin/course/hide-idea",
  summary: "Hide or unhide an idea on the public wall",
  description: "Hidden ideas vanish from the wall and stay listed (marked) for administrators. An unknown id is 404.",
  errors: ["NOT_FOUND"],
  body: ZHideIdeaInput,
  response: ZAdminIdea,
  handler: ({ caller, body }) => hideIdea(caller, body.ideaId, body.hidden),
});

export const ideas = defineOperation({
  ...ADMIN,
  id: "admin_courseIdeas",
  description: "Newest first, with the author's email and `hidden`. Paged: `limit` (default 50, at most 200), `cursor` the previous page's `nextCursor`.",
  method: "GET",
  path: "/admin/course/{slug}/ideas",
  summary: "Every idea of the course, hidden ones included (marked)",
  params: ZCourseParams,
  query: ZPageQuery,
  response: ZAdminIdeaList,
  handler: ({ params, query }) => adminListIdeas(params.slug, query),
});

export const registrations = defineOperation({
  ...ADMIN,
  id: "admin_courseRegistrations",
  method: "GET",
  path: "/admin/course/{slug}/registrations",
  summary: "Every registration with fingerprint, IP, account, coupon and perk state",
  description: "Filters: `q` (email, fingerprint or IP substring), `hasAccount`, `mailed`, `redeemed`, `claimed` (`true`/`false`); paged by `offset` and `limit`, oldest first; `total` counts the matches.",
  params: ZCourseParams,
  query: ZRegistrationQuery,
  response: ZRegistrationList,
  handler: ({ params, query }) => listRegistrations(params.slug, query),
});

export const couponAuditOp = defineOperation({
  ...ADMIN,
  id: "admin_couponAudit",
  description: "The code is matched case-insensitively; an unknown code is 404.",
  method: "GET",
  path: "/admin/coupon/{code}/audit",
  summary: "Who a code was made for, when it was mailed and redeemed, from which device and IP",
  params: ZCouponParams,
  response: ZCouponAudit,
  handler: ({ params }) => couponAudit(params.code),
});

export const log = defineOperation({
  ...ADMIN,
  id: "admin_log",
  description: "Newest first; `course` narrows it to one course; `limit` as on every list (default 50, above 200 clamped to 200).",
  method: "GET",
  path: "/admin/log",
  summary: "The admin log: who did what, when, reaching how many (newest first)",
  errors: ["NOT_FOUND"],
  query: z.object({ course: ZCourseSlug.optional(), limit: ZLimit, cursor: ZKeysetCursor }),
  response: ZAdminLog,
  handler: ({ query }) => adminLog({ courseSlug: query.course, limit: query.limit, cursor: query.cursor }),
});

export const setAdminOp = defineOperation({
  ...ADMIN,
  id: "admin_setAdmin",
  method: "PUT",
  path: "/admin/administrators",
  summary: "Make an account an administrator, or not",
  description: "The account is found by email (404 when none has it: the person signs in once first). Removing your own role is 409, so the console always keeps one administrator. Logged in the admin log.",
  errors: ["NOT_FOUND", "CONFLICT"],
  body: ZSetAdminInput,
  response: ZSetAdminResult,
  handler: ({ caller, body }) => setAdmin(caller, body.email, body.isAdmin),
});
