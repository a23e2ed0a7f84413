import { z } from "zod";
import { ZAgentSettings } from "./agent.ts";
import { atLeastOne, ZEpochMs, ZEpochMsQuery, ZId, ZJsonObject, ZLimit, ZSocketId, ZTimestamp } from "./common.ts";
import { ZAiReportReason } from "./reports.ts";

export const TODO_STATUSES = ["PROPOSED", "TODO", "SCHEDULED", "RUNNING", "PAUSED", "READY", "DONE", "ERROR", "CANCELLED"] as const;
export const ZTodoStatus = z.enum(TODO_STATUSES);
export const ZMessageRole = z.enum(["user", "assistant", "system", "tool"]);
export const ZMessageState = z.enum(["SCHEDULED", "PENDING", "PROCESSING", "DONE", "ERROR"]);
export const ZStatusAction = z.enum(["pause", "resume", "complete", "cancel", "accept", "dismiss"]);

/** Stored JSON as returned (inputs use the bounded ZJsonObject). */
const ZStoredJsonObject = z.record(z.string(), z.unknown());
/** The longest todo content or message accepted on every write (docs/api.md "Message bounds"). */
export const MAX_MESSAGE_CHARS = 100_000;
/** Messages per read, wherever messages are returned: default and maximum (a larger limit is clamped). */
export const MESSAGE_PAGE_DEFAULT = 50;
export const MESSAGE_PAGE_MAX = 200;
/** One read stops early, after at least one message, once its messages hold this many characters. */
export const MESSAGE_PAGE_MAX_CHARS = 1_000_000;

const ZContent = z.string().trim().min(1, "must not be empty").max(MAX_MESSAGE_CHARS, "must be at most 100,000 characters");
const ZGroupSlug = z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/, "lower-case letters, digits and dashes");
/** A future or past instant in ms; past instants mean "now". */
const ZWhen = ZEpochMs;

export const ZBlock = z
  .object({
    id: ZId,
    blockId: ZId,
    todoId: ZId,
    messageId: ZId,
    type: z.string().describe("checklist_item (actionable), tool_call (a step the agent took: content {tool, toolCallId, input, state: running|done|error, output}), shell (a command the agent proposed, actionable through todo_decideShell: content {command, path, deviceId, deviceName, state: pending|running|done|failed|denied|cancelled, output?, exitCode?, error?}), show (data the agent showed through one of the project's renderer cards: content {cardId, card, title, html, data}), …"),
    content: z.unknown(),
    actionable: z.boolean(),
    checked: z.boolean(),
    subTodoIds: z.array(ZId),
    position: z.number().int(),
    createdAt: ZTimestamp,
    updatedAt: ZTimestamp,
  })
  .meta({ id: "Block" });

/** What server/agent/turn-runner.ts records on an assistant message (toMessage keeps only these fields). */
export const ZMessageUsage = z
  .object({
    provider: z.string().optional().describe("The agent provider that wrote the reply: `local` or a configured provider's name"),
    model: z.string().optional().describe("The model, when the todo's agent settings name one"),
    tokensIn: z.number().optional().describe("Input tokens (the provider's count, else an estimate)"),
    tokensOut: z.number().optional().describe("Output tokens (the provider's count, else an estimate)"),
    costCents: z.number().optional().describe("What the turn cost, in cents (0 for the local agent)"),
    durationMs: z.number().optional().describe("How long the turn took, in ms"),
    steps: z
      .array(z.object({ tokensIn: z.number(), tokensOut: z.number() }))
      .optional()
      .describe("Token usage of each model call, when the turn took more than one (tool calls and the answer after them)"),
    interrupted: z.boolean().optional().describe("true when complete or cancel ended the reply early"),
    error: z.string().optional().describe("Why the reply stopped, on a reply in state ERROR"),
  })
  .meta({ id: "MessageUsage" });
export type TMessageUsage = z.infer<typeof ZMessageUsage>;
export const ZMessage = z
  .object({
    id: ZId,
    messageId: ZId,
    todoId: ZId,
    role: ZMessageRole,
    authorId: ZId.nullable().describe(
      "The user who wrote a user message; null for the agent's messages and for a user message whose author has deleted their account",
    ),
    content: z.string(),
    state: ZMessageState,
    scheduledAt: ZTimestamp.nullable(),
    usage: ZMessageUsage.nullable().describe("What the agent's reply cost; null on user messages"),
    createdAt: ZTimestamp,
    updatedAt: ZTimestamp,
    blocks: z.array(ZBlock),
  })
  .meta({ id: "Message" });

