"use client";

import { useEffect, useState } from "react";

/** `value` once it has stayed the same for `ms` (what a search box sends while someone types). */
export function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}
