import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { run } from "./processes.ts";

export type Cleanups = (() => Promise<void> | void)[];

/** The app server needs a production build; make one only when .next/BUILD_ID is missing. */
export async function ensureBuild(root: string): Promise<void> {
  const buildId = path.join(root, ".next", "BUILD_ID");
  if (existsSync(buildId)) return console.log(`using the production build ${readFileSync(buildId, "utf8").trim()} (.next)`);
  console.log("No production build (.next/BUILD_ID missing): running `npx next build` first…");
  await run("next build", "npx", ["next", "build"], {
    cwd: root,
    env: { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" },
    echoStderr: true,
  });
}

/** A fresh PostgreSQL database named `<prefix>_<time>_<pid>`, dropped by one of `cleanups`; returns its URL. */
export async function createPgDatabase(adminUrl: string, prefix: string, cleanups: Cleanups): Promise<string> {
  const name = `${prefix}_${Date.now()}_${process.pid}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  cleanups.push(async () => {
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    try {
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    } finally {
      await c.end();
    }
  });
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
