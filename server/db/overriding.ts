/** `target` with `overrides` in place of its members of those names; its other methods bound to it. */
export function overriding<T extends object>(target: T, overrides: Record<string, unknown>): T {
  return new Proxy(target, {
    get(obj, prop, receiver) {
      if (typeof prop === "string" && Object.hasOwn(overrides, prop)) return overrides[prop];
      const value = Reflect.get(obj, prop, receiver) as unknown;
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(obj) : value;
    },
  });
}
