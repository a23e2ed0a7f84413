"use client";

/** The text box of an inline rename (a project, a group): focused when it opens, Escape cancels. */
export function RenameInput({ id, value, onChange, onCancel, invalid }: { id: string; value: string; onChange: (value: string) => void; onCancel: () => void; invalid: boolean }) {
  return (
    <input
      id={id}
      type="text"
      value={value}
      onChange={(e) => onChange(e.target.value)}
      autoFocus
      onKeyDown={(e) => e.key === "Escape" && onCancel()}
      aria-invalid={invalid ? true : undefined}
    />
  );
}
