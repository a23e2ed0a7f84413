"use client";

import { useEffect, useRef, useState } from "react";

/**
 * A bar of a long page's sections that stays at the top (`.jump-bar` in globals.css; headings keep
 * clear of it with scroll-margin-top). The section being read, the last whose heading has reached
 * the bar (the first at the top of the page), is marked `aria-current="location"` and, on a phone
 * where the bar scrolls sideways, kept in the bar's view.
 */
export function JumpBar({ sections, label, testId }: { sections: readonly (readonly [id: string, label: string])[]; label: string; testId?: string }) {
  const bar = useRef<HTMLElement>(null);
  const [current, setCurrent] = useState<string | null>(null);

  useEffect(() => {
    let frame = 0;
    // The section a link jumped to (or the page opened at) is the one read while its heading is in
    // view, until the reader moves the page themselves: sections that load later can grow the page
    // around it, so that its heading neither reaches the bar nor is at the page's bottom.
    const fromHash = () => sections.find(([id]) => `#${id}` === window.location.hash)?.[0] ?? null;
    let jumped = fromHash();
    const inView = (id: string) => {
      const top = document.getElementById(id)?.getBoundingClientRect().top;
      return top !== undefined && top >= 0 && top < window.innerHeight;
    };
    const update = () => {
      frame = 0;
      const el = bar.current;
      if (!el) return;
      // A heading a link jumped to stops at its scroll margin below the bar: that section is read.
      // The headings share one scroll margin (globals.css): read it once a frame.
      const headings = sections.map(([id]) => [id, document.getElementById(id)] as const);
      const first = headings.find(([, h]) => h)?.[1];
      const margin = first ? parseFloat(getComputedStyle(first).scrollMarginTop) || 0 : 0;
      const line = Math.max(el.getBoundingClientRect().bottom, margin) + 8;
      let at: string | null = sections[0]?.[0] ?? null;
      for (const [id, heading] of headings) if (heading && heading.getBoundingClientRect().top <= line) at = id;
      // At the very bottom the last sections may never reach the bar: the last one is being read.
      if (window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 2) at = sections.at(-1)?.[0] ?? at;
      if (jumped && inView(jumped)) at = jumped;
      setCurrent(at);
    };
    const schedule = () => {
      if (!frame) frame = requestAnimationFrame(update);
    };
    const onHash = () => {
      jumped = fromHash();
      schedule();
    };
    // The reader's own move (a wheel, a touch, a key, a press on the scroll bar) ends the jump.
    const onReader = () => {
      jumped = null;
    };
    const readerEvents = ["wheel", "touchstart", "keydown", "pointerdown"] as const;
    update();
    window.addEventListener("scroll", schedule, { passive: true });
    window.addEventListener("resize", schedule);
    window.addEventListener("hashchange", onHash);
    for (const type of readerEvents) window.addEventListener(type, onReader, { passive: true, capture: true });
    // Sections that load later move the headings below them.
    const observer = new ResizeObserver(schedule);
    observer.observe(document.body);
    return () => {
      window.removeEventListener("scroll", schedule);
      window.removeEventListener("resize", schedule);
      window.removeEventListener("hashchange", onHash);
      for (const type of readerEvents) window.removeEventListener(type, onReader, { capture: true });
      observer.disconnect();
      if (frame) cancelAnimationFrame(frame);
    };
  }, [sections]);

  useEffect(() => {
    const el = bar.current;
    const link = current ? el?.querySelector<HTMLElement>(`a[href="#${CSS.escape(current)}"]`) : null;
    if (!el || !link) return;
    // Sideways only, within the bar: the page itself must not move.
    if (link.offsetLeft < el.scrollLeft) el.scrollLeft = link.offsetLeft - 8;
    else if (link.offsetLeft + link.offsetWidth > el.scrollLeft + el.clientWidth) el.scrollLeft = link.offsetLeft + link.offsetWidth - el.clientWidth + 8;
  }, [current]);

  return (
    <nav ref={bar} className="jump-bar" aria-label={label} data-testid={testId}>
      {sections.map(([id, text]) => (
        <a key={id} href={`#${id}`} aria-current={current === id ? "location" : undefined}>
          {text}
        </a>
      ))}
    </nav>
  );
}
