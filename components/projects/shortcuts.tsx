"use client";

import { useEffect, useRef, useState } from "react";
import { useModalDialog } from "@/lib/ui/use-modal-dialog";

// Keyboard use of a project's todo list, as in the task apps people know: j/k move between todos,
// Enter opens the one in focus (it is a link), c starts a new todo, ? lists the shortcuts.

export const SHORTCUTS: readonly [string, string][] = [
  ["j", "Next todo"],
  ["k", "Previous todo"],
  ["Enter", "Open the todo in focus"],
  ["x", "Select the todo in focus (Shift+click: a range)"],
  ["c", "New todo"],
  ["?", "Show these shortcuts"],
  ["Esc", "Close this list"],
];

/** Typing in a field, or a key with a modifier, is not a shortcut. */
function isTyping(e: KeyboardEvent): boolean {
  if (e.ctrlKey || e.metaKey || e.altKey) return true;
  const t = e.target as HTMLElement | null;
  return !!t && (t.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(t.tagName));
}

function moveFocus(step: 1 | -1) {
  const links = [...document.querySelectorAll<HTMLAnchorElement>('[data-testid="todo-row"] .todo-link')];
  if (links.length === 0) return;
  const current = links.findIndex((l) => l === document.activeElement || l.closest("li")?.contains(document.activeElement));
  const next = current === -1 ? (step === 1 ? 0 : links.length - 1) : Math.min(Math.max(current + step, 0), links.length - 1);
  links[next]!.focus();
  links[next]!.scrollIntoView({ block: "nearest" });
}

/** The list's shortcuts, and the "?" dialog that names them; `onSelect` takes x on a todo (writers). */
export function ListShortcuts({ onSelect }: { onSelect?(todoId: string): void } = {}) {
  const [open, setOpen] = useState(false);
  const dialog = useModalDialog(open);
  const select = useRef(onSelect);
  useEffect(() => {
    select.current = onSelect;
  });

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (isTyping(e)) return;
      if (e.key === "?") {
        e.preventDefault();
        setOpen((o) => !o);
      } else if (e.key === "j" || e.key === "k") {
        e.preventDefault();
        moveFocus(e.key === "j" ? 1 : -1);
      } else if (e.key === "x" && select.current) {
        const row = (document.activeElement as HTMLElement | null)?.closest<HTMLElement>('[data-testid="todo-row"]');
        const id = row?.dataset.todoId;
        if (id) {
          e.preventDefault();
          select.current(id);
        }
      } else if (e.key === "c") {
        const field = document.querySelector<HTMLTextAreaElement>('form[aria-label="Add a todo"] textarea');
        if (field) {
          e.preventDefault();
          field.focus();
        }
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);

  return (
    <dialog ref={dialog} className="shortcuts" aria-labelledby="shortcuts-title" onClose={() => setOpen(false)}>
      <h2 id="shortcuts-title">Keyboard shortcuts</h2>
      <dl>
        {SHORTCUTS.filter(([key]) => key !== "x" || onSelect).map(([key, what]) => (
          <div key={key}>
            <dt>
              <kbd>{key}</kbd>
            </dt>
            <dd>{what}</dd>
          </div>
        ))}
      </dl>
      <button type="button" className="secondary" onClick={() => setOpen(false)} autoFocus>
        Close
      </button>
    </dialog>
  );
}
