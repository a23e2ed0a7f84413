import type { Caller } from "../../auth/caller.ts";
import { db } from "../../runtime.ts";
import { keysetAfter, keysetOrder, keysetPage } from "../../db/keyset.ts";
import { notFound } from "../../http/errors.ts";
import type { TAiReport } from "../../../lib/schemas/reports.ts";
import { logAdmin } from "../courses/courses.ts";

// Reports of AI output (todo_reportAiOutput stores them) as administrators review them.

const EXCERPT_CHARS = 1000;

/** A page of reports in one state, newest first (keyset paging, server/db/keyset.ts). */
export async function listAiReports(opts: { status: TAiReport["status"]; limit: number; cursor?: string }) {
  const read = await db().aiReport.findMany({
    where: { status: opts.status, ...keysetAfter(opts.cursor, "createdAt") },
    orderBy: keysetOrder("createdAt"),
    take: opts.limit + 1,
    include: { user: { select: { email: true } }, todo: { select: { content: true } } },
  });
  const { page, nextCursor } = keysetPage(read, opts.limit, "createdAt");
  const messageIds = page.map((r) => r.messageId).filter((id): id is string => id !== null);
  const messages = messageIds.length ? await db().message.findMany({ where: { id: { in: messageIds } }, select: { id: true, todoId: true, content: true } }) : [];
  const messageById = new Map(messages.map((m) => [m.id, m]));
  const items: TAiReport[] = page.map((r) => {
    // A message is shown only while it still belongs to the reported todo.
    const message = r.messageId ? messageById.get(r.messageId) : undefined;
    const text = message && message.todoId === r.todoId ? message.content : r.messageId ? null : (r.todo?.content ?? null);
    return {
      id: r.id,
      reason: r.reason as TAiReport["reason"],
      details: r.details,
      status: r.status as TAiReport["status"],
      createdAt: r.createdAt.getTime(),
      reporterEmail: r.user.email,
      todoId: r.todoId,
      messageId: r.messageId,
      excerpt: text === null ? null : text.slice(0, EXCERPT_CHARS),
    };
  });
  return { items, nextCursor };
}

/** Marks a report resolved, dismissed or open again; logged in the admin log. */
export async function setAiReportStatus(caller: Caller, reportId: string, status: TAiReport["status"]): Promise<null> {
  await db().$transaction(async (tx) => {
    const updated = await tx.aiReport.updateMany({ where: { id: reportId }, data: { status } });
    if (updated.count === 0) throw notFound("Report");
    await logAdmin(caller.userId, { action: `ai_report.${status}`, target: reportId, count: 1 }, tx);
  });
  return null;
}
