import type { PrismaClient } from "../db/generated/client.ts";

/**
 * ctx.once for a job run: `key` names one effect of one job (`<job id>:<effect>`). A recorded key
 * returns its stored result; otherwise `fn(key)` runs and its result is recorded. Two runs that
 * overlap can both call `fn` (the record is written after it), which is why `fn` gets the key to
 * hand to the provider as its own idempotency key.
 */
export async function runOnce<T>(prisma: PrismaClient, key: string, fn: (idempotencyKey: string) => Promise<T>): Promise<T> {
  const done = await prisma.jobEffect.findUnique({ where: { key } });
  if (done) return (done.result ?? undefined) as T;
  const result = await fn(key);
  const stored = result === undefined ? null : JSON.stringify(result);
  // INSERT … ON CONFLICT DO NOTHING in raw SQL: Prisma's createMany (skipDuplicates) compiles a new query plan on every call.
  await prisma.$executeRaw`INSERT INTO "JobEffect" ("key", "result", "createdAt") VALUES (${key}, ${stored}::jsonb, ${new Date()}::timestamp(3)) ON CONFLICT DO NOTHING`;
  return result;
}

/** The key ctx.once records: effects of one job never collide with another job's. */
export function effectKey(jobName: string, jobId: string, effect: string): string {
  return `${jobName}:${jobId}:${effect}`;
}
