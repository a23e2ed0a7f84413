"use client";

import { useEffect, useRef } from "react";

/**
 * A native modal <dialog> (focus stays inside, Escape cancels) shown while `open`: returns the ref
 * for the element. The dialog closes when `open` turns false or the component goes away; focus then
 * goes back to what had it before (the button that opened it).
 */
export function useModalDialog(open: boolean) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    let opener: Element | null = null;
    if (open && !dialog.open) {
      opener = document.activeElement;
      dialog.showModal();
    }
    if (!open && dialog.open) dialog.close();
    return () => {
      if (dialog.open) dialog.close();
      // close() gives focus back only while the dialog is in the page: one removed with its
      // component (the usual way to cancel) leaves focus on <body>, lost to a keyboard user.
      const lost = document.activeElement === null || document.activeElement === document.body;
      if (lost && opener instanceof HTMLElement && opener.isConnected) opener.focus();
    };
  }, [open]);
  return ref;
}
