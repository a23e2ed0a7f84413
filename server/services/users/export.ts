// user_exportData: the account's records as one JSON object (lib/schemas/account.ts
// AccountDataExport), written to a stream page by page. No table is read whole: every list is read
// in pages of PAGE rows ordered by id (keyset paging), and a page is serialized and handed to the
// stream before the next is read, so memory stays flat however many messages the account has
// (bench/export.ts measures it). The stream pulls: a slow reader slows the reads.
//
// What is exported and what is not, table by table: ./account-data.ts. Credential fields (key and
// token hashes, the session token, device secrets, provider tokens, invite tokens, device codes)
// are never selected, so they cannot leak through a serializer.
import type { Caller } from "../../auth/caller.ts";
import type { Prisma } from "../../db/generated/client.ts";
import { notFound } from "../../http/errors.ts";
import { log } from "../../log.ts";
import { db } from "../../runtime.ts";

const PAGE = 500;

const ms = (d: Date): number => d.getTime();
const msOrNull = (d: Date | null): number | null => (d ? d.getTime() : null);

/** The todos whose content the account takes with it: those of its projects, and those it wrote elsewhere. */
export function exportedTodosWhere(userId: string): Prisma.TodoWhereInput {
  return { OR: [{ project: { ownerId: userId } }, { userId }] };
}

/** Reads `fetch` page by page, keyset-paged by id (each page starts after the last id of the previous). */
async function* pages<T extends { id: string }>(fetch: (after: string | undefined, take: number) => Promise<T[]>): AsyncGenerator<T[]> {
  let after: string | undefined;
  for (;;) {
    const rows = await fetch(after, PAGE);
    if (rows.length === 0) return;
    yield rows;
    if (rows.length < PAGE) return;
    after = rows[rows.length - 1]!.id;
  }
}

const afterId = (after: string | undefined) => (after === undefined ? {} : { id: { gt: after } });

const TODO_BATCH = 100;

/**
 * The rows of the exported todos, read TODO_BATCH todos at a time (the todos keyset-paged by id):
 * each batch's rows come through the todoId indexes, so an account's export reads its own rows
 * only, however many rows other accounts have.
 */
async function* perTodoBatch<T>(todos: Prisma.TodoWhereInput, rowsOf: (todoIds: string[]) => AsyncGenerator<T[]>): AsyncGenerator<T[]> {
  let after: string | undefined;
  for (;;) {
    const batch = await db().todo.findMany({ where: { AND: [todos, afterId(after)] }, orderBy: { id: "asc" }, take: TODO_BATCH, select: { id: true } });
    if (batch.length === 0) return;
    yield* rowsOf(batch.map((t) => t.id));
    if (batch.length < TODO_BATCH) return;
    after = batch[batch.length - 1]!.id;
  }
}

/** The messages `where` picks, todo by todo in chat order: keyset-paged on (todoId, seq), the index's order. */
async function* inChatOrder(where: Prisma.MessageWhereInput) {
  let after: { todoId: string; seq: bigint } | undefined;
  for (;;) {
    const rows = await db().message.findMany({
      where: { AND: [where, after ? { OR: [{ todoId: { gt: after.todoId } }, { todoId: after.todoId, seq: { gt: after.seq } }] } : {}] },
      orderBy: [{ todoId: "asc" }, { seq: "asc" }],
      take: PAGE,
    });
    if (rows.length === 0) return;
    yield rows;
    if (rows.length < PAGE) return;
    const last = rows[rows.length - 1]!;
    after = { todoId: last.todoId, seq: last.seq };
  }
}

/** `,"name":[` then the mapped rows of every page (one chunk per page), then `]`. */
async function* array<T>(name: string, rows: AsyncGenerator<T[]>, map: (row: T) => unknown): AsyncGenerator<string> {
  yield `,${JSON.stringify(name)}:[`;
  let first = true;
  for await (const page of rows) {
    let chunk = "";
    for (const row of page) {
      chunk += (first ? "" : ",") + JSON.stringify(map(row));
      first = false;
    }
    yield chunk;
  }
  yield "]";
}

function field(name: string, value: unknown): string {
  return `,${JSON.stringify(name)}:${JSON.stringify(value)}`;
}

