"use client";

import { createContext, useCallback, useContext, useMemo, type ReactNode } from "react";
import { useLiveOperations, useOperation } from "@/lib/api/swr";
import type { TProjectFull } from "@/lib/schemas/projects";
import type { RealtimeEvent } from "@/lib/realtime-client";

export type ProjectsState = { phase: "loading" } | { phase: "error"; message: string } | { phase: "ready"; list: TProjectFull[] };

type Shell = {
  email: string;
  /** The signed-in user's id, once their profile has loaded. */
  userId: string | null;
  projects: ProjectsState;
  defaultProjectId: string | null;
  refreshProjects(): Promise<void>;
  setDefaultProjectId(id: string | null): void;
};

const ShellContext = createContext<Shell | null>(null);

/** The signed-in shell's shared state: the project list of the sidebar and the default project. */
export function useShell(): Shell {
  const shell = useContext(ShellContext);
  if (!shell) throw new Error("useShell outside <ShellProvider>");
  return shell;
}

/** Like useShell, but null outside the shell (components that may render without it). */
export function useOptionalShell(): Shell | null {
  return useContext(ShellContext);
}

/** project.* events that change the list: created, renamed, shared with this user, a team project gained or lost, deleted. */
function changesProjectList(event: RealtimeEvent): boolean {
  if (event.type === "project.deleted") return true;
  if (event.type !== "project.updated") return false;
  const action = (event.data as { action?: string } | null)?.action;
  return action === "created" || action === "updated" || action === "shared" || action === "team";
}

export function ShellProvider({ email, children }: { email: string; children: ReactNode }) {
  // The sidebar's list and the default project are read through the data layer, so a page that
  // reads them too shares the answer, and events keep them current.
  const list = useOperation("project_list", {});
  const profile = useOperation("user_profile", {});
  const { mutate: mutateList } = list;
  const { mutate: mutateProfile } = profile;

  const refreshProjects = useCallback(async () => {
    await mutateList();
  }, [mutateList]);
  const setDefaultProjectId = useCallback(
    (id: string | null) => void mutateProfile((p) => (p ? { ...p, defaultProjectId: id } : p), { revalidate: false }),
    [mutateProfile],
  );

  // Reconnecting reloads the list, since events may have been missed meanwhile.
  useLiveOperations((event) => (changesProjectList(event) ? ["project_list"] : []), ["project_list"]);

  const projects: ProjectsState = list.data
    ? { phase: "ready", list: list.data }
    : list.error
      ? { phase: "error", message: list.error.message }
      : { phase: "loading" };
  const defaultProjectId = profile.data?.defaultProjectId ?? null;
  const userId = profile.data?.id ?? null;
  const value = useMemo<Shell>(
    () => ({ email, userId, projects, defaultProjectId, refreshProjects, setDefaultProjectId }),
    // `projects` is rebuilt each render from the cached list; its parts are the dependencies.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [email, userId, list.data, list.error, defaultProjectId, refreshProjects, setDefaultProjectId],
  );
  return <ShellContext.Provider value={value}>{children}</ShellContext.Provider>;
}
