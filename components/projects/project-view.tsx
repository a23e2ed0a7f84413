"use client";

import { useCallback, useEffect, useState } from "react";
import { useRouter } from "next/navigation";
import { ApiClientError } from "@/lib/api/client";
import { dropInFlight, refreshOperation, useOperation } from "@/lib/api/swr";
import { useRealtime, type RealtimeEvent } from "@/lib/realtime-client";
import type { TProjectFull } from "@/lib/schemas/projects";
import type { TTodoGroup } from "@/lib/schemas/groups";
import type { TTodoListItem, TTodoStatus } from "@/lib/schemas/todos";
import { errorMessage } from "@/lib/ui/form-issues";
import { useCoalesced } from "@/lib/ui/use-coalesced";
import { byPosition } from "@/lib/ui/group-order";
import { useShell } from "@/components/shell/shell-context";
import { NewGroupForm } from "./new-group-form";
import { ProjectGone, ProjectNotFound } from "./project-gone";
import { NewTodoForm } from "./new-todo-form";
import { ProjectHeader } from "./project-header";
import { ListShortcuts } from "./shortcuts";
import { Loading } from "@/components/ui/load-state";
import { ProposedSection, SearchBox, TodoBoard, type GroupsState } from "./todo-board";
import { toListItem, useTodoFeed } from "./use-todo-feed";
import { useTodoSelection } from "./bulk-bar";
import { eventProjectId, isAccessChange } from "@/lib/ui/project-events";

type ProjectState =
  | { phase: "loading" }
  | { phase: "ready"; project: TProjectFull }
  | { phase: "not-found" }
  | { phase: "deleted"; name: string }
  | { phase: "error"; message: string };

/** A group added or changed, in a list of groups. */
function withGroup(list: TTodoGroup[] | undefined, group: TTodoGroup): TTodoGroup[] {
  return [...(list ?? []).filter((g) => g.id !== group.id), group];
}

