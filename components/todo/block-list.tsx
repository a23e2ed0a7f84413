"use client";

import { useState } from "react";
import type { TBlock } from "@/lib/schemas/todos";
import { errorMessage } from "@/lib/ui/form-issues";
import styles from "./todo.module.css";
import { ShellBlock } from "./shell-block";
import { ShowBlock } from "./show-block";
import { SubTodos, ToolStep } from "./tool-step";
import { LinkTodos } from "./link-todos";

/** The readable text of a block's content: its `text` when it has one, else null. */
export function blockText(block: TBlock): string | null {
  const c = block.content;
  if (typeof c === "string") return c;
  if (c && typeof c === "object" && typeof (c as { text?: unknown }).text === "string") return (c as { text: string }).text;
  return null;
}

type Props = {
  blocks: TBlock[];
  projectId?: string;
  /** Absent: read-only (the public page). Resolves when the server agreed; rejects with the reason. */
  onCheck?: (block: TBlock, checked: boolean) => Promise<void>;
};

export function BlockList({ blocks, projectId, onCheck }: Props) {
  if (blocks.length === 0) return null;
  return (
    <ul className={styles.blocks} aria-label="Blocks">
      {blocks.map((block) => (
        <li key={block.blockId} data-testid="block" data-block-type={block.type}>
          {block.type === "tool_call" ? (
            <ToolStep block={block} projectId={projectId} />
          ) : block.type === "shell" ? (
            <ShellBlock block={block} editable={!!onCheck} />
          ) : block.type === "show" ? (
            <ShowBlock block={block} />
          ) : (
            <BlockView block={block} onCheck={onCheck} />
          )}
          {block.type === "tool_call" ? null : <SubTodos block={block} projectId={projectId} />}
          {block.type === "checklist_item" && onCheck && projectId ? <LinkTodos block={block} projectId={projectId} label={blockText(block) ?? "this item"} /> : null}
        </li>
      ))}
    </ul>
  );
}

function BlockView({ block, onCheck }: { block: TBlock; onCheck?: Props["onCheck"] }) {
  const [error, setError] = useState<string | null>(null);
  const text = blockText(block);
  if (block.type === "checklist_item" && block.actionable && onCheck) {
    const id = `block-${block.blockId}`;
    return (
      <>
        <label htmlFor={id} className={styles.check}>
          <input
            id={id}
            type="checkbox"
            checked={block.checked}
            onChange={(e) => {
              setError(null);
              onCheck(block, e.currentTarget.checked).catch((err: unknown) => setError(errorMessage(err)));
            }}
          />
          <span className={block.checked ? styles.checkedText : undefined}>{text ?? JSON.stringify(block.content)}</span>
        </label>
        {error ? (
          <p className="error" role="alert" style={{ margin: "0.2rem 0 0 1.7rem", fontSize: "0.85rem" }}>
            Could not update “{text ?? "item"}”: {error}
          </p>
        ) : null}
      </>
    );
  }
  if (block.type === "checklist_item") {
    return (
      <span className={styles.readonlyCheck}>
        <span className={styles.mark} role="img" aria-label={block.checked ? "Done:" : "Not done:"}>
          {block.checked ? "☑" : "☐"}
        </span>
        <span className={block.checked ? styles.checkedText : undefined}>{text ?? JSON.stringify(block.content)}</span>
      </span>
    );
  }
  return (
    <div>
      <span className="muted" style={{ fontSize: "0.8rem" }}>
        {block.type}
      </span>
      {text !== null ? <p className={styles.content}>{text}</p> : <pre className={styles.blockJson}>{JSON.stringify(block.content, null, 2)}</pre>}
    </div>
  );
}
