import type { useMorePages } from "@/lib/ui/use-more-pages";
import { ErrorAlert } from "./error-alert";

/** The button under a list paged with useMorePages (while there is a next page), and its last error. */
export function LoadMore({ more, label }: { more: Pick<ReturnType<typeof useMorePages>, "cursor" | "loading" | "loadMore" | "error">; label: string }) {
  return (
    <>
      {more.cursor && (
        <button type="button" className="secondary" disabled={more.loading} onClick={() => void more.loadMore()}>
          {more.loading ? "Loading…" : label}
        </button>
      )}
      <ErrorAlert message={more.error} />
    </>
  );
}
