/** Groups as the project page shows them: by position, then by age (ties stay stable). */
export function byPosition<G extends { id: string; position: number; createdAt: number }>(a: G, b: G): number {
  return a.position - b.position || a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1);
}

/**
 * Moving one group a place up or down among a project's groups (shown by position): the groups
 * take the positions 0, 1, 2… of the new order, and only those whose position changes are written
 * (one project_upsertGroup each). Old positions may tie or leave gaps; the new ones do neither.
 */
export function groupMoves<G extends { slug: string; position: number }>(groups: readonly G[], index: number, step: -1 | 1): { group: G; position: number }[] {
  const to = index + step;
  if (index < 0 || index >= groups.length || to < 0 || to >= groups.length) return [];
  const order = [...groups];
  const [moved] = order.splice(index, 1);
  order.splice(to, 0, moved!);
  return order.flatMap((group, position) => (group.position === position ? [] : [{ group, position }]));
}
