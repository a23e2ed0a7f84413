"use client";

import { useEffect, useRef, useState } from "react";
import type { TApiKey } from "@/lib/schemas/api-keys";
import styles from "./api-keys.module.css";

type CopyState = "idle" | "copied" | "selected";

/** The one time a key is shown in full: copy it, then dismiss; only the masked form remains. */
export function NewKeyPanel({ apiKey, onDismiss }: { apiKey: TApiKey; onDismiss: () => void }) {
  const [copy, setCopy] = useState<CopyState>("idle");
  const headingRef = useRef<HTMLHeadingElement>(null);
  const inputRef = useRef<HTMLTextAreaElement>(null);

  useEffect(() => headingRef.current?.focus(), []);

  function selectKey() {
    inputRef.current?.focus();
    inputRef.current?.select();
  }

  async function onCopy() {
    try {
      if (!navigator.clipboard?.writeText) throw new Error("no clipboard");
      await navigator.clipboard.writeText(apiKey.key);
      setCopy("copied");
    } catch {
      // No clipboard access (permission, insecure origin): select the text so the user can copy it.
      selectKey();
      let copied = false;
      try {
        copied = document.execCommand("copy");
      } catch {
        copied = false;
      }
      setCopy(copied ? "copied" : "selected");
    }
  }

  return (
    <section className={styles.newKey} aria-labelledby="new-key-heading" data-testid="new-key-panel">
      <h2 id="new-key-heading" ref={headingRef} tabIndex={-1} className={styles.newKeyTitle}>
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
        <button type="button" onClick={onCopy}>
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
