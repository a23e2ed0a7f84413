// A one-shot hand-over of focus across a client navigation. The form that makes something and
// navigates to it names it; the page that shows it takes the focus when it renders. Without it a
// keyboard user who creates their first project (the home page and the project page do not share
// a layout) lands on <body>, back at the top of the page.

let pending: string | null = null;

/** Asks the next page that shows `key` to take the focus (the last request wins). */
export function focusOnArrival(key: string): void {
  pending = key;
}

/** True once if focus was asked for `key`; the request is used up. */
export function takeArrivalFocus(key: string): boolean {
  if (pending !== key) return false;
  pending = null;
  return true;
}
