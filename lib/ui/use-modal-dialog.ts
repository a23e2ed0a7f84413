"use client";

import { useEffect, useRef } from "react";

/**
 * A native modal <dialog> (focus stays inside, Escape cancels) shown while `open`: returns the ref
 * for the element. The dialog closes when `open` turns false or the component goes away.
 */
export function useModalDialog(open: boolean) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
    return () => {
      if (dialog.open) dialog.close();
    };
  }, [open]);
  return ref;
}
