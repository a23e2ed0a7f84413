-- CreateTable
CREATE TABLE "AccountingArchive" (
    "id" TEXT NOT NULL,
    "accountRef" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "amountCents" INTEGER NOT NULL,
    "balanceAfterCents" INTEGER,
    "currency" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "reference" TEXT,
    "teamId" TEXT,
    "occurredAt" TIMESTAMP(3) NOT NULL,
    "archivedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AccountingArchive_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "AccountingArchive_accountRef_idx" ON "AccountingArchive"("accountRef");
