"use client";

import { apiFetch } from "@/lib/api-client";
import type { TProjectFull } from "@/lib/schemas/projects";
import type { TUserProfileFull } from "@/lib/schemas/users";
import { BillingInfoForm } from "./billing-info-form";
import { DefaultProjectForm } from "./default-project-form";
import { LoadError, Loading, useLoad } from "./load-state";
import { PreferencesForm } from "./preferences-form";
import { ProfileCard } from "./profile-card";

async function loadAll() {
  const [profile, projects] = await Promise.all([apiFetch<TUserProfileFull>("/users/profile"), apiFetch<TProjectFull[]>("/projects")]);
  return { profile, projects };
}

export function UserSettings() {
  const [state, retry] = useLoad(loadAll);
  if (state.kind === "loading") return <Loading label="Loading your settings…" />;
  if (state.kind === "error") return <LoadError what="your settings" message={state.message} onRetry={retry} />;
  const { profile, projects } = state.data;
  return (
    <>
      <ProfileCard profile={profile} />
      <PreferencesForm initial={profile.settings} />
      <DefaultProjectForm projects={projects} initial={profile.defaultProjectId} />
      <BillingInfoForm />
    </>
  );
}