const todoFields = {
  id: ZId,
  projectId: ZId,
  userId: ZId,
  groupId: ZId.nullable(),
  groupSlug: z.string().nullable(),
  content: z.string(),
  status: ZTodoStatus,
  scheduledAt: ZTimestamp.nullable(),
  assignedAgent: z.string().nullable(),
  agentSettingsId: z.string().nullable(),
  businessContextId: z.string().nullable(),
  agentSettings: ZAgentSettings.nullable(),
  isPublic: z.boolean(),
  metadata: ZStoredJsonObject,
  lastActivityAt: ZTimestamp.describe("Cursor value of todo_list"),
  createdAt: ZTimestamp,
  updatedAt: ZTimestamp,
};

export const ZTodoListItem = z.object(todoFields).meta({ id: "TodoListItem" });

export const ZTodo = z
  .object({
    ...todoFields,
    messages: z.array(ZMessage).describe("Chat order, oldest first"),
    blocks: z.array(ZBlock).describe("The blocks of `messages`, flattened, in chat order"),
    hasMoreMessages: z.boolean().describe("Older messages exist beyond messageLimit"),
  })
  .meta({ id: "Todo" });

// The public todo (todo_getPublic, the share page): fields picked one by one, so a field added
// to Todo, Message or Block later is never public unless it is added here.
export const ZPublicBlock = ZBlock.pick({ id: true, blockId: true, messageId: true, type: true, content: true, actionable: true, checked: true, position: true }).meta({
  id: "PublicBlock",
});

export const ZPublicMessage = z
  .object({
    ...ZMessage.pick({ id: true, messageId: true, role: true, content: true, state: true, createdAt: true }).shape,
    blocks: z.array(ZPublicBlock),
  })
  .meta({ id: "PublicMessage" });

export const ZPublicTodo = z
  .object({
    ...ZTodoListItem.pick({ id: true, content: true, status: true, createdAt: true, updatedAt: true }).shape,
    messages: z.array(ZPublicMessage).describe("Chat order, oldest first: the newest page, or the page before `before`"),
    blocks: z.array(ZPublicBlock).describe("The blocks of `messages`, flattened, in chat order"),
    hasMoreMessages: z.boolean().describe("Older messages exist before `messages`"),
    nextCursor: ZId.nullable().describe("Pass as `before` for the page before; null at the first message"),
  })
  .meta({ id: "PublicTodo" });

export const ZTodoPage = z
  .object({ items: z.array(ZTodoListItem), nextCursor: ZTimestamp.nullable().describe("Pass as `cursor` for older items; null on the last page") })
  .meta({ id: "TodoPage" });

export const ZMessagesPage = z
  .object({ items: z.array(ZMessage), nextCursor: ZId.nullable().describe("Pass as `before` for the page before; null at the first message") })
  .meta({ id: "MessagesPage" });

export const ZTodoWorkflow = z
  .object({
    todoId: ZId,
    contextSummaryUsed: z.boolean(),
    contextSummary: z.string().nullable(),
    turn: z.number().int(),
    state: z.string(),
  })
  .meta({ id: "TodoWorkflow" });

export const ZPendingTask = z
  .object({
    id: z.string(),
    kind: z.enum(["scheduled_message", "proposed_todo"]),
    todoId: ZId,
    projectId: ZId,
    messageId: ZId.nullable(),
    dueAt: ZTimestamp.nullable(),
    createdAt: ZTimestamp,
    projectName: z.string().describe("The todo's project, to show the task without another read"),
    todoContent: z.string().describe("The todo's content, its first 200 characters"),
    messageContent: z.string().nullable().describe("A scheduled message's text, its first 500 characters; null for a proposed todo"),
  })
  .meta({ id: "PendingTask" });

// ───────────── inputs ─────────────

const todoSeed = {
  content: ZContent,
  groupSlug: ZGroupSlug.optional(),
  agentSettings: ZAgentSettings.optional(),
  assignedAgent: z.string().trim().min(1).max(200).optional(),
  agentSettingsId: z.string().trim().min(1).max(128).optional(),
  businessContextId: z.string().trim().min(1).max(128).optional(),
  metadata: ZJsonObject.optional(),
};

export const ZCreateTodoInput = z
  .object({
    ...todoSeed,
    scheduledAt: ZWhen.optional().describe("Run the first message at this time (ms)"),
    startProcessing: z.boolean().default(false).describe("Start the agent now"),
  })
  .meta({ id: "CreateTodoInput" });

