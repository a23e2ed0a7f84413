"use client";

import { useId, useRef, useState, type FormEvent } from "react";
import { call } from "@/lib/api/client";
import { useLiveOperations, useOperation } from "@/lib/api/swr";
import { MAX_NOTE_CHARS, ZNoteCreateInput, ZNoteUpdateInput, type TMemoryNote } from "@/lib/schemas/search";
import { formatDateTime, formatRelative, truncate } from "@/lib/ui/format";
import { useMorePages } from "@/lib/ui/use-more-pages";
import { useShell } from "@/components/shell/shell-context";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { ErrorAlert } from "@/components/ui/error-alert";
import { Field, fieldAria, useForm } from "@/components/ui/form";
import { LoadMore } from "@/components/ui/load-more";
import { LoadError, Loading } from "@/components/ui/load-state";
import styles from "./settings.module.css";

const PERSONAL = "";

/** "12 / 4000", red past the limit: the note's length as the server counts it (trimmed). */
function Counter({ id, text }: { id: string; text: string }) {
  const n = text.trim().length;
  return (
    <span id={id} className={n > MAX_NOTE_CHARS ? "error" : "muted"} aria-live="polite">
      {n} / {MAX_NOTE_CHARS}
    </span>
  );
}

function NoteEditor({ note, onDone }: { note: TMemoryNote; onDone: (saved: boolean) => void }) {
  const id = useId();
  const [text, setText] = useState(note.content);
  const { busy, errors, alert, submit } = useForm();
  const save = (e: FormEvent<HTMLFormElement>) =>
    void submit(e, ZNoteUpdateInput.safeParse({ content: text }), async (body) => {
      await call("note_update", { params: { noteId: note.id }, body });
      onDone(true);
    });
  return (
    <form onSubmit={save} aria-label="Edit note" noValidate onKeyDown={(e) => e.key === "Escape" && onDone(false)}>
      <Field id={`${id}-text`} label="Note" error={errors.content} hint={<Counter id={`${id}-count`} text={text} />}>
        <textarea {...fieldAria(`${id}-text`, errors.content, true)} className={`${styles.control} ${styles.textarea}`} value={text} onChange={(e) => setText(e.target.value)} autoFocus />
      </Field>
      <ErrorAlert message={errors.content ? null : alert} />
      <div className="form-actions">
        <button type="submit" disabled={busy}>
          {busy ? "Saving…" : "Save"}
        </button>
        <button type="button" className="secondary" onClick={() => onDone(false)} disabled={busy}>
          Discard changes
        </button>
      </div>
    </form>
  );
}

function NewNote({ projectId, onAdded }: { projectId: string | null; onAdded: () => void }) {
  const id = useId();
  const [text, setText] = useState("");
  const ref = useRef<HTMLTextAreaElement>(null);
  const { busy, errors, alert, status, submit, edited } = useForm();
  const add = (e: FormEvent<HTMLFormElement>) =>
    void submit(e, ZNoteCreateInput.safeParse({ content: text, projectId }), async (body) => {
      await call("note_create", { body });
      setText("");
      onAdded();
      ref.current?.focus();
    });
  return (
    <form onSubmit={add} aria-label="New note" noValidate>
      <Field id={`${id}-text`} label="New note" error={errors.content} hint={<Counter id={`${id}-count`} text={text} />}>
        <textarea
          ref={ref}
          {...fieldAria(`${id}-text`, errors.content, true)}
          className={`${styles.control} ${styles.textarea}`}
          value={text}
          placeholder={projectId ? "Something everyone on this project's todos should keep in mind" : "Something about you the agent should keep in mind"}
          onChange={(e) => {
            setText(e.target.value);
            edited();
          }}
        />
      </Field>
      <ErrorAlert message={errors.content ? null : alert} />
      <div className="form-actions">
        <button type="submit" disabled={busy}>
          {busy ? "Saving…" : "Save note"}
        </button>
        <span role="status" className="success">
          {status === "saved" ? "Saved" : ""}
        </span>
      </div>
    </form>
  );
}

/**
 * Settings → Memory: what the agent remembers (note_*). Personal notes are the user's alone; a
 * project's notes are shared by everyone on it (a viewer reads them). Newest change first, a page
 * at a time; add, edit, delete after confirming. Live: changes made elsewhere show without a reload.
 */
