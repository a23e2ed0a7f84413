"use client";

import { useState } from "react";
import { errorMessage } from "./form-issues";

type Page<T> = { items: T[]; nextCursor: string | null };

/**
 * "Load more" under a cursor-paged list whose first page comes from SWR: the items of the first
 * page and of those loaded after it, the cursor of the next one (null at the end), and the error
 * of the last attempt. A new first page (revalidated after a change) drops the pages loaded after
 * the old one, so nothing shows twice.
 */
export function useMorePages<T>(first: Page<T> | undefined, more: (cursor: string) => Promise<Page<T>>) {
  const [extra, setExtra] = useState<{ items: T[]; cursor: string | null; base: string | null } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const loaded = first && extra && extra.base === first.nextCursor ? extra : null;
  const items = first ? [...first.items, ...(loaded?.items ?? [])] : [];
  const cursor = first ? (loaded ? loaded.cursor : first.nextCursor) : null;
  async function loadMore() {
    if (!first || !cursor || loading) return;
    setError(null);
    setLoading(true);
    try {
      const page = await more(cursor);
      setExtra({ items: [...(loaded?.items ?? []), ...page.items], cursor: page.nextCursor, base: first.nextCursor });
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setLoading(false);
    }
  }
  return { items, cursor, loadMore, loading, error };
}
