// Command-line options the benchmarks share.

/** `--pg` (a fresh PostgreSQL database instead of the embedded one) and `--pg-url` (where to create it). */
export const databaseOptions = {
  pg: { type: "boolean", default: false },
  "pg-url": { type: "string", default: process.env.BENCH_PG_ADMIN_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres" },
} as const;

/** `--name`'s value as a positive integer; exits with status 2 and the reason otherwise. */
export function positiveInt(name: string, value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) {
    console.error(`--${name} must be a positive integer (got ${value})`);
    process.exit(2);
  }
  return n;
}
