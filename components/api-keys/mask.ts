/** The key as lists show it: prefix, dots, last four characters (the API sends `tsk_…abcd`). */
export function maskedKey(key: string): string {
  return `tsk_${"•".repeat(8)}${key.slice(-4)}`;
}

export function formatDate(ms: number): string {
  return new Date(ms).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}
