-- AlterTable: a job enqueued again (same key) while it runs runs once more after (docs/jobs.md).
ALTER TABLE "Job" ADD COLUMN "again" BOOLEAN NOT NULL DEFAULT false;
