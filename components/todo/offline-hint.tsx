"use client";

import Link from "next/link";
import { useState } from "react";
import { localStore } from "@/lib/ui/local-store";
import styles from "./todo.module.css";

const KEY = "todo-service:hint:offline-agent";

const dismissed = () => localStore.get(KEY) === "1";

/**
 * Said once (until dismissed): the replies come from the built-in agent, which is deterministic and
 * offline, and where to connect a model. Shown by the chat when a reply came from it.
 */
export function OfflineAgentHint() {
  const [hidden, setHidden] = useState(() => typeof window === "undefined" || dismissed());
  if (hidden) return null;
  return (
    <aside className={styles.offlineHint} aria-label="About the built-in agent" data-testid="offline-hint">
      <p style={{ margin: 0 }}>
        These replies come from the <strong>built-in offline agent</strong>: it turns your lists into checklists and sketches next steps, but it is not a
        language model. To talk to a model, pick an OpenAI-compatible provider in <Link href="/settings#preferences">Settings</Link> or in the project&apos;s
        settings.
      </p>
      <button
        type="button"
        className="secondary"
        onClick={() => {
          localStore.set(KEY, "1");
          setHidden(true);
        }}
      >
        Got it
      </button>
    </aside>
  );
}
