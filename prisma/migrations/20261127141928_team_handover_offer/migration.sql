-- A team hand-over waits for the named member's acceptance (docs/api.md "Teams"): ownership, and
-- with it the shared spend pool, moves only then. A member who leaves or is removed drops the offer.
-- AlterTable
ALTER TABLE "Team" ADD COLUMN     "handoverAt" TIMESTAMP(3),
ADD COLUMN     "handoverToId" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "Team_handoverToId_key" ON "Team"("handoverToId");

-- AddForeignKey
ALTER TABLE "Team" ADD CONSTRAINT "Team_handoverToId_fkey" FOREIGN KEY ("handoverToId") REFERENCES "TeamMember"("id") ON DELETE SET NULL ON UPDATE CASCADE;
