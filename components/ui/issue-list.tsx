import styles from "./ui.module.css";

/** A chat form's validation issues (or the API's refusal), one a line, announced when they appear. */
export function IssueList({ issues }: { issues: string[] }) {
  if (issues.length === 0) return null;
  return (
    <ul className={`error ${styles.issues}`} role="alert">
      {issues.map((i) => (
        <li key={i}>{i}</li>
      ))}
    </ul>
  );
}
