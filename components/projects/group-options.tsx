import type { TTodoGroup } from "@/lib/schemas/groups";

/**
 * The options of a group picker: "No group", then the project's groups (value: the slug).
 * `noneValue` is "No group"'s value ("" unless the picker's own "" means nothing chosen yet).
 */
export function GroupOptions({ groups, noneValue = "" }: { groups: readonly TTodoGroup[]; noneValue?: string }) {
  return (
    <>
      <option value={noneValue}>No group</option>
      {groups.map((g) => (
        <option key={g.id} value={g.slug}>
          {g.name}
        </option>
      ))}
    </>
  );
}
