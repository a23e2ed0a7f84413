"use client";

// Messages as Markdown: GFM (tables, task lists, strikethrough, autolinks) through react-markdown.
// Safe by construction: raw HTML in a message is shown as text (no rehype-raw), URLs go through
// react-markdown's defaultUrlTransform (no `javascript:` or `data:` links), and every link opens
// in a new tab with rel="noopener noreferrer". The syntax highlighter (rehype-highlight) is loaded
// only when a message has a fenced code block, so the todo page's first load does not carry it.
import { useEffect, useState, type ComponentPropsWithoutRef } from "react";
import ReactMarkdown, { type Components, type Options } from "react-markdown";
import remarkGfm from "remark-gfm";
import { useCopyText } from "@/lib/ui/use-copy-text";
import styles from "./markdown.module.css";

type Plugins = NonNullable<Options["rehypePlugins"]>;

let highlighter: Promise<Plugins> | null = null;
/** rehype-highlight, loaded once for the page (a separate chunk). */
function loadHighlighter(): Promise<Plugins> {
  highlighter ??= import("rehype-highlight").then((m) => [[m.default, { detect: true }]] as Plugins);
  return highlighter;
}

const FENCE = /^ {0,3}(```|~~~)/m;

/** The rehype plugins for `text`: the highlighter once loaded, when the text has fenced code. */
function useHighlighter(text: string): Plugins {
  const wanted = FENCE.test(text);
  const [plugins, setPlugins] = useState<Plugins>([]);
  useEffect(() => {
    if (!wanted || plugins.length) return;
    let active = true;
    // After the page's content is up (when the browser is idle): code shows at once, unhighlighted,
    // and the highlighter's chunk is not part of what the page needs before its content.
    const start = () =>
      loadHighlighter()
        .then((p) => active && setPlugins(p))
        .catch(() => undefined); // unhighlighted code is still code
    const idle = typeof window.requestIdleCallback === "function";
    const handle = idle ? window.requestIdleCallback(start, { timeout: 1500 }) : window.setTimeout(start, 200);
    return () => {
      active = false;
      if (idle) window.cancelIdleCallback(handle);
      else window.clearTimeout(handle);
    };
  }, [wanted, plugins.length]);
  return wanted ? plugins : [];
}

function CodeBlock({ children, node: _node, ...rest }: ComponentPropsWithoutRef<"pre"> & { node?: unknown }) {
  const { ref, state: copied, copy: copyText } = useCopyText<HTMLPreElement>(1500);
  const copy = () => copyText(ref.current?.innerText ?? "");
  return (
    <div className={styles.codeBlock}>
      <button type="button" className={styles.copy} onClick={() => void copy()} aria-label="Copy code">
        {copied === "copied" ? "Copied" : copied === "selected" ? "Selected: press Ctrl+C" : "Copy"}
      </button>
      <pre ref={ref} {...rest}>
        {children}
      </pre>
    </div>
  );
}

const components: Components = {
  a: ({ node: _node, href, children, ...rest }) => (
    <a {...rest} href={href} target="_blank" rel="noopener noreferrer">
      {children}
    </a>
  ),
  // A GFM task list item's box (read-only) is named by its state, for screen readers.
  input: ({ node: _node, ...rest }) => (rest.type === "checkbox" ? <input {...rest} aria-label={rest.checked ? "Done" : "Not done"} /> : <input {...rest} />),
  pre: CodeBlock,
  table: ({ node: _node, ...rest }) => (
    <div className={styles.tableWrap}>
      <table {...rest} />
    </div>
  ),
};

const remarkPlugins: NonNullable<Options["remarkPlugins"]> = [remarkGfm];

/** One message's text (or a project's brand page) as Markdown. */
export function Markdown({ text, className, testId = "message-content" }: { text: string; className?: string; testId?: string }) {
  const rehypePlugins = useHighlighter(text);
  return (
    <div className={`${styles.markdown} ${className ?? ""}`} data-testid={testId}>
      <ReactMarkdown remarkPlugins={remarkPlugins} rehypePlugins={rehypePlugins} components={components}>
        {text}
      </ReactMarkdown>
    </div>
  );
}
