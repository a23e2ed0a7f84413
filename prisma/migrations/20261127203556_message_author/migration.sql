-- A message has an author (docs/api.md "Messages"): the user who wrote a user message, null for
-- the agent's messages and once the author's account is deleted (the chat stays with the todo).
-- AlterTable
ALTER TABLE "Message" ADD COLUMN     "authorId" TEXT;

-- Existing user messages: their todo's creator, whom the chat page took for their author so far.
UPDATE "Message" AS m SET "authorId" = t."userId" FROM "Todo" AS t WHERE t."id" = m."todoId" AND m."role" = 'user';

-- CreateIndex
CREATE INDEX "Message_authorId_idx" ON "Message"("authorId");

-- AddForeignKey
ALTER TABLE "Message" ADD CONSTRAINT "Message_authorId_fkey" FOREIGN KEY ("authorId") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;
