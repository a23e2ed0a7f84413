"use client";

import { useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import { useSearchParams } from "next/navigation";
import type { TBlock, TMessage } from "@/lib/schemas/todos";
import { LoadMoreButton } from "@/components/ui/load-more";
import { MessageItem } from "./message-item";
import styles from "./todo.module.css";

type Props = {
  messages: TMessage[];
  hasOlder: boolean;
  loadingOlder: boolean;
  olderError: string | null;
  onLoadOlder: () => Promise<void>;
  agentName: string | null;
  projectId: string;
  onCheck?: (block: TBlock, checked: boolean) => Promise<void>;
  onChanged: () => void;
  paused: boolean;
  /** The todo was cancelled: a message still waiting will not be answered. */
  cancelled?: boolean;
  /** The reader may not write: no editing or sending of scheduled messages. */
  readOnly?: boolean;
  /** Who wrote each user message, when not the reader ("You" otherwise): lib/ui/message-author.ts. */
  userLabelOf?: (message: TMessage) => string | undefined;
};

/** Near the bottom is where a chat follows new text; elsewhere the reader keeps their place. */
const STICK_PX = 48;

export function MessageList({ messages, hasOlder, loadingOlder, olderError, onLoadOlder, agentName, projectId, onCheck, onChanged, paused, cancelled, readOnly, userLabelOf }: Props) {
  const scroller = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  /** The list's height when it last rendered: was the reader at its bottom before this update? */
  const lastHeight = useRef(0);
  /** The list's visible height then: a box that shrank in the same update (a hint appeared below) does not count as scrolling up. */
  const lastClientHeight = useRef(0);
  /** A jump to the latest is scrolling (smoothly) down: new text on the way follows it. */
  const jumping = useRef(false);
  const lastTop = useRef(0);
  /** The reader scrolled up while something new came in below: offer to jump to it. */
  const [behind, setBehind] = useState(false);
  /** The reader paged back with the button: once at the start, a line says so (and takes the button's focus). */
  const [pagedOlder, setPagedOlder] = useState(false);
  /**
   * Set just before older messages are prepended: the distance from the bottom to keep, and the
   * first message then. Another update in between (a refetch) leaves it for the older page.
   */
  const anchor = useRef<{ fromBottom: number; firstId: string | undefined } | null>(null);

  // `?message=<id>` (a search result): scroll to that message and mark it, loading older pages
  // until it is there (at most 20 pages).
  const target = useSearchParams().get("message");
  const found = useRef<string | null>(null);
  const olderTries = useRef(0);
  // Each message looked for gets its own pages (a second search in this chat, Find in this chat).
  useEffect(() => {
    olderTries.current = 0;
  }, [target]);
  useEffect(() => {
    if (!target || found.current === target || !scroller.current) return;
    const el = scroller.current.querySelector<HTMLElement>(`[data-message-id="${CSS.escape(target)}"]`);
    if (el) {
      found.current = target;
      atBottom.current = false;
      // One mark: the hit of an earlier search in this chat is no longer the one looked for.
      for (const marked of scroller.current.querySelectorAll("[data-search-hit]")) marked.removeAttribute("data-search-hit");
      el.setAttribute("data-search-hit", "");
      el.scrollIntoView({ block: "center" });
    } else if (hasOlder && !loadingOlder && olderError === null && olderTries.current < 20) {
      // After this commit's effects (the chat's state ref, read by onLoadOlder, is set in its parent's).
      const timer = setTimeout(() => {
        olderTries.current++;
        void onLoadOlder();
      }, 0);
      return () => clearTimeout(timer);
    }
  }, [target, messages, hasOlder, loadingOlder, olderError, onLoadOlder]);

  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    // Where the reader is now, against the content as it was: a scroll whose event has not been
    // handled yet (it comes with the next frame) counts, so a message that arrives just after the
    // reader scrolled up does not pull them back down.
    const wasAtBottom = lastHeight.current - el.scrollTop - (lastClientHeight.current || el.clientHeight) < STICK_PX;
    if (anchor.current !== null) {
      if (messages[0]?.id !== anchor.current.firstId) {
        // Older messages went in above: keep what the reader was looking at in place.
        el.scrollTop = el.scrollHeight - anchor.current.fromBottom;
        anchor.current = null;
        atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < STICK_PX;
      }
    } else if (atBottom.current && (wasAtBottom || jumping.current)) {
      el.scrollTop = el.scrollHeight;
    } else if (el.scrollHeight - el.scrollTop - el.clientHeight >= STICK_PX) {
      atBottom.current = false;
      setBehind(true);
    }
    lastHeight.current = el.scrollHeight;
    lastClientHeight.current = el.clientHeight;
  }, [messages]);

  // The list's own box can shrink with no message changing (the built-in agent's hint appears
  // below it after a reply, the composer grows), and its content can grow (a font or a code block
  // laid out late): a reader at the bottom stays at the bottom.
  const resizes = useRef<ResizeObserver | null>(null);
  const content = useRef<HTMLOListElement | null>(null);
  const contentRef = useCallback((node: HTMLOListElement | null) => {
    if (content.current) resizes.current?.unobserve(content.current);
    content.current = node;
    if (node) resizes.current?.observe(node);
  }, []);
  useEffect(() => {
    const el = scroller.current;
    if (!el || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(() => {
      lastClientHeight.current = el.clientHeight;
      if (!atBottom.current || anchor.current !== null) return;
      el.scrollTop = el.scrollHeight;
      lastHeight.current = el.scrollHeight;
    });
    resizes.current = observer;
    observer.observe(el);
    if (content.current) observer.observe(content.current);
    return () => {
      observer.disconnect();
      resizes.current = null;
    };
  }, []);

  function jumpToLatest() {
    const el = scroller.current;
    if (!el) return;
    el.scrollTo({ top: el.scrollHeight, behavior: "smooth" });
    atBottom.current = true;
    jumping.current = true;
    setBehind(false);
  }

  useLayoutEffect(() => {
    // The older page went in (placed above) or failed: nothing is left to anchor.
    if (!loadingOlder) anchor.current = null;
  }, [loadingOlder]);

  async function loadOlder() {
    const el = scroller.current;
    if (el) anchor.current = { fromBottom: el.scrollHeight - el.scrollTop, firstId: messages[0]?.id };
    await onLoadOlder();
  }

  return (
    <div className={`card ${styles.messagesCard}`}>
      <div
        ref={scroller}
        className={styles.scroller}
        // Focusable, so the conversation scrolls from the keyboard too.
        tabIndex={0}
        role="region"
        aria-label="Messages"
        data-testid="messages"
        onScroll={(e) => {
          const el = e.currentTarget;
          const bottom = el.scrollHeight - el.scrollTop - el.clientHeight < STICK_PX;
          const up = el.scrollTop < lastTop.current;
          // A jump is over once it arrives, or when the reader scrolls back up during it.
          if (jumping.current && (bottom || up)) jumping.current = false;
          lastTop.current = el.scrollTop;
          // Only the reader moving up leaves the bottom. A scroll that is our own pin, seen after the
          // box shrank or the content grew (the resize observer pins again), does not.
          if (bottom || jumping.current) atBottom.current = true;
          else if (up) atBottom.current = false;
          if (bottom && behind) setBehind(false);
        }}
      >
        {hasOlder || pagedOlder ? (
          <div className={styles.olderRow}>
            <LoadMoreButton
              hasMore={hasOlder}
              loading={loadingOlder}
              onMore={() => {
                setPagedOlder(true);
                void loadOlder();
              }}
              label="Load older messages"
              loadingLabel="Loading older messages…"
              endLabel={pagedOlder ? "The start of the conversation." : null}
            />
            {olderError ? (
              <p className="error" role="alert" style={{ margin: 0 }}>
                Could not load older messages: {olderError}
              </p>
            ) : null}
          </div>
        ) : null}
        {messages.length === 0 ? (
          <p className={`muted ${styles.empty}`}>No messages yet. Write the first one below.</p>
        ) : (
          <ol ref={contentRef} className={styles.list}>
            {messages.map((m) => {
              const userLabel = userLabelOf?.(m);
              return <MessageItem key={m.id} message={m} agentName={agentName} projectId={projectId} onCheck={onCheck} onChanged={onChanged} paused={paused} cancelled={cancelled} readOnly={readOnly} userLabel={userLabel} fromOther={userLabel !== undefined} />;
            })}
          </ol>
        )}
      </div>
      {behind ? (
        <button type="button" className={styles.jumpLatest} onClick={jumpToLatest}>
          ↓ Jump to latest
        </button>
      ) : null}
    </div>
  );
}
