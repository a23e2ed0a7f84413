import { z } from "zod";
import { ZId } from "../../lib/schemas/common.ts";
import { replyMail } from "../email/templates.ts";
import { defineJob } from "../jobs/define.ts";
import { enqueue } from "../jobs/enqueue.ts";
import { log } from "../log.ts";
import { db, runtime } from "../runtime.ts";
import { appSettingsFromStored } from "../services/settings/user-settings.ts";
import type { SocketData } from "../realtime/socket-data.ts";
import { linksOf, SHELL_WAIT_PREFIX } from "../services/todos/sub-todos.ts";
import type { ShellBlockContent } from "../../lib/shell-protocol.ts";

// "Email notifications" (the user's settings): an agent that finishes while its todo's owner is
// away tells them by mail, and so does one that waits for them to approve a shell command. A turn
// that ends READY or ERROR, or waiting for an approval, queues a mail job REPLY_MAIL_DELAY_MS
// later, keyed by the todo, so turns that end close together make one mail; when it runs, it mails
// only if the todo still rests there (nobody went on with it), the owner has the setting on and
// no connection open anywhere (no tab of the app, no CLI watching; a device's bridge does not
// count; Socket.IO asks every process).

const userRoom = (userId: string) => `user:${userId}`;

/**
 * A connection of a person: a page of the app, or a script or the CLI with a key. A device's
 * bridge (`todo bridge`, a `dst_` token) stays connected while nobody looks, so it does not count.
 */
const watches = (socket: { data: unknown } | undefined) => !!socket && !(socket.data as SocketData | undefined)?.deviceId;

/** After a turn ended READY or ERROR (after the commit): queues the mail unless the owner is connected here. */
export async function noticeTurnEnded(todo: { id: string; userId: string }): Promise<void> {
  const { io, jobs, config } = runtime();
  if (!jobs || config.replyMailDelayMs === null) return;
  // Watching from this process: no statement at all (the common case, and every turn of a bench).
  const here = io?.sockets.adapter.rooms.get(userRoom(todo.userId));
  if (here && [...here].some((id) => watches(io!.sockets.sockets.get(id)))) return;
  await enqueue(replyMailJob, { todoId: todo.id }, { delay: config.replyMailDelayMs, key: `reply:${todo.id}` }).catch((err: unknown) =>
    log.warn("could not queue a reply mail", { todoId: todo.id, error: err instanceof Error ? err.message : String(err) }),
  );
}

/** The first shell command the todo waits on whose approval is still pending, or null. */
async function pendingShell(todoId: string, workflow: unknown): Promise<ShellBlockContent | null> {
  const ids = (linksOf(workflow).waitingFor ?? []).filter((id) => id.startsWith(SHELL_WAIT_PREFIX)).map((id) => id.slice(SHELL_WAIT_PREFIX.length));
  if (ids.length === 0) return null;
  const blocks = await db().block.findMany({ where: { id: { in: ids }, todoId, type: "shell" }, select: { content: true } });
  return blocks.map((b) => b.content as unknown as ShellBlockContent).find((c) => c.state === "pending") ?? null;
}

/** The mail's text: the reply's (a reply cut by an error keeps what it wrote), else the reason of the error. */
export function replyExcerpt(status: "READY" | "ERROR", reply: string | undefined, error: unknown): string {
  const text = reply?.trim() ?? "";
  if (status === "READY") return text || "(The reply has no text: open the todo for its steps.)";
  const reason = typeof error === "string" && error ? error : "no reason was recorded";
  return text ? `${text}\n\n(Then it stopped: ${reason})` : `It stopped: ${reason}`;
}

export const replyMailJob = defineJob(
  "mail.reply",
  z.object({ todoId: ZId }),
  async ({ todoId }, ctx) => {
    const todo = await db().todo.findUnique({
      where: { id: todoId },
      select: { content: true, status: true, projectId: true, userId: true, metadata: true, workflow: true, user: { select: { email: true, settings: { select: { settings: true } } } } },
    });
    if (!todo) return;
    // Still waiting for the owner to approve or deny a command the agent proposed: the first such.
    const approval = todo.status === "RUNNING" ? await pendingShell(todoId, todo.workflow) : null;
    if (todo.status !== "READY" && todo.status !== "ERROR" && !approval) return;
    if (!appSettingsFromStored(todo.user.settings?.settings).emailNotifications) return;
    const io = runtime().io;
    if (io && (await io.in(userRoom(todo.userId)).fetchSockets()).some(watches)) return;
    const reply = await db().message.findFirst({ where: { todoId, role: "assistant" }, orderBy: { seq: "desc" }, select: { content: true } });
    const error = (todo.metadata as { error?: unknown } | null)?.error;
    const app = runtime().config.appUrl;
    const mail = replyMail(todo.user.email, {
      todo: todo.content,
      outcome: approval ? "approval" : todo.status === "READY" ? "replied" : "failed",
      excerpt: approval ? `${approval.command}\n\n(on ${approval.deviceName}, in ${approval.path})` : replyExcerpt(todo.status as "READY" | "ERROR", reply?.content, error),
      url: `${app}/projects/${todo.projectId}/todos/${todoId}`,
      settingsUrl: `${app}/settings`,
    });
    await ctx.once("send", (idempotencyKey) => runtime().mailer.send(mail, { idempotencyKey }));
  },
  // A mail that failed for good (the provider down for minutes) does not keep the todo's next turns from being mailed.
  { attempts: 5, backoffMs: 5_000, failedFreesKey: true },
);
