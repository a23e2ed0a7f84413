"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useCallback, useEffect, useMemo, useState } from "react";
import { toast } from "sonner";
import { call } from "@/lib/api/client";
import { useOperation } from "@/lib/api/swr";
import { errorMessage } from "@/lib/ui/form-issues";
import { startWith, waitingMessage } from "@/lib/ui/agent-start";
import type { TBlock, TMessage } from "@/lib/schemas/todos";
import type { TProjectMember } from "@/lib/schemas/projects";
import { authorLabel, hasOthersMessages } from "@/lib/ui/message-author";
import { AgentPicker } from "./agent-picker";
import { Composer } from "./composer";
import { MessageList } from "./message-list";
import { OfflineAgentHint } from "./offline-hint";
import { Loading } from "@/components/ui/load-state";
import { composerClosedReason } from "@/lib/ui/status";
import { todoHref, todoTitle } from "@/lib/ui/format";
import { useOptionalShell, type ProjectsState } from "@/components/shell/shell-context";
import type { TProjectFull } from "@/lib/schemas/projects";
import { TodoGone } from "./todo-gone";
import { TodoHeader } from "./todo-header";
import { useTodoChat } from "./use-todo-chat";
import styles from "./todo.module.css";

/**
 * What the signed-in user may do with a todo, from their projects (the shell's list): `write` as
 * owner or editor; `read` as a viewer (or a project not in the list); `unknown` while the list loads, when no control is offered yet. The server checks every
 * write anyway; without a shell, or when the list failed, the controls stay.
 */
function todoAccess(projects: ProjectsState | undefined, role: TProjectFull["role"] | undefined): "write" | "read" | "unknown" {
  if (!projects || projects.phase === "error") return "write";
  if (projects.phase === "loading") return "unknown";
  return role === "owner" || role === "editor" ? "write" : "read";
}

