import type { AnyOperation } from "../../http/define.ts";
import * as admin from "./admin.ts";
import * as pub from "./public.ts";

export const courseOperations = [
  admin.courseList,
  admin.courseGet,
  admin.courseSave,
  admin.eligible,
  admin.coupons,
  admin.perks,
  admin.mail,
  admin.mailRuns,
  admin.mailRunFailed,
  admin.audit,
  admin.followers,
  admin.hide,
  admin.ideas,
  admin.registrations,
  admin.couponAuditOp,
  admin.log,
  admin.setAdminOp,
  pub.coursePublic,
  pub.courseSignup,
  pub.courseIdeas,
  pub.courseSubmitIdea,
  pub.courseRedeem,
] satisfies AnyOperation[];
