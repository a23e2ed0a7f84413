"use client";

import { useOperation } from "@/lib/api/swr";
import { LoadError, Loading } from "@/components/ui/load-state";
import { TableScroll } from "@/components/ui/table-scroll";

/** The admin log: who did what, when, reaching how many; the whole console's, or one course's. */
export function AdminLogView({ course }: { course?: string }) {
  const log = useOperation("admin_log", { query: course ? { course } : {} });
  if (log.error) return <LoadError what="the admin log" message={log.error.message} onRetry={() => void log.mutate()} />;
  if (!log.data) return <Loading label="Loading the admin log…" />;
  return (
    <section className="card" aria-labelledby="admin-log-h">
      <h2 id="admin-log-h">Admin log</h2>
      {log.data.items.length === 0 ? (
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
              {log.data.items.map((e) => (
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
    </section>
  );
}
