"use client";

import { ErrorAlert, Outcome, type OutcomeState } from "@/components/ui/error-alert";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { ZCourseSlug } from "@/lib/schemas/courses";
import { fromLocalInput } from "@/components/todo/form-validation";
import { ApiClientError, call } from "@/lib/api/client";
import { useOperation } from "@/lib/api/swr";
import { useMorePages } from "@/lib/ui/use-more-pages";
import { LoadMore } from "@/components/ui/load-more";
import { LoadError, Loading } from "@/components/ui/load-state";
import { TableScroll } from "@/components/ui/table-scroll";
import { formatDateTime } from "@/lib/ui/format";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";

// /admin: every course with its counts, and a form that creates one.
export function CourseList() {
  const courses = useOperation("admin_listCourses", {});
  // A page of courses at a time (latest start first), older ones on demand.
  const more = useMorePages(courses.data, (cursor) => call("admin_listCourses", { query: { cursor } }));
  const router = useRouter();
  const [slug, setSlug] = useState("");
  const [title, setTitle] = useState("");
  const [startsAt, setStartsAt] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  // admin_saveCourse creates or *replaces*: a slug that is taken would silently wipe that
  // course's attendee code and perk. Creating here never replaces; the course's page edits it.
  async function create(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const id = slug.trim();
      const checked = ZCourseSlug.safeParse(id);
      if (!checked.success) throw new Error(`Slug ${checked.error.issues[0]?.message ?? "is not valid"} (e.g. spring-2027)`);
      if (title.trim() === "") throw new Error("Title: must not be empty");
      const when = fromLocalInput(startsAt);
      if (when === null) throw new Error("Starts: pick a date and time");
      const taken = await call("admin_getCourse", { params: { slug: id } }).then(
        () => true,
        (err: unknown) => {
          if (err instanceof ApiClientError && err.status === 404) return false;
          throw err;
        },
      );
      if (taken) throw new Error(`A course “${id}” exists already; open it from the list to change it.`);
      await call("admin_saveCourse", { params: { slug: id }, body: { title, startsAt: when } });
      await courses.mutate();
      router.push(`/admin/courses/${id}`);
    } catch (err) {
      setError(err instanceof ApiClientError || err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <h1>Courses</h1>
      {courses.error ? (
        <LoadError what="the courses" message={courses.error.message} onRetry={() => void courses.mutate()} />
      ) : !courses.data ? (
        <Loading label="Loading the courses…" />
      ) : courses.data.items.length === 0 ? (
        <p className="card muted">No course yet. Create the first one below.</p>
      ) : (
        <section className="card">
          <TableScroll label="Courses">
            <table data-testid="course-list">
              <thead>
                <tr>
                  <th scope="col">Course</th>
                  <th scope="col">Starts</th>
                  <th scope="col">Signups</th>
                  <th scope="col">With account</th>
                  <th scope="col">Coupons mailed</th>
                  <th scope="col">Redeemed</th>
                  <th scope="col">Perks</th>
                </tr>
              </thead>
              <tbody>
                {more.items.map((c) => (
                  <tr key={c.id}>
                    <td>
                      <Link href={`/admin/courses/${c.slug}`}>{c.title}</Link> <span className="muted">{c.slug}</span>
                    </td>
                    <td>{formatDateTime(c.startsAt)}</td>
                    <td>{c.stats.signups}</td>
                    <td>{c.stats.withAccount}</td>
                    <td>{c.stats.couponsMailed}</td>
                    <td>{c.stats.couponsRedeemed}</td>
                    <td>{c.stats.perksGranted}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
          <LoadMore more={more} label="Load more courses" />
        </section>
      )}
      <form className="card" onSubmit={(e) => void create(e)}>
        <h2>New course</h2>
        <div className="field-row">
          <div className="field">
            <label htmlFor="course-slug">Slug</label>
            <input id="course-slug" type="text" required value={slug} onChange={(e) => setSlug(e.target.value)} placeholder="spring-2027" />
          </div>
          <div className="field grow">
            <label htmlFor="course-title">Title</label>
            <input id="course-title" type="text" required value={title} onChange={(e) => setTitle(e.target.value)} />
          </div>
          <div className="field">
            <label htmlFor="course-start">Starts</label>
            <input id="course-start" type="datetime-local" required value={startsAt} onChange={(e) => setStartsAt(e.target.value)} />
          </div>
          <button type="submit" disabled={busy}>
            Create
          </button>
        </div>
        <ErrorAlert message={error} />
      </form>
      <AdminForm />
    </>
  );
}

/** Makes an existing account an administrator (or not, after a confirmation); logged in the admin log. */
function AdminForm() {
  const [email, setEmail] = useState("");
  const [out, setOut] = useState<OutcomeState>(null);
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  async function send(isAdmin: boolean) {
    setOut(null);
    setBusy(true);
    try {
      const r = await call("admin_setAdmin", { body: { email, isAdmin } });
      setOut({ ok: true, text: `${r.email} is ${r.isAdmin ? "now" : "no longer"} an administrator.` });
      setEmail("");
    } catch (err) {
      setOut({ ok: false, text: err instanceof ApiClientError || err instanceof Error ? err.message : String(err) });
    } finally {
      setBusy(false);
      setAsking(false);
    }
  }
  return (
    <form
      className="card"
      onSubmit={(e) => {
        e.preventDefault();
        void send(true);
      }}
    >
      <h2>Administrators</h2>
      <div className="field-row">
        <div className="field grow">
          <label htmlFor="admin-email">Account email</label>
          <input id="admin-email" type="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
        </div>
        <button type="submit" disabled={busy}>
          Make administrator
        </button>
        <button type="button" className="danger-outline" disabled={!email || busy} onClick={() => setAsking(true)}>
          Remove administrator
        </button>
      </div>
      {asking ? (
        <ConfirmDialog
          open
          title="Remove administrator?"
          description={`${email.trim()} can no longer use the course console or the administrators' API.`}
          confirmLabel="Yes, remove"
          busyLabel="Removing…"
          onConfirm={() => send(false)}
          onClose={() => setAsking(false)}
        />
      ) : null}
      <Outcome out={out} />
    </form>
  );
}
