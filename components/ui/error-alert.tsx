/** A form's or a section's error paragraph, announced when it appears; nothing when there is no error. */
export function ErrorAlert({ message, className }: { message: string | null; className?: string }) {
  if (!message) return null;
  return (
    <p className={className ? `error ${className}` : "error"} role="alert">
      {message}
    </p>
  );
}
