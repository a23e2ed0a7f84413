"use client";

import { useMemo, useState, type FormEvent } from "react";
import { call } from "@/lib/api/client";
import { ZUserSettingsUpdateInput, type TAppSettings } from "@/lib/schemas/settings";
import { applyTheme } from "@/lib/ui/theme";
import { AgentSettingsFields, agentFormFrom, agentSettingsFromForm, type AgentForm } from "./agent-settings-fields";
import { Field, SaveBar, Section, fieldAria, useForm } from "@/components/ui/form";
import styles from "./settings.module.css";

type Form = { theme: string; timezone: string; locale: string; emailNotifications: boolean; defaultAgent: AgentForm };

function formFrom(s: TAppSettings): Form {
  return { theme: s.theme, timezone: s.timezone, locale: s.locale, emailNotifications: s.emailNotifications, defaultAgent: agentFormFrom(s.defaultAgent) };
}

/** settings_getUserSettings / settings_updateUserSettings: everything AppSettings holds. */
export function PreferencesForm({ initial }: { initial: TAppSettings }) {
  const [form, setForm] = useState<Form>(() => formFrom(initial));
  const [updatedAt, setUpdatedAt] = useState(initial.updatedAt);
  const { status, errors, alert, submit, edited } = useForm();
  const timeZones = useMemo(() => (typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : []), []);

  function change(patch: Partial<Form>) {
    edited();
    setForm((f) => ({ ...f, ...patch }));
  }

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    const parsed = ZUserSettingsUpdateInput.safeParse({ ...form, defaultAgent: agentSettingsFromForm(form.defaultAgent) });
    await submit(e, parsed, async (body) => {
      await call("settings_updateUserSettings", { body });
      // Read back what was stored (time zone and locale in their canonical spelling).
      const saved = await call("settings_getUserSettings");
      setForm(formFrom(saved));
      setUpdatedAt(saved.updatedAt);
      // The new theme shows at once, here and on every page after (lib/ui/theme.ts).
      applyTheme(saved.theme, saved.updatedAt);
    });
  }

  return (
    <Section id="preferences" title="Preferences" description="How the app looks and behaves for you, and the agent new todos use unless a project says otherwise.">
      <form onSubmit={onSubmit} noValidate>
        <div className={styles.grid}>
          <Field id="pref-theme" label="Theme" error={errors.theme}>
            <select className={styles.control} value={form.theme} onChange={(e) => change({ theme: e.target.value })} {...fieldAria("pref-theme", errors.theme)}>
              <option value="system">Same as the system</option>
              <option value="light">Light</option>
              <option value="dark">Dark</option>
            </select>
          </Field>
          <Field id="pref-timezone" label="Time zone" error={errors.timezone} hint="IANA name, e.g. Europe/Berlin">
            <input
              type="text"
              className={styles.control}
              list="pref-timezones"
              autoComplete="off"
              value={form.timezone}
              onChange={(e) => change({ timezone: e.target.value })}
              {...fieldAria("pref-timezone", errors.timezone, true)}
            />
            <datalist id="pref-timezones">
              {timeZones.map((z) => (
                <option key={z} value={z} />
              ))}
            </datalist>
          </Field>
          <Field id="pref-locale" label="Language and region" error={errors.locale} hint="BCP 47 tag, e.g. en or de-CH">
            <input type="text" className={styles.control} value={form.locale} onChange={(e) => change({ locale: e.target.value })} {...fieldAria("pref-locale", errors.locale, true)} />
          </Field>
        </div>
        <div className={styles.field}>
          <label className={styles.checkbox} htmlFor="pref-email">
            <input id="pref-email" type="checkbox" checked={form.emailNotifications} onChange={(e) => change({ emailNotifications: e.target.checked })} aria-describedby="pref-email-hint" />
            Email notifications
          </label>
          <p className={styles.hint} id="pref-email-hint">
            A mail when an agent replies to one of your todos, stops with an error, or waits for you to approve a command, while you have no page of the app open (a minute later; several replies close together make one mail).
          </p>
        </div>
        <AgentSettingsFields
          idPrefix="pref-agent"
          legend="Default agent"
          value={form.defaultAgent}
          onChange={(defaultAgent) => change({ defaultAgent })}
          errors={errors}
          errorPath="defaultAgent"
        />
        <SaveBar status={status} alert={alert} label="Save preferences" />
        {updatedAt ? <p className={styles.hint}>Last changed {new Date(updatedAt).toLocaleString()}</p> : null}
      </form>
    </Section>
  );
}