// The project, its groups and its two todo feeds are read through the data layer (lib/api/swr.ts).
// Live events write what they carry into the cache (SWR then drops any answer that left before
// them) and ask again for what they only announce, coalesced.
export function ProjectView({ projectId }: { projectId: string }) {
  const router = useRouter();
  const { refreshProjects } = useShell();
  const projectRead = useOperation("project_get", { params: { projectId } });
  const groupsRead = useOperation("project_groups", { params: { projectId } });
  const [deleted, setDeleted] = useState<{ projectId: string; name: string } | null>(null);
  const [search, setSearch] = useState("");
  const todos = useTodoFeed(projectId, search);
  const proposed = useTodoFeed(projectId, "proposed");
  const selection = useTodoSelection();

  const project: ProjectState =
    deleted?.projectId === projectId
      ? { phase: "deleted", name: deleted.name }
      : projectRead.error?.status === 404
        ? { phase: "not-found" }
        : projectRead.data
          ? { phase: "ready", project: projectRead.data }
          : projectRead.error
            ? { phase: "error", message: errorMessage(projectRead.error) }
            : { phase: "loading" };
  const groups: GroupsState = groupsRead.data
    ? { phase: "ready", list: [...groupsRead.data].sort(byPosition) }
    : groupsRead.error
      ? { phase: "error", message: errorMessage(groupsRead.error) }
      : { phase: "loading" };

  const { mutate: mutateProject } = projectRead;
  const { mutate: mutateGroups } = groupsRead;
  const retry = () => {
    void mutateProject();
    void mutateGroups();
  };

  // Group counts change with todos; several events in a row need one reload.
  const reloadGroups = useCallback(() => void mutateGroups(), [mutateGroups]);
  const coalescedGroups = useCoalesced(reloadGroups, 150);
  const scheduleGroups = useCallback(() => {
    void dropInFlight(mutateGroups); // what is in flight now may predate the change
    coalescedGroups();
  }, [mutateGroups, coalescedGroups]);
  const putGroup = useCallback((group: TTodoGroup) => void mutateGroups((list) => withGroup(list, group), { revalidate: false }), [mutateGroups]);

  const { upsert: upsertMain, setStatus: statusMain, remove: removeMain, refresh: refreshMain } = todos;
  const { upsert: upsertProposed, setStatus: statusProposed, remove: removeProposed, refresh: refreshProposed } = proposed;
  const upsert = useCallback(
    (item: TTodoListItem) => {
      upsertMain(item);
      upsertProposed(item);
    },
    [upsertMain, upsertProposed],
  );
  const remove = useCallback(
    (id: string) => {
      removeMain(id);
      removeProposed(id);
    },
    [removeMain, removeProposed],
  );
  const patchStatus = useCallback(
    (id: string, status: TTodoStatus) => {
      statusMain(id, status);
      statusProposed(id, status);
    },
    [statusMain, statusProposed],
  );

  // Refetches one todo (its status, lastActivityAt) after an event; one request per todo at a time.
  const refetchTodo = useCallback(
    (id: string) => {
      refreshOperation("todo_get", { params: { todoId: id }, query: { messageLimit: 1 } }).then(
        (todo) => upsert(toListItem(todo)),
        (err: unknown) => {
          if (err instanceof ApiClientError && err.status === 404) remove(id);
        },
      );
    },
    [upsert, remove],
  );

  const onEvent = useCallback(
    (event: RealtimeEvent) => {
      const data = (event.data ?? {}) as Record<string, unknown>;
      if (eventProjectId(event) !== projectId) return;
      switch (event.type) {
        case "todo.created":
        case "todo.updated":
          if (data.id) upsert(data as unknown as TTodoListItem);
          scheduleGroups();
          break;
        case "todo.status":
          if (event.todoId) {
            if (typeof data.status === "string") patchStatus(event.todoId, data.status as TTodoStatus);
            refetchTodo(event.todoId);
          }
          break;
        case "message.created":
          // A new message moves the todo's last activity.
          if (event.todoId) refetchTodo(event.todoId);
          break;
        case "todo.deleted":
          if (event.todoId) remove(event.todoId);
          scheduleGroups();
          break;
        case "project.updated":
          if (data.action === "updated" && data.project) {
            const next = data.project as TProjectFull;
            // The event's `role` is the writer's; keep the reader's own.
            void mutateProject((prev) => prev && { ...prev, name: next.name, description: next.description, isPublic: next.isPublic }, { revalidate: false });
          } else if (data.action === "group" && data.group) {
            const group = data.group as TTodoGroup;
            void mutateGroups((list) => list && withGroup(list, group), { revalidate: false });
            scheduleGroups();
          } else if (isAccessChange(event)) {
            // Maybe the reader's: a reader who lost access gets the 404 page.
            void mutateProject();
          }
          break;
        case "project.deleted":
          void dropInFlight(mutateProject);
          setDeleted({ projectId, name: projectRead.data?.name ?? "This project" });
          break;
      }
    },
    [projectId, projectRead.data, upsert, remove, patchStatus, refetchTodo, scheduleGroups, mutateProject, mutateGroups],
  );

  // After each (re)subscription, reload what may have been missed meanwhile.
  const onSubscribed = useCallback(() => {
    void mutateProject();
    void mutateGroups();
    refreshMain();
    refreshProposed();
  }, [mutateProject, mutateGroups, refreshMain, refreshProposed]);

  const live = useRealtime(project.phase === "ready" ? { kind: "project", id: projectId } : null, onEvent, onSubscribed);

  // The window's title names the project.
  const projectName = project.phase === "ready" ? project.project.name : null;
  useEffect(() => {
    if (projectName) document.title = `${projectName} · Todo Service`;
  }, [projectName]);

  if (project.phase === "loading") {
    return <Loading label="Loading project…" lines={6} />;
  }
  if (project.phase === "not-found") return <ProjectNotFound />;
  if (project.phase === "deleted") {
    return (
      <ProjectGone id="deleted-heading" title="Project deleted">
        “{project.name}” was deleted, with all its todos.
      </ProjectGone>
    );
  }
  if (project.phase === "error") {
    return (
      <section className="card" aria-labelledby="error-heading">
        <h1 id="error-heading">Could not load the project</h1>
        <p className="error" role="alert">
          {project.message}
        </p>
        <button type="button" className="secondary" onClick={retry}>
          Try again
        </button>
      </section>
    );
  }

  const p = project.project;
  const canWrite = p.role !== "viewer";
  const selectKey = (id: string) => (selection.selecting ? selection.toggle(id, false, []) : selection.setSelecting(true, id));
  const groupList = groups.phase === "ready" ? groups.list : [];
  const onGroupChanged = putGroup;

  return (
    <div className="project-view">
      <ListShortcuts onSelect={canWrite ? selectKey : undefined} />
      <ProjectHeader
        key={p.id}
        project={p}
        live={live}
        onRenamed={(name) => void mutateProject({ ...p, name }, { revalidate: false })}
        onDeleted={() => {
          void refreshProjects();
          router.push("/");
        }}
      />

      {canWrite ? (
        <NewTodoForm
          projectId={p.id}
          groups={groupList}
          onCreated={(todo) => {
            upsert(toListItem(todo));
            scheduleGroups();
          }}
        />
      ) : (
        <p className="muted note">You can read this project; only its owner and editors can change it.</p>
      )}

      {!search ? <ProposedSection feed={proposed} canWrite={canWrite} onChanged={refetchTodo} /> : null}

      <section aria-labelledby="todos-heading" className="todos">
        <div className="todos-head">
          <h2 id="todos-heading">Todos</h2>
          <span className="todos-tools">
            {canWrite ? (
              <button type="button" className="secondary" aria-pressed={selection.selecting} onClick={() => selection.setSelecting(!selection.selecting)} title="Choose several todos to start, mark done, move or delete at once (x)">
                Select
              </button>
            ) : null}
            <SearchBox onSearch={setSearch} />
          </span>
        </div>
        <TodoBoard
          projectId={p.id}
          canWrite={canWrite}
          groups={groups}
          feed={todos}
          proposed={proposed}
          search={search}
          selection={canWrite ? selection : undefined}
          onChanged={(id) => {
            refetchTodo(id);
            scheduleGroups();
          }}
          onGroupChanged={onGroupChanged}
          onRemoved={(id) => {
            remove(id);
            scheduleGroups();
          }}
        />
        {canWrite ? (
          <details className="add-group">
            <summary>Add a group</summary>
            <NewGroupForm projectId={p.id} groups={groupList} onCreated={onGroupChanged} />
          </details>
        ) : null}
      </section>
    </div>
  );
}
