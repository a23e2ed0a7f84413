import { after, before, describe, type TestContext } from "node:test";
import { setLogLevel } from "../log.ts";
import { startTestRuntime, unlessPostgresUnavailable, type TestRuntime } from "./runtime.ts";

export type Database = "pglite" | "postgres";

/**
 * Declares `suite` once per kind of database, the embedded one and PostgreSQL, each a describe
 * block ("<title> on <database>") with a fresh test runtime. Inside a test, `runtime(t)` is that
 * runtime, or undefined after skipping the test with the reason when PostgreSQL cannot be reached
 * (outside CI only: unlessPostgresUnavailable).
 */
export function eachDatabase(title: string, suite: (runtime: (t: TestContext) => TestRuntime | undefined, database: Database) => void): void {
  for (const database of ["pglite", "postgres"] as const)
    describe(`${title} on ${database}`, () => {
      let rt: TestRuntime | undefined;
      let skip = "";
      before(async () => {
        setLogLevel("silent");
        const start = await unlessPostgresUnavailable(() => startTestRuntime({ database }));
        if (start.skip !== undefined) skip = start.skip;
        else rt = start.started;
      });
      after(async () => {
        await rt?.close();
      });
      suite((t) => {
        if (skip) t.skip(skip);
        return skip ? undefined : rt;
      }, database);
    });
}
