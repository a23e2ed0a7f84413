import type { Metadata } from "next";
import Link from "next/link";
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { cache } from "react";
import { Markdown } from "@/components/todo/markdown";
import { call } from "@/server/http/bridge";
import styles from "@/components/share/share.module.css";

// A project's brand page (the Markdown that project settings edit), rendered on the server with the
// app's Markdown renderer. Access is project_getBrand's, in process through the API's pipeline as
// this browser (its session cookie, if any): anyone for a public project, its members otherwise,
// and a private project read by anyone else is the same 404 as a missing one (docs/api.md "Brand").

type Params = { params: Promise<{ projectId: string }> };

type Brand = { kind: "ok"; markdown: string } | { kind: "not-found" } | { kind: "error"; message: string };

const loadBrand = cache(async (projectId: string): Promise<Brand> => {
  const res = await call("cookie", "project_getBrand", { params: { projectId } }, { cookie: (await headers()).get("cookie") ?? "" });
  if (!res) return { kind: "error", message: "The API is served by the custom server: start it with `npm start` or `npm run dev`." };
  if (res.status === 404) return { kind: "not-found" };
  if (!res.ok) return { kind: "error", message: res.error.message };
  return { kind: "ok", markdown: res.data.markdown };
});

/** The page's title: the brand's first heading, else a plain name. */
function titleOf(markdown: string): string {
  const heading = /^ {0,3}#{1,6}\s+(.+?)\s*#*\s*$/m.exec(markdown)?.[1]?.trim();
  return heading ? `${heading.length > 70 ? `${heading.slice(0, 69)}…` : heading} · Todo Service` : "Brand page · Todo Service";
}

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  await connection();
  const brand = await loadBrand((await params).projectId);
  return brand.kind === "ok" ? { title: titleOf(brand.markdown) } : { title: "Brand page · Todo Service", robots: { index: false } };
}

export default async function BrandPage({ params }: Params) {
  await connection();
  const brand = await loadBrand((await params).projectId);
  if (brand.kind === "not-found") notFound();
  if (brand.kind === "error") {
    return (
      <section className="card" role="alert">
        <h1>Could not load this brand page</h1>
        <p className="error">{brand.message}</p>
      </section>
    );
  }
  const empty = brand.markdown.trim() === "";
  return (
    <article data-testid="brand-page">
      {empty ? (
        <section className="card">
          <h1>No brand page yet</h1>
          <p>This project has not written its brand page. Its owner and editors can write it in the project&apos;s settings.</p>
        </section>
      ) : (
        <section className="card" aria-label="Brand page">
          <Markdown text={brand.markdown} testId="brand-content" />
        </section>
      )}
      <p className={`muted ${styles.footer}`}>
        A project on Todo Service. <Link href="/signin">Sign in</Link> to run your own todos.
      </p>
    </article>
  );
}
