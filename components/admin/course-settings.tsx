"use client";

import { useState } from "react";
import { call } from "@/lib/api/client";
import type { OperationResult } from "@/lib/api/types";
import { ZCourseInput } from "@/lib/schemas/courses";
import { Field, SaveBar, fieldAria, useForm } from "@/components/ui/form";
import { fromLocalInput, toLocalInput } from "@/components/todo/form-validation";

// A course's settings on its console page: title, start, attendee code and until when, and the
// perk (when it opens, its credit, its description). admin_saveCourse replaces every field, so
// the form sends them all, as loaded and edited; an empty optional field clears it.

type Course = OperationResult<"admin_getCourse">;

const LABELS = {
  title: "Title",
  startsAt: "Starts",
  attendeeCode: "Attendee code",
  attendeeCodeEnd: "Code works until",
  perkOpensAt: "Perk opens",
  perkCreditCents: "Perk credit",
  perkDescription: "Perk description",
};

const timeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

function initial(c: Course) {
  return {
    title: c.title,
    startsAt: toLocalInput(c.startsAt),
    attendeeCode: c.attendeeCode ?? "",
    attendeeCodeEnd: c.attendeeCodeEnd === null ? "" : toLocalInput(c.attendeeCodeEnd),
    perkOpensAt: c.perkOpensAt === null ? "" : toLocalInput(c.perkOpensAt),
    perkCredit: (c.perkCreditCents / 100).toFixed(2),
    perkDescription: c.perkDescription,
  };
}

type Values = ReturnType<typeof initial>;

/** A `datetime-local` value as the API's instant: "" is null, anything unreadable NaN. */
const instant = (v: string) => (v === "" ? null : (fromLocalInput(v) ?? Number.NaN));

/** The form's own plain-words checks, before the schema (whose messages name types, not fields). */
function ownIssues(v: Values): string[] {
  const issues: string[] = [];
  if (v.title.trim() === "") issues.push(`${LABELS.title}: must not be empty`);
  if (v.startsAt === "") issues.push(`${LABELS.startsAt}: pick a date and time`);
  for (const k of ["startsAt", "attendeeCodeEnd", "perkOpensAt"] as const) if (Number.isNaN(instant(v[k]))) issues.push(`${LABELS[k]}: not a valid date and time`);
  if (v.perkCredit.trim() !== "" && !/^\d+(\.\d{1,2})?$/.test(v.perkCredit.trim())) issues.push(`${LABELS.perkCreditCents}: an amount in dollars, like 5 or 12.50`);
  if (v.attendeeCodeEnd !== "" && v.attendeeCode.trim() === "") issues.push(`${LABELS.attendeeCodeEnd}: set the attendee code too`);
  return issues;
}

export function CourseSettings({ slug, course, onSaved }: { slug: string; course: Course; onSaved: () => Promise<unknown> }) {
  const [v, setV] = useState<Values>(() => initial(course));
  const form = useForm({ labels: LABELS });

  const set = (k: keyof Values) => (e: React.ChangeEvent<HTMLInputElement>) => {
    setV((old) => ({ ...old, [k]: e.target.value }));
    form.edited();
  };

  async function save(e: React.FormEvent<HTMLFormElement>) {
    const own = ownIssues(v);
    if (own.length) {
      e.preventDefault();
      form.setAlert(own.join("; "));
      return;
    }
    const cents = v.perkCredit.trim() === "" ? 0 : Math.round(Number(v.perkCredit) * 100);
    const parsed = ZCourseInput.safeParse({
      title: v.title,
      startsAt: v.startsAt === "" ? undefined : instant(v.startsAt),
      attendeeCode: v.attendeeCode.trim() === "" ? null : v.attendeeCode,
      attendeeCodeEnd: instant(v.attendeeCodeEnd),
      perkOpensAt: instant(v.perkOpensAt),
      perkCreditCents: cents,
      perkDescription: v.perkDescription,
    });
    await form.submit(e, parsed, async (body) => {
      const saved = await call("admin_saveCourse", { params: { slug }, body });
      setV(initial(saved));
      await onSaved();
    });
  }

  const input = (k: keyof Values, type: string, extra: React.InputHTMLAttributes<HTMLInputElement> = {}, hint = false) => (
    <input {...fieldAria(`course-${k}`, undefined, hint)} type={type} value={v[k]} onChange={set(k)} {...extra} />
  );

  return (
    <form className="card" aria-labelledby="settings-h" onSubmit={(e) => void save(e)} noValidate>
      <h2 id="settings-h">Settings</h2>
      <p className="muted" id="settings-tz">
        Times are in your time zone ({timeZone()}); the mails give them in UTC.
      </p>
      <div className="field-row" style={{ alignItems: "flex-start" }}>
        <Field id="course-title" label={LABELS.title}>
          {input("title", "text", { required: true, maxLength: 200 })}
        </Field>
        <Field id="course-startsAt" label={LABELS.startsAt}>
          {input("startsAt", "datetime-local", { required: true })}
        </Field>
      </div>
      <div className="field-row" style={{ alignItems: "flex-start" }}>
        <Field id="course-attendeeCode" label={LABELS.attendeeCode} hint="The “attendee code” mail sends it; empty: none yet">
          {input("attendeeCode", "text", { maxLength: 100, autoComplete: "off" }, true)}
        </Field>
        <Field id="course-attendeeCodeEnd" label={LABELS.attendeeCodeEnd}>
          {input("attendeeCodeEnd", "datetime-local")}
        </Field>
      </div>
      <div className="field-row" style={{ alignItems: "flex-start" }}>
        <Field id="course-perkOpensAt" label={LABELS.perkOpensAt} hint="Granted by itself then to every signup with an account">
          {input("perkOpensAt", "datetime-local", {}, true)}
        </Field>
        <Field id="course-perkCredit" label={`${LABELS.perkCreditCents} (USD)`}>
          {input("perkCredit", "number", { min: 0, max: 10000, step: "0.01", inputMode: "decimal" })}
        </Field>
      </div>
      <Field id="course-perkDescription" label={LABELS.perkDescription}>
        {input("perkDescription", "text", { maxLength: 500 })}
      </Field>
      <SaveBar status={form.status} alert={form.alert} label="Save settings" />
    </form>
  );
}
