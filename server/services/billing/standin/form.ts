// Stripe's request encoding: application/x-www-form-urlencoded with bracketed keys
// (`items[0][price]=…`, `metadata[userId]=…`, `expand[]=…`), decoded into nested objects and arrays.

export type FormValue = string | FormValue[] | { [k: string]: FormValue };

export function parseStripeForm(text: string): Record<string, FormValue> {
  const root: Record<string, FormValue> = {};
  for (const [rawKey, value] of new URLSearchParams(text)) {
    const m = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(rawKey);
    if (!m) continue;
    const path = [m[1]!, ...[...m[2]!.matchAll(/\[([^[\]]*)\]/g)].map((x) => x[1]!)];
    let node: Record<string, FormValue> | FormValue[] = root;
    for (let i = 0; i < path.length; i++) {
      const key = path[i]!;
      const last = i === path.length - 1;
      const nextIsIndex = !last && /^\d*$/.test(path[i + 1]!);
      if (Array.isArray(node)) {
        const idx = key === "" ? node.length : Number(key);
        if (last) node[idx] = value;
        else node = (node[idx] ??= nextIsIndex ? [] : {}) as Record<string, FormValue> | FormValue[];
      } else {
        if (last) node[key] = value;
        else node = (node[key] ??= nextIsIndex ? [] : {}) as Record<string, FormValue> | FormValue[];
      }
    }
  }
  return root;
}
