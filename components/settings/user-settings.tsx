"use client";

import { useOperation } from "@/lib/api/swr";
import { LoadError, Loading } from "@/components/ui/load-state";
import { DeleteAccount, ExportData } from "./account-data";
import { BillingInfoForm } from "./billing-info-form";
import { DefaultProjectForm } from "./default-project-form";
import { PreferencesForm } from "./preferences-form";
import { ProfileCard } from "./profile-card";

export function UserSettings() {
  // The same cache entries as the shell's sidebar: one request each, shared.
  const profile = useOperation("user_profile", {});
  const projects = useOperation("project_list", {});
  const error = profile.error ?? projects.error;
  const retry = () => void Promise.all([profile.mutate(), projects.mutate()]);
  if (profile.data && projects.data) {
    return (
      <>
        <ProfileCard profile={profile.data} />
        <PreferencesForm initial={profile.data.settings} />
        <DefaultProjectForm projects={projects.data} initial={profile.data.defaultProjectId} />
        <BillingInfoForm />
        <ExportData />
        <DeleteAccount email={profile.data.email} />
      </>
    );
  }
  if (error && !profile.isValidating && !projects.isValidating) return <LoadError what="your settings" message={error.message} onRetry={retry} />;
  return <Loading label="Loading your settings…" />;
}