/** The export as a sequence of JSON text chunks; concatenated they are one AccountDataExport. */
export async function* exportChunks(userId: string, now: Date = new Date()): AsyncGenerator<string> {
  const p = db();
  const user = await p.user.findUnique({ where: { id: userId } });
  if (!user) throw notFound("User");
  yield `{"format":"todo-service.account-export","version":1,"exportedAt":${now.getTime()}`;
  yield field("user", {
    id: user.id,
    email: user.email,
    name: user.name,
    image: user.image,
    emailVerified: msOrNull(user.emailVerified),
    isAdmin: user.isAdmin,
    defaultProjectId: user.defaultProjectId,
    createdAt: ms(user.createdAt),
    updatedAt: ms(user.updatedAt),
  });
  const settings = await p.userSettings.findUnique({ where: { userId } });
  yield field("settings", settings ? { settings: settings.settings, billingInfo: settings.billingInfo, updatedAt: ms(settings.updatedAt) } : null);
  yield* array(
    "signInMethods",
    pages((after, take) => p.account.findMany({ where: { userId, ...afterId(after) }, orderBy: { id: "asc" }, take, select: { id: true, provider: true, type: true, providerAccountId: true } })),
    (a) => ({ provider: a.provider, type: a.type, providerAccountId: a.providerAccountId }),
  );
  yield* array(
    "apiKeys",
    pages((after, take) =>
      p.apiKey.findMany({ where: { userId, ...afterId(after) }, orderBy: { id: "asc" }, take, select: { id: true, name: true, last4: true, isDefault: true, createdAt: true, lastUsedAt: true } }),
    ),
    (k) => ({ name: k.name, last4: k.last4, isDefault: k.isDefault, createdAt: ms(k.createdAt), lastUsedAt: msOrNull(k.lastUsedAt) }),
  );
  yield* array(
    "projects",
    pages((after, take) =>
      p.project.findMany({
        where: { ownerId: userId, ...afterId(after) },
        orderBy: { id: "asc" },
        take,
        include: {
          groups: { orderBy: { position: "asc" } },
          cards: { orderBy: { createdAt: "asc" } },
          shares: { orderBy: { createdAt: "asc" }, include: { user: { select: { email: true } } } },
        },
      }),
    ),
    (pr) => ({
      id: pr.id,
      name: pr.name,
      description: pr.description,
      isPublic: pr.isPublic,
      brandMarkdown: pr.brandMarkdown,
      settings: pr.settings,
      createdAt: ms(pr.createdAt),
      updatedAt: ms(pr.updatedAt),
      groups: pr.groups.map((g) => ({ id: g.id, slug: g.slug, name: g.name, position: g.position, createdAt: ms(g.createdAt), updatedAt: ms(g.updatedAt) })),
      cards: pr.cards.map((c) => ({ id: c.id, name: c.name, description: c.description, html: c.html, createdAt: ms(c.createdAt) })),
      shares: pr.shares.map((s) => ({ userId: s.userId, email: s.user.email, role: s.role, createdAt: ms(s.createdAt) })),
    }),
  );
  const mappings = await p.projectAgentMapping.findMany({ where: { userId }, orderBy: { projectId: "asc" } });
  yield field(
    "projectAgentMappings",
    mappings.map((m) => ({ projectId: m.projectId, settings: m.settings, updatedAt: ms(m.updatedAt) })),
  );
  yield* array(
    "sharedWithMe",
    pages((after, take) => p.projectShare.findMany({ where: { userId, ...afterId(after) }, orderBy: { id: "asc" }, take, include: { project: { select: { name: true } } } })),
    (s) => ({ projectId: s.projectId, projectName: s.project.name, role: s.role, createdAt: ms(s.createdAt) }),
  );
  const todos = exportedTodosWhere(userId);
  yield* array(
    "todos",
    pages((after, take) =>
      p.todo.findMany({
        where: { AND: [todos, afterId(after)] },
        orderBy: { id: "asc" },
        take,
        omit: { leaseOwner: true, leaseUntil: true, agentSettingsId: true, businessContextId: true },
      }),
    ),
    (t) => ({
      id: t.id,
      projectId: t.projectId,
      authorId: t.userId,
      groupId: t.groupId,
      content: t.content,
      status: t.status,
      scheduledAt: msOrNull(t.scheduledAt),
      assignedAgent: t.assignedAgent,
      agentSettings: t.agentSettings,
      isPublic: t.isPublic,
      metadata: t.metadata,
      workflow: t.workflow,
      lastActivityAt: ms(t.lastActivityAt),
      createdAt: ms(t.createdAt),
      updatedAt: ms(t.updatedAt),
    }),
  );
  yield* array(
    "messages",
    (async function* () {
      yield* perTodoBatch(todos, (todoIds) => inChatOrder({ todoId: { in: todoIds } }));
      // Then what the account wrote in the todos of others (a shared project's, a team's): its own
      // words, through the authorId index; those todos are not the account's to take.
      yield* inChatOrder({ authorId: userId, NOT: { todo: todos } });
    })(),
    (m) => ({
      id: m.id,
      todoId: m.todoId,
      seq: m.seq.toString(),
      role: m.role,
      authorId: m.authorId,
      content: m.content,
      state: m.state,
      scheduledAt: msOrNull(m.scheduledAt),
      usage: m.usage,
      createdAt: ms(m.createdAt),
      updatedAt: ms(m.updatedAt),
    }),
  );
  yield* array(
    "blocks",
    perTodoBatch(todos, (todoIds) => pages((after, take) => p.block.findMany({ where: { todoId: { in: todoIds }, ...afterId(after) }, orderBy: { id: "asc" }, take }))),
    (b) => ({
      id: b.id,
      todoId: b.todoId,
      messageId: b.messageId,
      position: b.position,
      type: b.type,
      content: b.content,
      actionable: b.actionable,
      checked: b.checked,
      subTodoIds: b.subTodoIds,
      createdAt: ms(b.createdAt),
      updatedAt: ms(b.updatedAt),
    }),
  );
  yield* array(
    "memoryNotes",
    pages((after, take) => p.memoryNote.findMany({ where: { userId, ...afterId(after) }, orderBy: { id: "asc" }, take })),
    (n) => ({ id: n.id, projectId: n.projectId, content: n.content, createdAt: ms(n.createdAt), updatedAt: ms(n.updatedAt) }),
  );
  yield* array(
    "pendingTasks",
    pages((after, take) => p.pendingTask.findMany({ where: { userId, ...afterId(after) }, orderBy: { id: "asc" }, take })),
    (t) => ({ id: t.id, kind: t.kind, todoId: t.todoId, payload: t.payload, dueAt: ms(t.dueAt), createdAt: ms(t.createdAt) }),
  );
  yield* array(
    "aiReports",
    pages((after, take) => p.aiReport.findMany({ where: { userId, ...afterId(after) }, orderBy: { id: "asc" }, take })),
    (r) => ({ id: r.id, todoId: r.todoId, messageId: r.messageId, reason: r.reason, details: r.details, status: r.status, createdAt: ms(r.createdAt) }),
  );
  yield* array(
    "edges",
    pages((after, take) => p.edge.findMany({ where: { userId, ...afterId(after) }, orderBy: { id: "asc" }, take })),
    (e) => ({ id: e.id, name: e.name, metadata: e.metadata, lastSeenAt: msOrNull(e.lastSeenAt), createdAt: ms(e.createdAt), updatedAt: ms(e.updatedAt) }),
  );
  yield* array(
    "devices",
    pages((after, take) => p.device.findMany({ where: { userId, ...afterId(after) }, orderBy: { id: "asc" }, take, omit: { secretHash: true } })),
    (d) => ({
      id: d.id,
      name: d.name,
      kind: d.kind,
      workspacePaths: d.workspacePaths,
      metadata: d.metadata,
      lastSeenAt: msOrNull(d.lastSeenAt),
      createdAt: ms(d.createdAt),
      updatedAt: ms(d.updatedAt),
    }),
  );
  yield* array(
    "cliLogins",
    pages((after, take) =>
      p.cliLogin.findMany({
        where: { userId, ...afterId(after) },
        orderBy: { id: "asc" },
        take,
        select: { id: true, clientName: true, deviceName: true, status: true, approvedAt: true, completedAt: true, createdAt: true },
      }),
    ),
    (c) => ({ clientName: c.clientName, deviceName: c.deviceName, status: c.status, approvedAt: msOrNull(c.approvedAt), completedAt: msOrNull(c.completedAt), createdAt: ms(c.createdAt) }),
  );
  yield* billing(userId);
  yield* team(userId);
  yield* array(
    "courseSignups",
    pages((after, take) =>
      p.courseSignup.findMany({
        where: { email: { equals: user.email, mode: "insensitive" }, ...afterId(after) },
        orderBy: { id: "asc" },
        take,
        include: { course: { select: { slug: true } }, coupon: { select: { code: true, mailedAt: true, redeemedAt: true } } },
      }),
    ),
    (s) => ({
      courseSlug: s.course.slug,
      email: s.email,
      socialHandle: s.socialHandle,
      createdAt: ms(s.createdAt),
      coupon: s.coupon ? { code: s.coupon.code, mailedAt: s.coupon.mailedAt ? ms(s.coupon.mailedAt) : null, redeemedAt: s.coupon.redeemedAt ? ms(s.coupon.redeemedAt) : null } : null,
    }),
  );
  yield* array(
    "coursePerks",
    pages((after, take) => p.coursePerkGrant.findMany({ where: { userId, ...afterId(after) }, orderBy: { id: "asc" }, take, include: { course: { select: { slug: true } } } })),
    (g) => ({ courseSlug: g.course.slug, amountCents: g.amountCents, createdAt: ms(g.createdAt) }),
  );
  yield* array(
    "courseIdeas",
    pages((after, take) => p.courseIdea.findMany({ where: { authorId: userId, ...afterId(after) }, orderBy: { id: "asc" }, take })),
    (i) => ({ id: i.id, text: i.text, hidden: i.hidden, createdAt: ms(i.createdAt) }),
  );
  yield "}";
}

