import { z } from "zod";
import { ZId, ZTimestamp } from "./common.ts";

// user_exportData and user_deleteAccount (docs/api.md "Account export and deletion").

const ZJson = z.unknown().describe("JSON exactly as stored");
const ZTime = ZTimestamp.nullable();

const ZExportProject = z.object({
  id: ZId,
  name: z.string(),
  description: z.string(),
  isPublic: z.boolean(),
  brandMarkdown: z.string(),
  settings: ZJson,
  createdAt: ZTimestamp,
  updatedAt: ZTimestamp,
  groups: z.array(z.object({ id: ZId, slug: z.string(), name: z.string(), position: z.number().int(), createdAt: ZTimestamp, updatedAt: ZTimestamp })),
  cards: z.array(z.object({ id: ZId, name: z.string(), description: z.string(), html: z.string(), createdAt: ZTimestamp })),
  shares: z.array(z.object({ userId: ZId, email: z.string(), role: z.enum(["editor", "viewer"]), createdAt: ZTimestamp })).describe("Whom the project is shared with"),
});

const ZExportTodo = z.object({
  id: ZId,
  projectId: ZId,
  authorId: ZId.describe("Who created the todo (the account, or a person the project is shared with)"),
  groupId: ZId.nullable(),
  content: z.string(),
  status: z.string(),
  scheduledAt: ZTime,
  assignedAgent: z.string().nullable(),
  agentSettings: ZJson,
  isPublic: z.boolean(),
  metadata: ZJson,
  workflow: ZJson,
  lastActivityAt: ZTimestamp,
  createdAt: ZTimestamp,
  updatedAt: ZTimestamp,
});

const ZExportMessage = z.object({
  id: ZId,
  todoId: ZId,
  seq: z.string().describe("Chat order within the todo (a 64-bit integer, as a string)"),
  role: z.string(),
  authorId: ZId.nullable().describe("Who wrote a user message (as Message.authorId); null for the agent's messages"),
  content: z.string(),
  state: z.string(),
  scheduledAt: ZTime,
  usage: ZJson,
  createdAt: ZTimestamp,
  updatedAt: ZTimestamp,
});

const ZExportBlock = z.object({
  id: ZId,
  todoId: ZId,
  messageId: ZId,
  position: z.number().int(),
  type: z.string(),
  content: ZJson,
  actionable: z.boolean(),
  checked: z.boolean(),
  subTodoIds: z.array(z.string()),
  createdAt: ZTimestamp,
  updatedAt: ZTimestamp,
});

