"use client";

import type { TApiKey } from "@/lib/schemas/api-keys";
import { formatDate, maskedKey } from "./mask";
import styles from "./api-keys.module.css";

type Props = { keys: TApiKey[]; busyName: string | null; onMakeDefault: (name: string) => void; onDelete: (name: string) => void };

export function KeyList({ keys, busyName, onMakeDefault, onDelete }: Props) {
  if (keys.length === 0) {
    return (
      <div className={styles.empty} data-testid="api-keys-empty">
        <p>
          <strong>No API keys yet</strong>
        </p>
        <p className="muted">Create one above to call the API from scripts and command-line tools.</p>
      </div>
    );
  }
  const hasDefault = keys.some((k) => k.isDefault);
  return (
    <>
      {hasDefault ? null : (
        <p className="muted" data-testid="no-default-key">
          None of your keys is the default. Make one the default, or tools that ask for “the default key” get a new one created.
        </p>
      )}
      <ul className={styles.list} data-testid="api-key-list">
        {keys.map((k) => (
          <li key={k.id} className={styles.item} aria-label={`API key ${k.name}`} data-testid="api-key-row">
            <div className={styles.itemMain}>
              <span className={styles.itemName}>{k.name}</span>
              {k.isDefault ? <span className={styles.badge}>Default</span> : null}
            </div>
            <code className={styles.masked} data-testid="api-key-masked">
              {maskedKey(k.key)}
            </code>
            <p className={styles.meta}>
              Created {formatDate(k.createdAt)} · {k.lastUsedAt ? `Last used ${formatDate(k.lastUsedAt)}` : "Never used"}
            </p>
            <div className={styles.itemActions}>
              {k.isDefault ? null : (
                <button type="button" className="secondary" disabled={busyName !== null} onClick={() => onMakeDefault(k.name)} aria-label={`Make default: ${k.name}`}>
                  Make default
                </button>
              )}
              <button type="button" className="secondary danger-outline" disabled={busyName !== null} onClick={() => onDelete(k.name)} aria-label={`Delete ${k.name}`}>
                Delete
              </button>
            </div>
          </li>
        ))}
      </ul>
    </>
  );
}