export function MemoryNotes() {
  const { projects } = useShell();
  const [chosen, setScope] = useState(PERSONAL);
  const list = projects.phase === "ready" ? projects.list : [];
  // A project deleted (or access lost) elsewhere: back to personal notes.
  const scope = chosen !== PERSONAL && projects.phase === "ready" && !list.some((p) => p.id === chosen) ? PERSONAL : chosen;
  const projectId = scope === PERSONAL ? null : scope;
  const project = projectId ? list.find((p) => p.id === projectId) : undefined;
  const canWrite = !projectId || (project !== undefined && project.role !== "viewer");
  const query = projectId ? { projectId } : {};
  const notes = useOperation("note_list", { query });
  // Live: a note the agent remembers, or one written in another tab or by the CLI, arrives as a
  // `note.*` event (to the user's own connections; a project's also to its members').
  useLiveOperations((e) => (e.type === "note.created" || e.type === "note.updated" || e.type === "note.deleted" ? ["note_list"] : []), ["note_list"]);
  const more = useMorePages(notes.data, (cursor) => call("note_list", { query: { ...query, cursor } }));
  const [editing, setEditing] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<TMemoryNote | null>(null);
  const selectId = useId();

  const refresh = () => void notes.mutate();
  return (
    <>
      <section className="card" aria-labelledby="memory-heading">
        <h2 id="memory-heading" className={styles.sectionTitle}>
          What the agent remembers
        </h2>
        <p className="muted">
          The agent saves a note when you ask it to remember something, and reads the notes that fit when it answers. Personal notes are yours alone; a project&apos;s notes serve everyone on the project.
        </p>
        <div className={styles.field}>
          <label htmlFor={selectId}>Notes of</label>
          <select id={selectId} className={styles.control} value={scope} onChange={(e) => setScope(e.target.value)}>
            <option value={PERSONAL}>You (personal)</option>
            {list.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
                {p.role === "viewer" ? " (read only)" : ""}
              </option>
            ))}
          </select>
        </div>
        {canWrite ? <NewNote key={scope} projectId={projectId} onAdded={refresh} /> : <p className="muted">You can read this project&apos;s notes; its owner and editors change them.</p>}
      </section>

      <section className="card" aria-labelledby="notes-heading" aria-busy={!notes.data && !notes.error}>
        <h2 id="notes-heading" className={styles.sectionTitle}>
          {project ? `${project.name}: notes` : "Your personal notes"}
        </h2>
        {notes.error ? (
          <LoadError what="the notes" message={notes.error.message} onRetry={refresh} inline />
        ) : !notes.data ? (
          <Loading label="Loading the notes…" inline />
        ) : more.items.length === 0 ? (
          <p className="muted" data-testid="notes-empty">
            No notes yet. Tell the agent &ldquo;remember that …&rdquo; in any todo, or write one above.
          </p>
        ) : (
          <ul className={`plain ${styles.notes}`} data-testid="notes">
            {more.items.map((note) => {
              const label = truncate(note.content, 60);
              return (
                <li key={note.id} className={styles.note} data-testid="note">
                  {editing === note.id ? (
                    <NoteEditor
                      note={note}
                      onDone={(saved) => {
                        setEditing(null);
                        if (saved) refresh();
                      }}
                    />
                  ) : (
                    <>
                      <p className={styles.noteText}>{note.content}</p>
                      <p className={styles.noteMeta}>
                        <time dateTime={new Date(note.updatedAt).toISOString()} title={formatDateTime(note.updatedAt)} suppressHydrationWarning>
                          {note.updatedAt > note.createdAt ? "edited " : ""}
                          {formatRelative(note.updatedAt)}
                        </time>
                        {canWrite ? (
                          <>
                            <button type="button" className="link-button" onClick={() => setEditing(note.id)} aria-label={`Edit note: ${label}`}>
                              Edit
                            </button>
                            <button type="button" className="link-button" onClick={() => setDeleting(note)} aria-label={`Delete note: ${label}`}>
                              Delete
                            </button>
                          </>
                        ) : null}
                      </p>
                    </>
                  )}
                </li>
              );
            })}
          </ul>
        )}
        <LoadMore more={more} label="Load older notes" />
      </section>
      <ConfirmDialog
        open={deleting !== null}
        title="Delete this note?"
        description={deleting ? `“${truncate(deleting.content, 120)}” is deleted permanently; the agent no longer recalls it.` : ""}
        confirmLabel="Delete note"
        busyLabel="Deleting…"
        onConfirm={async () => {
          if (!deleting) return;
          await call("note_delete", { params: { noteId: deleting.id }, body: { noteId: deleting.id } });
          refresh();
        }}
        onClose={() => setDeleting(null)}
      />
    </>
  );
}
