import type { TTodoGroup } from "@/lib/schemas/groups";

/** The options of a group picker: "No group", then the project's groups (value: the slug). */
export function GroupOptions({ groups }: { groups: readonly TTodoGroup[] }) {
  return (
    <>
      <option value="">No group</option>
      {groups.map((g) => (
        <option key={g.id} value={g.slug}>
          {g.name}
        </option>
      ))}
    </>
  );
}
