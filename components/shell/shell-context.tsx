"use client";

import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { apiFetch } from "@/lib/api-client";
import type { TProjectFull } from "@/lib/schemas/projects";
import type { TUserProfileFull } from "@/lib/schemas/users";
import { errorMessage } from "@/lib/ui/form-issues";
import { useCoalesced } from "@/lib/ui/use-coalesced";
import type { RealtimeEvent } from "@/lib/realtime-client";
import { useSocketEvents } from "./use-socket-events";

export type ProjectsState = { phase: "loading" } | { phase: "error"; message: string } | { phase: "ready"; list: TProjectFull[] };

type Shell = {
  email: string;
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

/** project.* events that change the list: created, renamed, shared with this user, deleted. */
function changesProjectList(event: RealtimeEvent): boolean {
  if (event.type === "project.deleted") return true;
  if (event.type !== "project.updated") return false;
  const action = (event.data as { action?: string } | null)?.action;
  return action === "created" || action === "updated" || action === "shared";
}

export function ShellProvider({ email, children }: { email: string; children: ReactNode }) {
  const [projects, setProjects] = useState<ProjectsState>({ phase: "loading" });
  const [defaultProjectId, setDefaultProjectId] = useState<string | null>(null);
  const generation = useRef(0);

  const refreshProjects = useCallback(async () => {
    const mine = ++generation.current;
    try {
      const list = await apiFetch<TProjectFull[]>("/projects");
      if (mine === generation.current) setProjects({ phase: "ready", list });
    } catch (err) {
      if (mine === generation.current) setProjects((prev) => (prev.phase === "ready" ? prev : { phase: "error", message: errorMessage(err) }));
    }
  }, []);

  useEffect(() => {
    void refreshProjects();
    apiFetch<TUserProfileFull>("/users/profile")
      .then((profile) => setDefaultProjectId(profile.defaultProjectId))
      .catch(() => undefined);
  }, [refreshProjects]);

  // Several events often arrive together (rename + settings); one reload serves them all.
  const reload = useCallback(() => void refreshProjects(), [refreshProjects]);
  const scheduleRefresh = useCoalesced(reload, 50);

  useSocketEvents(
    (event) => {
      if (changesProjectList(event)) scheduleRefresh();
    },
    scheduleRefresh,
  );

  const value = useMemo<Shell>(
    () => ({ email, projects, defaultProjectId, refreshProjects, setDefaultProjectId }),
    [email, projects, defaultProjectId, refreshProjects],
  );
  return <ShellContext.Provider value={value}>{children}</ShellContext.Provider>;
}
