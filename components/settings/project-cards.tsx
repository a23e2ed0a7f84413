"use client";

import { useOperation } from "@/lib/api/swr";
import { Section } from "@/components/ui/form";
import { LoadError, Loading } from "@/components/ui/load-state";
import styles from "./settings.module.css";

/**
 * The project's renderer cards (project_cards): the HTML renderers the agent defined to show data
 * (its `show` tool), reused by name in later replies. Listed with their source; each reply keeps
 * the renderer it was shown with.
 */
export function ProjectCards({ projectId }: { projectId: string }) {
  const read = useOperation("project_cards", { params: { projectId } });
  const cards = read.data;
  return (
    <Section
      id="cards"
      title="Cards"
      description="Renderers the agent made to show data in this project's chats (a chart, a table), and reuses by name. Each reply keeps the card as it was when it was shown."
    >
      {!cards ? (
        read.error ? (
          <LoadError inline what="the cards" message={read.error.message} onRetry={() => void read.mutate()} />
        ) : (
          <Loading inline label="Loading cards…" lines={2} />
        )
      ) : cards.length === 0 ? (
        <p data-testid="cards-empty">No cards yet. Ask the agent to show something as a chart or a table, and the card it makes is listed here.</p>
      ) : (
        <ul className={styles.cardList} aria-label="Cards">
          {cards.map((card) => (
            <li key={card.id} className={styles.note} data-testid="card-item">
              <p className={styles.noteText}>
                <strong>{card.name}</strong>
                {card.description ? ` · ${card.description}` : null}
              </p>
              <p className={styles.noteMeta}>Made {new Date(card.createdAt).toLocaleString()}</p>
              <details>
                <summary>HTML ({card.html.length.toLocaleString()} characters)</summary>
                <pre className={styles.cardSource}>{card.html}</pre>
              </details>
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}