/** The chat page of one todo: header with status controls, messages as they stream, composer. */
export function TodoChat({ projectId, todoId }: { projectId: string; todoId: string }) {
  const chat = useTodoChat(todoId);
  const { state, load, setBlockChecked, refetch } = chat;
  const router = useRouter();
  const todo = state.todo;

  // A link may name the wrong project (a sub-todo elsewhere): put the todo's own project in the URL.
  useEffect(() => {
    if (todo && todo.projectId !== projectId) router.replace(todoHref(todo.projectId, todo.id));
  }, [todo, projectId, router]);

  const onCheck = useCallback(
    async (block: TBlock, checked: boolean) => {
      setBlockChecked(block.messageId, block.blockId, checked);
      try {
        await call("todo_toggleBlockChecked", { params: { todoId: block.todoId, blockId: block.blockId }, body: { checked } });
      } catch (err) {
        setBlockChecked(block.messageId, block.blockId, !checked);
        throw err;
      }
    },
    [setBlockChecked],
  );

  // The window's title names the todo and its project.
  const shell = useOptionalShell();
  const projects = shell?.projects;
  const project = projects?.phase === "ready" ? projects.list.find((p) => p.id === todo?.projectId) : undefined;
  const projectName = project?.name;
  const access = todoAccess(projects, project?.role);
  const title = todo ? todoTitle(todo.content) : null;
  useEffect(() => {
    if (title !== null) document.title = [title, projectName, "Todo Service"].filter(Boolean).join(" · ");
  }, [title, projectName]);

  // Who wrote each user message: the reader ("You"), or a member named from the project's members,
  // read once when someone else's message is in the chat (not per message); "User" until then.
  const me = shell?.userId ?? null;
  const othersWrote = me !== null && hasOthersMessages(state.messages, me);
  const membersOf = todo?.projectId;
  // Names are a nicety: while they load, or if the read fails, the messages say "User".
  const members = useOperation("project_getMembers", othersWrote && membersOf ? { params: { projectId: membersOf } } : null);
  const userLabelOf = useMemo(() => {
    if (me === null) return undefined;
    const byId = new Map<string, TProjectMember>((members.data?.items ?? []).map((m) => [m.userId, m]));
    return (m: TMessage) => authorLabel(m, me, byId);
  }, [me, members.data]);

  // A todo created without the agent: its first message waits until someone starts it.
  const waiting = todo?.status === "TODO" ? waitingMessage(state.messages) : undefined;
  const [starting, setStarting] = useState(false);
  const startNow = useCallback(async () => {
    if (!waiting) return;
    setStarting(true);
    try {
      await startWith(todoId, waiting);
    } catch (err) {
      toast.error(`Could not start the agent: ${errorMessage(err)}`);
      setStarting(false);
    }
    // Started, the button stays busy until the todo leaves TODO (this refetch, or its event) and the hint goes.
    refetch();
  }, [todoId, waiting, refetch]);

  const stop = useCallback(async () => {
    try {
      await call("todo_updateStatus", { params: { todoId }, body: { action: "pause" } });
      toast("Agent stopped", { description: "Resume carries on from where it stopped." });
    } catch (err) {
      toast.error(`Could not stop the agent: ${errorMessage(err)}`);
    }
    refetch();
  }, [todoId, refetch]);

  if (load.kind === "loading") {
    return <Loading label="Loading todo…" lines={5} />;
  }
  if (load.kind === "notfound" || state.deleted) return <TodoGone projectId={projectId} deleted={state.deleted} />;
  if (load.kind === "error" || !todo) {
    return (
      <section className="card" role="alert">
        <h1>Could not load this todo</h1>
        <p className="error">{load.kind === "error" ? load.message : "Unknown error"}</p>
        {load.kind === "error" && load.status === 401 ? (
          <p>
            Your session has ended: <Link href="/signin">sign in again</Link>.
          </p>
        ) : null}
        <button type="button" onClick={refetch}>
          Try again
        </button>
      </section>
    );
  }
  const closedReason = composerClosedReason(todo.status);

  return (
    <div className={styles.chat}>
      <TodoHeader todo={todo} projectId={todo.projectId} live={chat.live} onChanged={refetch} canWrite={access === "write"} />
      {waiting && access === "write" ? (
        <aside className={styles.offlineHint} data-testid="start-hint">
          <p style={{ margin: 0 }}>This todo was created without the agent: its first message waits for it.</p>
          <button type="button" onClick={() => void startNow()} disabled={starting} aria-busy={starting}>
            {starting ? "Starting…" : "▶ Start the agent"}
          </button>
        </aside>
      ) : null}
      {chat.refreshError ? (
        <p className="error" role="alert">
          Could not refresh: {chat.refreshError}
        </p>
      ) : null}
      <MessageList
        messages={state.messages}
        hasOlder={state.hasOlder}
        loadingOlder={chat.loadingOlder}
        olderError={chat.olderError}
        onLoadOlder={chat.loadOlder}
        agentName={todo.assignedAgent}
        projectId={todo.projectId}
        onCheck={access === "write" ? onCheck : undefined}
        onChanged={refetch}
        readOnly={access !== "write"}
        userLabelOf={userLabelOf}
        paused={todo.status === "PAUSED"}
        cancelled={todo.status === "CANCELLED"}
      />
      {access === "write" && state.messages.some((m) => m.role === "assistant" && m.usage?.provider === "local") ? <OfflineAgentHint /> : null}
      {access === "write" ? (
        <Composer
          key={todo.id}
          todoId={todo.id}
          closedReason={closedReason}
          onSent={chat.upsertMessage}
          onStop={todo.status === "RUNNING" ? stop : undefined}
          // A todo that takes no more messages has no next reply to choose a model for.
          picker={closedReason ? undefined : <AgentPicker todoId={todo.id} settings={todo.agentSettings} />}
        />
      ) : access === "read" ? (
        <p className={`card muted ${styles.readOnly}`} data-testid="read-only">
          {project ? `You can read this todo but not change it: ${project.name} is shared with you as a viewer.` : "You can read this todo but not change it."}
        </p>
      ) : null}
    </div>
  );
}
