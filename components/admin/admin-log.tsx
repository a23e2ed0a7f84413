"use client";

import { call } from "@/lib/api/client";
import { useOperation } from "@/lib/api/swr";
import { useMorePages } from "@/lib/ui/use-more-pages";
import { LoadMore } from "@/components/ui/load-more";
import { LoadError, Loading } from "@/components/ui/load-state";
import { TableScroll } from "@/components/ui/table-scroll";

/** The admin log: who did what, when, reaching how many; the whole console's, or one course's. */
export function AdminLogView({ course }: { course?: string }) {
  const query = course ? { course } : {};
  const log = useOperation("admin_log", { query });
  const more = useMorePages(log.data, (cursor) => call("admin_log", { query: { ...query, cursor } }));
  if (log.error) return <LoadError what="the admin log" message={log.error.message} onRetry={() => void log.mutate()} />;
  if (!log.data) return <Loading label="Loading the admin log…" />;
  return (
    <section className="card" aria-labelledby="admin-log-h">
      <h2 id="admin-log-h">Admin log</h2>
      {more.items.length === 0 ? (
        <p className="muted">Nothing yet.</p>
      ) : (
        <TableScroll label="Admin log">
          <table data-testid="admin-log">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Who</th>
                <th scope="col">What</th>
                {course ? null : <th scope="col">Course</th>}
                <th scope="col">People reached</th>
              </tr>
            </thead>
            <tbody>
              {more.items.map((e) => (
                <tr key={e.id}>
                  <td>{new Date(e.createdAt).toLocaleString()}</td>
                  <td>{e.actorEmail ?? e.actorId}</td>
                  <td>{e.action}</td>
                  {course ? null : <td>{e.courseSlug ?? ""}</td>}
                  <td>{e.count}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      <LoadMore more={more} label="Load older entries" />
    </section>
  );
}
