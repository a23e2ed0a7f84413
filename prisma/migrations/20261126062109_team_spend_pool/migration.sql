-- AlterTable
ALTER TABLE "UsageRecord" ADD COLUMN     "payerId" TEXT,
ADD COLUMN     "teamId" TEXT;

-- Turns charged before the pool were paid by the user who ran them.
UPDATE "UsageRecord" SET "payerId" = "userId";

-- CreateIndex
CREATE INDEX "UsageRecord_payerId_createdAt_idx" ON "UsageRecord"("payerId", "createdAt");

-- AddForeignKey
ALTER TABLE "UsageRecord" ADD CONSTRAINT "UsageRecord_payerId_fkey" FOREIGN KEY ("payerId") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;
