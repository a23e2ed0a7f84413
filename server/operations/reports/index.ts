// Reports of AI output, reviewed by administrators (todo_reportAiOutput stores them):
// docs/api.md "Reports of AI output".
import { ZNull } from "../../../lib/schemas/common.ts";
import { ZAiReportListQuery, ZAiReportPage, ZAiReportParams, ZAiReportStatusInput } from "../../../lib/schemas/reports.ts";
import { USER_CREDENTIAL, defineOperation, type AnyOperation } from "../../http/define.ts";
import { listAiReports, setAiReportStatus } from "../../services/reports/reports.ts";

const ADMIN = { auth: USER_CREDENTIAL, admin: true, tag: "Course administration" } as const;

const list = defineOperation({
  ...ADMIN,
  id: "admin_aiReports",
  method: "GET",
  path: "/admin/ai-reports",
  summary: "Reports of AI output, newest first (open ones by default)",
  description:
    "What users reported with todo_reportAiOutput: the reason, their details, who reported it and the reported message's text (its first 1,000 characters; the todo's when no message was named; null once deleted). `status` picks open (default), resolved or dismissed reports; `limit` as on every list; pass `nextCursor` as `cursor`.",
  query: ZAiReportListQuery,
  response: ZAiReportPage,
  handler: ({ query }) => listAiReports(query),
});

const setStatus = defineOperation({
  ...ADMIN,
  id: "admin_setAiReportStatus",
  method: "PATCH",
  path: "/admin/ai-reports/{reportId}",
  summary: "Mark a report of AI output resolved, dismissed or open again",
  description: "An unknown report is 404. Logged in the admin log (`ai_report.<status>`).",
  errors: ["NOT_FOUND"],
  params: ZAiReportParams,
  body: ZAiReportStatusInput,
  response: ZNull,
  handler: ({ caller, params, body }) => setAiReportStatus(caller, params.reportId, body.status),
});

export const reportOperations = [list, setStatus] satisfies AnyOperation[];