async function* billing(userId: string): AsyncGenerator<string> {
  const p = db();
  const [account, sub] = await Promise.all([p.billingAccount.findUnique({ where: { userId } }), p.subscription.findUnique({ where: { userId } })]);
  yield `,"billing":{"account":${JSON.stringify(
    account ? { currency: account.currency, balanceCents: account.balanceCents, allowExtraSpend: account.allowExtraSpend, createdAt: ms(account.createdAt) } : null,
  )}`;
  yield `,"subscription":${JSON.stringify(
    sub
      ? {
          tier: sub.tier,
          status: sub.status,
          currentPeriodStart: msOrNull(sub.currentPeriodStart),
          currentPeriodEnd: msOrNull(sub.currentPeriodEnd),
          cancelAtPeriodEnd: sub.cancelAtPeriodEnd,
          createdAt: ms(sub.createdAt),
        }
      : null,
  )}`;
  yield* array(
    "paymentMethods",
    pages((after, take) => p.paymentMethod.findMany({ where: { userId, ...afterId(after) }, orderBy: { id: "asc" }, take })),
    (m) => ({ id: m.id, brand: m.brand, last4: m.last4, expMonth: m.expMonth, expYear: m.expYear, createdAt: ms(m.createdAt) }),
  );
  yield* array(
    "invoices",
    pages((after, take) => p.invoice.findMany({ where: { userId, ...afterId(after) }, orderBy: { id: "asc" }, take })),
    (i) => ({ id: i.id, amountCents: i.amountCents, currency: i.currency, status: i.status, hostedUrl: i.hostedUrl, createdAt: ms(i.createdAt) }),
  );
  yield* array(
    "transactions",
    pages((after, take) => p.ledgerTransaction.findMany({ where: { userId, ...afterId(after) }, orderBy: { id: "asc" }, take })),
    (t) => ({
      id: t.id,
      teamId: t.teamId,
      amountCents: t.amountCents,
      balanceAfterCents: t.balanceAfterCents,
      currency: t.currency,
      kind: t.kind,
      description: t.description,
      createdAt: ms(t.createdAt),
    }),
  );
  yield* array(
    "usage",
    pages((after, take) => p.usageRecord.findMany({ where: { userId, ...afterId(after) }, orderBy: { id: "asc" }, take })),
    (u) => ({
      id: u.id,
      projectId: u.projectId,
      todoId: u.todoId,
      messageId: u.messageId,
      tokensIn: u.tokensIn,
      tokensOut: u.tokensOut,
      costCents: u.costCents,
      allowanceCents: u.allowanceCents,
      creditCents: u.creditCents,
      currency: u.currency,
      createdAt: ms(u.createdAt),
    }),
  );
  yield "}";
}

