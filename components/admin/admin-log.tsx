"use client";

import { call } from "@/lib/api/client";
import { useOperation } from "@/lib/api/swr";
import { useMorePages } from "@/lib/ui/use-more-pages";
import { LoadMore } from "@/components/ui/load-more";
import { LoadError, Loading } from "@/components/ui/load-state";
import { TableScroll } from "@/components/ui/table-scroll";
import { formatDateTime } from "@/lib/ui/format";

/** Each logged action in words (the API's `action` code stays in the cell's title). */
const ACTIONS: Record<string, string> = {
  "course.save": "Saved the course settings",
  "course.eligible": "Tagged eligible mailboxes",
  "course.perks": "Granted perks",
  "course.followers": "Replaced the follower snapshot",
  "course.mail.coupons": "Mailed coupons",
  "course.mail.day": "Mailed “starts tomorrow”",
  "course.mail.start": "Mailed “we are starting”",
  "course.mail.last": "Mailed the attendee code",
  "idea.hide": "Hid an idea",
  "idea.unhide": "Unhid an idea",
  "admin.grant": "Made an administrator",
  "admin.revoke": "Removed an administrator",
};

/** What an entry did, in words; an administrator change says whose. */
function actionText(action: string, target: string | null): string {
  const words = ACTIONS[action] ?? action;
  return action.startsWith("admin.") && target ? `${words}: ${target}` : words;
}

/**
 * The admin log: who did what, when, reaching how many; the whole console's (its own page: the
 * page's heading), or one course's (a section of the course's page).
 */
export function AdminLogView({ course }: { course?: string }) {
  const Heading = course ? "h2" : "h1";
  const query = course ? { course } : {};
  const log = useOperation("admin_log", { query });
  const more = useMorePages(log.data, (cursor) => call("admin_log", { query: { ...query, cursor } }));
  // The heading stands while the entries load or fail: the course page's section bar links to it.
  return (
    <section className="card" aria-labelledby="admin-log-h">
      <Heading id="admin-log-h">Admin log</Heading>
      {log.error ? (
        <LoadError inline what="the admin log" message={log.error.message} onRetry={() => void log.mutate()} />
      ) : !log.data ? (
        <Loading inline label="Loading the admin log…" />
      ) : more.items.length === 0 ? (
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
                  <td>{formatDateTime(e.createdAt)}</td>
                  <td>{e.actorEmail ?? e.actorId}</td>
                  <td title={e.action}>{actionText(e.action, e.target)}</td>
                  {course ? null : <td>{e.courseSlug ?? ""}</td>}
                  <td>{e.count}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      {log.data ? <LoadMore more={more} label="Load older entries" /> : null}
    </section>
  );
}
