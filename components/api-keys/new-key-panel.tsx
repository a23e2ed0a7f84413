"use client";

import { useEffect, useRef } from "react";
import type { TApiKey } from "@/lib/schemas/api-keys";
import { useCopyText } from "@/lib/ui/use-copy-text";
import settingsStyles from "@/components/settings/settings.module.css";
import styles from "./api-keys.module.css";

/** The one time a key is shown in full: copy it, then dismiss; only the masked form remains. */
export function NewKeyPanel({ apiKey, onDismiss }: { apiKey: TApiKey; onDismiss: () => void }) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  const { ref: inputRef, state: copy, copy: copyText } = useCopyText<HTMLTextAreaElement>();

  useEffect(() => headingRef.current?.focus(), []);

  return (
    <section className={styles.newKey} aria-labelledby="new-key-heading" data-testid="new-key-panel">
      <h2 id="new-key-heading" ref={headingRef} tabIndex={-1} className={settingsStyles.sectionTitle}>
        Your new API key “{apiKey.name}”
      </h2>
      <p className={styles.warning}>
        <strong>Copy it now.</strong> This is the only time the full key is shown. After you leave or reload this page you will only see its last four
        characters.
      </p>
      <label htmlFor="new-key-value">Full API key</label>
      <div className={styles.keyRow}>
        {/* A textarea so the whole key wraps into view on a narrow screen. */}
        <textarea
          id="new-key-value"
          ref={inputRef}
          className={styles.keyValue}
          rows={1}
          readOnly
          value={apiKey.key}
          spellCheck={false}
          onFocus={(e) => e.target.select()}
          data-testid="new-key-value"
        />
        <button type="button" onClick={() => void copyText(apiKey.key)}>
          Copy
        </button>
      </div>
      <p role="status" className={styles.copyStatus}>
        {copy === "copied" ? "Copied" : copy === "selected" ? "Selected: press Ctrl+C (⌘C on a Mac) to copy" : ""}
      </p>
      <button type="button" className="secondary" onClick={onDismiss}>
        Done, I have stored it
      </button>
    </section>
  );
}
