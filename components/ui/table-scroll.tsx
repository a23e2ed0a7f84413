import type { ReactNode } from "react";
import styles from "./ui.module.css";

/**
 * A wide table scrolls sideways inside its card, so a phone never scrolls the whole page. The
 * region is focusable (and named) so a keyboard can scroll it too.
 */
export function TableScroll({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className={styles.tableScroll} role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}
