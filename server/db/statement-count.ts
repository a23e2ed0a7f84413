import { renameSync, writeFileSync } from "node:fs";
import { log } from "../log.ts";
import { overriding } from "./overriding.ts";

// SQL statements this process sent (bench-only). With BENCH_STATEMENTS_FILE=<file> the database's
// driver adapter is wrapped so every statement Prisma sends is counted, and the counts are written
// to the file (JSON) every second while they change (a write and rename cost the server 1–2 ms on a
// busy machine: every 100 ms that was 1.5 % of its time under bench load): bench/agent-turns.ts reads them to report
// statements per agent turn. BEGIN and COMMIT/ROLLBACK count as statements (two per transaction,
// whether the adapter sends them or, like PGlite's, runs them itself). Unset: nothing is wrapped.

export type StatementCounts = { statements: number; transactions: number };

type Queryable = { queryRaw(q: { sql: string }): Promise<unknown>; executeRaw(q: { sql: string }): Promise<unknown> };
type Adapter = Queryable & { startTransaction(...args: unknown[]): Promise<Queryable> };
type Factory = { connect(): Promise<Adapter> };

const TX_CONTROL = /^\s*(BEGIN|COMMIT|ROLLBACK)\b/i;

/** Counts every statement sent through `target`'s queryRaw/executeRaw (transaction control excluded: counted per transaction). */
function counting<T extends Queryable>(target: T, counts: StatementCounts): T {
  const counted =
    (send: (q: { sql: string }) => Promise<unknown>) =>
    (q: { sql: string }) => {
      if (!TX_CONTROL.test(q.sql)) counts.statements++;
      return send(q);
    };
  const overrides: Record<string, unknown> = { queryRaw: counted(target.queryRaw.bind(target)), executeRaw: counted(target.executeRaw.bind(target)) };
  const adapter = target as Partial<Adapter>;
  if (typeof adapter.startTransaction === "function") {
    const start = adapter.startTransaction.bind(target);
    overrides.startTransaction = async (...args: unknown[]) => {
      counts.transactions++;
      counts.statements += 2; // BEGIN and its COMMIT (or ROLLBACK)
      return counting(await start(...args), counts);
    };
  }
  return overriding(target, overrides);
}

/** Wraps a Prisma driver adapter factory so its connections count their statements into `counts`. */
export function countStatements<F>(factory: F, counts: StatementCounts): F {
  const f = factory as unknown as Factory;
  return overriding(f, { connect: async () => counting(await f.connect(), counts) }) as unknown as F;
}

let latest: StatementCounts | undefined;

/** The counts of the database opened last with BENCH_STATEMENTS_FILE set, live (for a bench in the same process). */
export function liveStatementCounts(): StatementCounts | undefined {
  return latest;
}

/** The file BENCH_STATEMENTS_FILE names, if set. */
export function statementsFile(): string | undefined {
  return process.env.BENCH_STATEMENTS_FILE || undefined;
}

/** How often the counts are written while they change. */
export const REPORT_MS = 1000;

/** Writes `counts` to `file` every REPORT_MS while they change (timer unref'd). */
export function reportStatements(counts: StatementCounts, file: string): () => void {
  latest = counts;
  let last = "";
  const write = () => {
    const text = JSON.stringify(counts);
    if (text === last) return;
    last = text;
    try {
      // Whole or not at all: the reader is another process.
      writeFileSync(`${file}.tmp`, text);
      renameSync(`${file}.tmp`, file);
    } catch (err) {
      log.warn("cannot write statement counts", { file, error: String(err) });
    }
  };
  write();
  const timer = setInterval(write, REPORT_MS);
  timer.unref();
  return () => {
    clearInterval(timer);
    write();
  };
}
