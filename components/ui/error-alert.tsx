/** A form's or a section's error paragraph, announced when it appears; nothing when there is no error. */
export function ErrorAlert({ message, className }: { message: string | null; className?: string }) {
  if (!message) return null;
  return (
    <p className={className ? `error ${className}` : "error"} role="alert">
      {message}
    </p>
  );
}

/** What an action came to: a success (announced politely) or an error (announced at once). */
export type OutcomeState = { ok: boolean; text: string } | null;

/** The paragraph of an `OutcomeState`; nothing before the first action. */
export function Outcome({ out }: { out: OutcomeState }) {
  if (!out) return null;
  return (
    <p role={out.ok ? "status" : "alert"} className={out.ok ? "success" : "error"}>
      {out.text}
    </p>
  );
}
