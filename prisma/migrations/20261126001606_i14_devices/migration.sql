-- AlterTable
ALTER TABLE "CliLogin" ADD COLUMN     "approvedAt" TIMESTAMP(3),
ADD COLUMN     "deviceName" TEXT;

-- CreateIndex
CREATE INDEX "CliLogin_expiresAt_idx" ON "CliLogin"("expiresAt");
