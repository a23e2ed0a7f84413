import type { TMessage } from "../schemas/todos.ts";
import type { TProjectMember } from "../schemas/projects.ts";

/**
 * Who a user message in the chat says wrote it (Message.authorId): undefined for the reader's own
 * ("You", MessageItem's default), a project member's name or email when the page has the
 * project's members (project_getMembers, read once per page), else "User" (an author the page does
 * not know, whose account is deleted, or the agent's follow-up). Undefined for other roles.
 */
export function authorLabel(message: Pick<TMessage, "role" | "authorId">, me: string, members: ReadonlyMap<string, Pick<TProjectMember, "name" | "email">>): string | undefined {
  if (message.role !== "user") return undefined;
  if (message.authorId === me) return undefined;
  const member = message.authorId ? members.get(message.authorId) : undefined;
  return member ? member.name?.trim() || member.email : "User";
}

/** Whether the chat shows a user message of someone else: only then are the members worth reading. */
export function hasOthersMessages(messages: readonly Pick<TMessage, "role" | "authorId">[], me: string): boolean {
  return messages.some((m) => m.role === "user" && m.authorId !== null && m.authorId !== me);
}