async function* team(userId: string): AsyncGenerator<string> {
  const p = db();
  const member = await p.teamMember.findUnique({ where: { userId }, include: { team: { select: { id: true, name: true } } } });
  if (!member) {
    yield field("team", null);
    return;
  }
  const invites = await p.teamInvite.findMany({
    where: { teamId: member.teamId, invitedById: userId },
    orderBy: { createdAt: "asc" },
    select: { email: true, status: true, createdAt: true, expiresAt: true },
  });
  yield field("team", {
    teamId: member.team.id,
    name: member.team.name,
    role: member.role,
    via: member.via,
    joinedAt: ms(member.createdAt),
    invitesSent: invites.map((i) => ({ email: i.email, status: i.status, createdAt: ms(i.createdAt), expiresAt: ms(i.expiresAt) })),
  });
}

/**
 * The export as a byte stream that reads the next page only when the reader asks for more. The
 * first page is read before the stream is returned, so a missing user is an error status, not a
 * broken body; a failure later ends the stream with an error (the client sees a cut-off body).
 */
export async function exportStream(caller: Pick<Caller, "userId">): Promise<ReadableStream<Uint8Array>> {
  const chunks = exportChunks(caller.userId);
  const encoder = new TextEncoder();
  const first = await chunks.next();
  let pending: string | undefined = first.done ? undefined : first.value;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          if (pending !== undefined) {
            controller.enqueue(encoder.encode(pending));
            pending = undefined;
            return;
          }
          const next = await chunks.next();
          if (next.done) controller.close();
          else controller.enqueue(encoder.encode(next.value));
        } catch (err) {
          log.error("account export failed while streaming", { userId: caller.userId, error: err instanceof Error ? err.message : String(err) });
          controller.error(err);
        }
      },
      async cancel() {
        await chunks.return(undefined);
      },
    },
    { highWaterMark: 1 },
  );
}