export const ZAccountDataExport = z
  .object({
    format: z.literal("todo-service.account-export"),
    version: z.literal(1),
    exportedAt: ZTimestamp,
    user: z.object({
      id: ZId,
      email: z.string(),
      name: z.string().nullable(),
      image: z.string().nullable(),
      emailVerified: ZTime,
      isAdmin: z.boolean(),
      defaultProjectId: ZId.nullable(),
      createdAt: ZTimestamp,
      updatedAt: ZTimestamp,
    }),
    settings: z.object({ settings: ZJson, billingInfo: ZJson, updatedAt: ZTimestamp }).nullable(),
    signInMethods: z.array(z.object({ provider: z.string(), type: z.string(), providerAccountId: z.string() })).describe("Linked sign-in providers, without their tokens"),
    apiKeys: z.array(z.object({ name: z.string(), last4: z.string(), isDefault: z.boolean(), createdAt: ZTimestamp, lastUsedAt: ZTime })).describe("Key names and last four characters; never a key or its hash"),
    projects: z.array(ZExportProject).describe("Projects the account owns"),
    projectAgentMappings: z.array(z.object({ projectId: ZId, settings: ZJson, updatedAt: ZTimestamp })),
    sharedWithMe: z.array(z.object({ projectId: ZId, projectName: z.string(), role: z.enum(["editor", "viewer"]), createdAt: ZTimestamp })),
    todos: z.array(ZExportTodo).describe("Every todo of the account's projects, and the todos the account wrote in projects of others"),
    messages: z
      .array(ZExportMessage)
      .describe("The messages of those todos, todo by todo, each in chat order; then the messages the account wrote in the todos of others, the same way (their todoId names a todo the export does not hold)"),
    blocks: z.array(ZExportBlock).describe("The blocks of those todos"),
    memoryNotes: z.array(z.object({ id: ZId, projectId: ZId.nullable(), content: z.string(), createdAt: ZTimestamp, updatedAt: ZTimestamp })),
    pendingTasks: z.array(z.object({ id: ZId, kind: z.string(), todoId: ZId.nullable(), payload: ZJson, dueAt: ZTimestamp, createdAt: ZTimestamp })),
    aiReports: z.array(z.object({ id: ZId, todoId: ZId.nullable(), messageId: ZId.nullable(), reason: z.string(), details: z.string(), status: z.string(), createdAt: ZTimestamp })),
    edges: z.array(z.object({ id: ZId, name: z.string(), metadata: ZJson, lastSeenAt: ZTime, createdAt: ZTimestamp, updatedAt: ZTimestamp })),
    devices: z.array(z.object({ id: ZId, name: z.string(), kind: z.string(), workspacePaths: z.array(z.string()), metadata: ZJson, lastSeenAt: ZTime, createdAt: ZTimestamp, updatedAt: ZTimestamp })).describe("Without the device secret or its tokens"),
    cliLogins: z.array(z.object({ clientName: z.string(), deviceName: z.string().nullable(), status: z.string(), approvedAt: ZTime, completedAt: ZTime, createdAt: ZTimestamp })).describe("Command-line logins approved by the account, without their codes"),
    billing: z.object({
      account: z.object({ currency: z.string(), balanceCents: z.number().int(), allowExtraSpend: z.boolean(), createdAt: ZTimestamp }).nullable(),
      subscription: z
        .object({ tier: z.string(), status: z.string(), currentPeriodStart: ZTime, currentPeriodEnd: ZTime, cancelAtPeriodEnd: z.boolean(), createdAt: ZTimestamp })
        .nullable(),
      paymentMethods: z.array(z.object({ id: z.string(), brand: z.string(), last4: z.string(), expMonth: z.number().int(), expYear: z.number().int(), createdAt: ZTimestamp })),
      invoices: z.array(z.object({ id: ZId, amountCents: z.number().int(), currency: z.string(), status: z.string(), hostedUrl: z.string().nullable(), createdAt: ZTimestamp })),
      transactions: z.array(
        z.object({ id: ZId, teamId: ZId.nullable(), amountCents: z.number().int(), balanceAfterCents: z.number().int(), currency: z.string(), kind: z.string(), description: z.string(), createdAt: ZTimestamp }),
      ),
      usage: z.array(
        z.object({
          id: ZId,
          projectId: z.string(),
          todoId: z.string(),
          messageId: z.string(),
          tokensIn: z.number().int(),
          tokensOut: z.number().int(),
          costCents: z.number().int(),
          allowanceCents: z.number().int(),
          creditCents: z.number().int(),
          currency: z.string(),
          createdAt: ZTimestamp,
        }),
      ),
    }),
    team: z
      .object({
        teamId: ZId,
        name: z.string(),
        role: z.enum(["owner", "admin", "member"]),
        via: z.string(),
        joinedAt: ZTimestamp,
        invitesSent: z.array(z.object({ email: z.string(), status: z.string(), createdAt: ZTimestamp, expiresAt: ZTimestamp })).describe("Invites the account sent, without their tokens"),
      })
      .nullable()
      .describe("The team the account is in, as a member sees it"),
    courseSignups: z.array(
      z.object({
        courseSlug: z.string(),
        email: z.string(),
        socialHandle: z.string().nullable(),
        createdAt: ZTimestamp,
        coupon: z.object({ code: z.string(), mailedAt: ZTimestamp.nullable(), redeemedAt: ZTimestamp.nullable() }).nullable().describe("The signup's coupon, if one was made"),
      }),
    ),
    coursePerks: z.array(z.object({ courseSlug: z.string(), amountCents: z.number().int(), createdAt: ZTimestamp })).describe("Course perks granted to the account"),
    courseIdeas: z.array(z.object({ id: ZId, text: z.string(), hidden: z.boolean(), createdAt: ZTimestamp })),
  })
  .meta({
    id: "AccountDataExport",
    description:
      "Version 1 of the account export: one JSON object, streamed. Ids link the arrays (a message's todoId, a todo's projectId). Timestamps are milliseconds. Content the account wrote is exported exactly as stored; credentials (API keys, their hashes, sessions, device secrets and tokens, sign-in tokens, invite tokens) and file bytes are never in it.",
  });

export type TAccountDataExport = z.infer<typeof ZAccountDataExport>;

export const ZDeleteAccountInput = z
  .object({
    confirm: z
      .string()
      .trim()
      .min(1, "must not be empty")
      .max(320)
      .describe("The account's email address, typed by the person deleting it (compared case-insensitively); any other value is 422 and deletes nothing"),
  })
  .meta({ id: "DeleteAccountInput", description: "EmptyInput plus the typed confirmation that account deletion needs" });

export type TDeleteAccountInput = z.infer<typeof ZDeleteAccountInput>;
