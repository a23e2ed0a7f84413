"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import type { useMorePages } from "@/lib/ui/use-more-pages";
import { ErrorAlert } from "./error-alert";

type ButtonProps = {
  hasMore: boolean;
  loading: boolean;
  onMore: () => void;
  label: string;
  loadingLabel?: string;
  /** Shown once there is nothing more (null: nothing). */
  endLabel: string | null;
};

/**
 * The "Load more" button of a paged list. It keeps the keyboard's place: while a page loads it is
 * only marked disabled (a disabled button would drop focus to the page's start), and when the last
 * page came in, the line that says so takes the focus the button had (without scrolling: the
 * reader's place stays).
 */
export function LoadMoreButton({ hasMore, loading, onMore, label, loadingLabel = "Loading…", endLabel }: ButtonProps) {
  const end = useRef<HTMLParagraphElement>(null);
  const refocus = useRef(false);
  // Removed while it has the focus (the last page came in, by a click or by scrolling): the end
  // line takes it over. React runs a ref's cleanup before it takes the button out of the page.
  const watchFocus = useCallback((el: HTMLButtonElement | null) => {
    if (!el) return;
    return () => {
      if (document.activeElement === el) refocus.current = true;
    };
  }, []);
  useEffect(() => {
    if (hasMore || !refocus.current) return;
    refocus.current = false;
    // Only if nothing else took the focus meanwhile.
    if (document.activeElement === null || document.activeElement === document.body) end.current?.focus({ preventScroll: true });
  }, [hasMore]);
  if (hasMore)
    return (
      <button
        ref={watchFocus}
        type="button"
        className="secondary"
        aria-disabled={loading || undefined}
        onClick={() => {
          if (!loading) onMore();
        }}
      >
        {loading ? loadingLabel : label}
      </button>
    );
  return endLabel ? (
    <p ref={end} tabIndex={-1} className="muted" data-testid="list-end">
      {endLabel}
    </p>
  ) : null;
}

/** The button under a list paged with useMorePages (while there is a next page), and its last error. */
export function LoadMore({ more, label, endLabel = "That is all." }: { more: Pick<ReturnType<typeof useMorePages>, "cursor" | "loading" | "loadMore" | "error">; label: string; endLabel?: string }) {
  // The end is said only to who paged to it: a list of one page says nothing under it.
  const [paged, setPaged] = useState(false);
  return (
    <>
      <LoadMoreButton
        hasMore={more.cursor !== null}
        loading={more.loading}
        onMore={() => {
          setPaged(true);
          void more.loadMore();
        }}
        label={label}
        endLabel={paged ? endLabel : null}
      />
      <ErrorAlert message={more.error} />
    </>
  );
}