const ZSpec = z.object(todoSeed);
export const ZStartFromSpecInput = z
  .object({
    spec: ZSpec.optional(),
    overrides: ZSpec.partial().optional(),
    content: ZContent.optional().describe("From scratch, without a spec"),
    propose: z.boolean().default(false).describe("Create it PROPOSED, not started"),
  })
  .refine((v) => v.spec !== undefined || v.content !== undefined, { message: "give a spec or a content", path: ["spec"] })
  .meta({ id: "StartFromSpecInput", anyOf: [{ required: ["spec"] }, { required: ["content"] }] });

export const ZTodoUpdateInput = atLeastOne(
  z.object({
    content: ZContent.optional(),
    scheduledAt: ZWhen.nullable().optional(),
    assignedAgent: z.string().trim().min(1).max(200).nullable().optional(),
    isPublic: z.boolean().optional().describe("The project owner's alone (403 for editors and viewers)"),
    groupSlug: ZGroupSlug.nullable().optional(),
    metadata: ZJsonObject.optional(),
  }),
  "give at least one field to change",
).meta({ id: "TodoUpdateInput" });

export const ZTodoIdInput = z.object({ todoId: ZId, socketId: ZSocketId }).meta({ id: "TodoIdInput" });

export const ZAddMessageInput = z
  .object({
    content: ZContent,
    startProcessing: z.boolean().default(true),
    scheduledAt: ZWhen.optional().describe("Schedule the message for later (ms)"),
  })
  .meta({ id: "AddMessageInput" });

export const ZUpdateMessageInput = atLeastOne(
  z.object({ content: ZContent.optional(), scheduledAt: ZWhen.optional() }),
  "give content or scheduledAt",
).meta({ id: "UpdateMessageInput" });

export const ZUpdateAndStartMessageInput = z.object({ messageId: ZId, content: ZContent }).meta({ id: "UpdateAndStartMessageInput" });

export const ZTodoStatusUpdateInput = z.object({ action: ZStatusAction }).meta({ id: "TodoStatusUpdateInput" });

export const ZTodoBlockSubTodoInput = z
  .object({ subTodoIds: z.array(ZId).min(1).max(100) })
  .meta({ id: "TodoBlockSubTodoInput" });

export const ZTodoBlockIdInput = z
  .object({ blockId: ZId.optional(), checked: z.boolean().optional().describe("Set instead of toggling") })
  .meta({ id: "TodoBlockIdInput" });

export const ZTodoAgentSelectionInput = z.object({ agentSettings: ZAgentSettings }).meta({ id: "TodoAgentSelectionInput" });

export const ZWorkflowUpdateInput = atLeastOne(
  z.object({ contextSummaryUsed: z.boolean().optional(), contextSummary: z.string().max(100_000).nullable().optional() }),
  "give contextSummaryUsed or contextSummary",
).meta({ id: "WorkflowUpdateInput" });

export const ZReportAiOutputInput = z
  .object({
    todoId: ZId,
    messageId: ZId.optional(),
    reason: ZAiReportReason,
    details: z.string().max(5_000).default(""),
  })
  .meta({ id: "ReportAiOutputInput" });

export const ZTodoParams = z.object({ todoId: ZId });

export const ZTodoListQuery = z.object({
  limit: ZLimit,
  cursor: ZEpochMsQuery.optional().describe("lastActivityAt of the last item received"),
  search: z.string().trim().min(1).max(200).optional().describe("Substring of the content, or a status name"),
  agentSettingsId: z.string().min(1).max(128).optional(),
  businessContextId: z.string().min(1).max(128).optional(),
});

export const ZMessagesQuery = z.object({ limit: ZLimit, before: ZId.optional().describe("The oldest messageId loaded") });

export const ZTodoGetQuery = z.object({
  messageLimit: ZLimit.describe("Only the newest N messages: default 50, larger than 200 is clamped to 200"),
});

export const ZPublicTodoQuery = ZTodoGetQuery.extend({ before: ZId.optional().describe("The oldest messageId received (`nextCursor`): the page before it") });

export type TTodo = z.infer<typeof ZTodo>;
export type TPublicTodo = z.infer<typeof ZPublicTodo>;
export type TPublicMessage = z.infer<typeof ZPublicMessage>;
export type TPublicBlock = z.infer<typeof ZPublicBlock>;
export type TTodoListItem = z.infer<typeof ZTodoListItem>;
export type TMessage = z.infer<typeof ZMessage>;
export type TBlock = z.infer<typeof ZBlock>;
export type TTodoStatus = z.infer<typeof ZTodoStatus>;
export type TStatusAction = z.infer<typeof ZStatusAction>;
export type TPendingTask = z.infer<typeof ZPendingTask>;
export type TTodoWorkflow = z.infer<typeof ZTodoWorkflow>;
