"use client";

import { useCallback, useEffect, useRef } from "react";

/**
 * A callback that runs `fn` once, `ms` after the first call of a burst: several events in a row
 * (a rename and its settings, many todo changes) need one reload. A pending run is dropped on unmount.
 */
export function useCoalesced(fn: () => void, ms: number): () => void {
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  return useCallback(() => {
    if (timer.current) return;
    timer.current = setTimeout(() => {
      timer.current = null;
      fn();
    }, ms);
  }, [fn, ms]);
}
