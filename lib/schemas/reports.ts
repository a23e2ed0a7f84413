import { z } from "zod";
import { ZId, ZKeysetCursor, ZLimit, ZTimestamp } from "./common.ts";

// Reports of AI output (todo_reportAiOutput) as administrators review them (admin_aiReports).

export const ZAiReportReason = z.enum(["offensive", "unsafe", "incorrect", "other"]);
export const ZAiReportStatus = z.enum(["open", "resolved", "dismissed"]);

export const ZAiReport = z
  .object({
    id: ZId,
    reason: ZAiReportReason,
    details: z.string(),
    status: ZAiReportStatus,
    createdAt: ZTimestamp,
    reporterEmail: z.string().describe("Who reported it"),
    todoId: ZId.nullable().describe("null once the todo is deleted"),
    messageId: ZId.nullable(),
    excerpt: z
      .string()
      .nullable()
      .describe("The reported message's text (else the todo's), its first 1,000 characters; null once deleted. The reporter sent it for review."),
  })
  .meta({ id: "AiReport" });

export const ZAiReportListQuery = z.object({
  status: ZAiReportStatus.default("open").describe("Default open"),
  limit: ZLimit,
  cursor: ZKeysetCursor,
});

export const ZAiReportPage = z
  .object({ items: z.array(ZAiReport).describe("Newest first"), nextCursor: z.string().nullable().describe("Pass as `cursor` for older reports; null on the last page") })
  .meta({ id: "AiReportPage" });

export const ZAiReportParams = z.object({ reportId: ZId });
export const ZAiReportStatusInput = z
  .object({ status: ZAiReportStatus })
  .strict()
  .meta({ id: "AiReportStatusInput" });

export type TAiReport = z.infer<typeof ZAiReport>;
