"use client";

import Link from "next/link";
import { useCallback, useEffect, useReducer, useRef, useState, type ReactNode } from "react";
import { useRouter } from "next/navigation";
import { ApiClientError, call } from "@/lib/api/client";
import { useRealtime, type RealtimeEvent } from "@/lib/realtime-client";
import type { TProjectFull } from "@/lib/schemas/projects";
import type { TTodoGroup } from "@/lib/schemas/groups";
import type { TTodoListItem, TTodoStatus } from "@/lib/schemas/todos";
import { errorMessage } from "@/lib/ui/form-issues";
import { useCoalesced } from "@/lib/ui/use-coalesced";
import { useShell } from "@/components/shell/shell-context";
import { NewGroupForm } from "./new-group-form";
import { NewTodoForm } from "./new-todo-form";
import { ProjectHeader } from "./project-header";
import { ListShortcuts } from "./shortcuts";
import { Loading } from "@/components/ui/load-state";
import { ProposedSection, SearchBox, TodoBoard, type GroupsState } from "./todo-board";
import { toListItem, useTodoFeed } from "./use-todo-feed";

/** The page of a project that is not there (any more), with the way back. */
function ProjectGone({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section className="card empty-state" aria-labelledby={id}>
      <h1 id={id}>{title}</h1>
      <p>{children}</p>
      <p>
        <Link href="/">Go to your projects</Link>
      </p>
    </section>
  );
}

type ProjectState =
  | { phase: "loading" }
  | { phase: "ready"; project: TProjectFull }
  | { phase: "not-found" }
  | { phase: "deleted"; name: string }
  | { phase: "error"; message: string };

function byPosition(a: TTodoGroup, b: TTodoGroup): number {
  return a.position - b.position || a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1);
}

export function ProjectView({ projectId }: { projectId: string }) {
  const router = useRouter();
  const { refreshProjects } = useShell();
  const [project, setProject] = useState<ProjectState>({ phase: "loading" });
  const [groups, setGroups] = useState<GroupsState>({ phase: "loading" });
  const [search, setSearch] = useState("");
  const [attempt, retry] = useReducer((n: number) => n + 1, 0);
  const todos = useTodoFeed(projectId, search);
  const proposed = useTodoFeed(projectId, "proposed");

  // Only the latest load applies: one that left before a live event could carry older data.
  const projectGen = useRef(0);
  const groupsGen = useRef(0);

  const loadProject = useCallback(async () => {
    const mine = ++projectGen.current;
    try {
      const p = await call("project_get", { params: { projectId } });
      if (mine === projectGen.current) setProject((prev) => (prev.phase === "deleted" ? prev : { phase: "ready", project: p }));
    } catch (err) {
      if (mine !== projectGen.current) return;
      if (err instanceof ApiClientError && err.status === 404) setProject((prev) => (prev.phase === "deleted" ? prev : { phase: "not-found" }));
      else setProject((prev) => (prev.phase === "ready" ? prev : { phase: "error", message: errorMessage(err) }));
    }
  }, [projectId]);

  const loadGroups = useCallback(async () => {
    const mine = ++groupsGen.current;
    try {
      const list = await call("project_groups", { params: { projectId } });
      if (mine === groupsGen.current) setGroups({ phase: "ready", list: [...list].sort(byPosition) });
    } catch (err) {
      if (mine === groupsGen.current) setGroups((prev) => (prev.phase === "ready" ? prev : { phase: "error", message: errorMessage(err) }));
    }
  }, [projectId]);

  useEffect(() => {
    void loadProject();
    void loadGroups();
  }, [loadProject, loadGroups, attempt]);

  // Group counts change with todos; several events in a row need one reload.
  const reloadGroups = useCallback(() => void loadGroups(), [loadGroups]);
  const coalescedGroups = useCoalesced(reloadGroups, 150);
  const scheduleGroups = useCallback(() => {
    groupsGen.current++; // what is in flight now may predate the change
    coalescedGroups();
  }, [coalescedGroups]);

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
  const inflight = useRef(new Map<string, boolean>());
  const refetchTodo = useCallback(
    function refetch(id: string) {
      if (inflight.current.has(id)) {
        inflight.current.set(id, true);
        return;
      }
      inflight.current.set(id, false);
      call("todo_get", { params: { todoId: id }, query: { messageLimit: 1 } })
        .then((todo) => upsert(toListItem(todo)))
        .catch((err: unknown) => {
          if (err instanceof ApiClientError && err.status === 404) remove(id);
        })
        .finally(() => {
          const again = inflight.current.get(id);
          inflight.current.delete(id);
          if (again) refetch(id);
        });
    },
    [upsert, remove],
  );

  const onEvent = useCallback(
    (event: RealtimeEvent) => {
      if (event.projectId !== projectId) return;
      const data = (event.data ?? {}) as Record<string, unknown>;
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
            setProject((prev) =>
              prev.phase === "ready" ? { phase: "ready", project: { ...prev.project, name: next.name, description: next.description, isPublic: next.isPublic } } : prev,
            );
            projectGen.current++;
          } else if (data.action === "group" && data.group) {
            const group = data.group as TTodoGroup;
            setGroups((prev) => (prev.phase === "ready" ? { phase: "ready", list: [...prev.list.filter((g) => g.id !== group.id), group].sort(byPosition) } : prev));
            scheduleGroups();
          }
          break;
        case "project.deleted":
          projectGen.current++;
          setProject((prev) => ({ phase: "deleted", name: prev.phase === "ready" ? prev.project.name : "This project" }));
          break;
      }
    },
    [projectId, upsert, remove, patchStatus, refetchTodo, scheduleGroups],
  );

  // After each (re)subscription, reload what may have been missed meanwhile.
  const onSubscribed = useCallback(() => {
    void loadProject();
    void loadGroups();
    refreshMain();
    refreshProposed();
  }, [loadProject, loadGroups, refreshMain, refreshProposed]);

  const live = useRealtime(project.phase === "ready" ? { kind: "project", id: projectId } : null, onEvent, onSubscribed);

  // The window's title names the project.
  const projectName = project.phase === "ready" ? project.project.name : null;
  useEffect(() => {
    if (projectName) document.title = `${projectName} · Todo Service`;
  }, [projectName]);

  if (project.phase === "loading") {
    return <Loading label="Loading project…" lines={6} />;
  }
  if (project.phase === "not-found") {
    return (
      <ProjectGone id="not-found-heading" title="Project not found">
        This project does not exist, or it has not been shared with you.
      </ProjectGone>
    );
  }
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
  const groupList = groups.phase === "ready" ? groups.list : [];
  const onGroupChanged = (group: TTodoGroup) => {
    groupsGen.current++;
    setGroups((prev) => (prev.phase === "ready" ? { phase: "ready", list: [...prev.list.filter((g) => g.id !== group.id), group].sort(byPosition) } : { phase: "ready", list: [group] }));
  };

  return (
    <div className="project-view">
      <ListShortcuts />
      <ProjectHeader
        key={p.id}
        project={p}
        live={live}
        onRenamed={(name) => {
          projectGen.current++;
          setProject({ phase: "ready", project: { ...p, name } });
        }}
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
          <SearchBox onSearch={setSearch} />
        </div>
        <TodoBoard
          projectId={p.id}
          canWrite={canWrite}
          groups={groups}
          feed={todos}
          search={search}
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
