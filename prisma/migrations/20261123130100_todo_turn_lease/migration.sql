-- AlterTable
ALTER TABLE "Todo" ADD COLUMN     "leaseOwner" TEXT,
ADD COLUMN     "leaseUntil" TIMESTAMP(3);

-- The turn's lease moves out of the workflow JSON ({"lease": {"owner", "until": epoch ms}}).
UPDATE "Todo"
SET "leaseOwner" = "workflow"->'lease'->>'owner',
    "leaseUntil" = to_timestamp((("workflow"->'lease'->>'until')::bigint) / 1000.0) AT TIME ZONE 'UTC'
WHERE jsonb_typeof("workflow"->'lease') = 'object';
UPDATE "Todo" SET "workflow" = "workflow" - 'lease' WHERE "workflow" ? 'lease';
