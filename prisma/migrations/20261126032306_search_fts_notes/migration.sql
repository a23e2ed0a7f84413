-- AlterTable
-- Full-text search (todo_searchMessages): maintained by the database, never by the app. English
-- stems ("running" finds "runs") plus the unstemmed words of any language ('simple'), over the
-- first 100,000 characters (a tsvector is limited to 1 MB; a longer message must still insert).
-- Hand-written: Prisma does not model generated columns (schema.prisma declares it Unsupported).
ALTER TABLE "Message" ADD COLUMN "searchVector" tsvector GENERATED ALWAYS AS (
    to_tsvector('english'::regconfig, left("content", 100000)) || to_tsvector('simple'::regconfig, left("content", 100000))
) STORED;

-- CreateTable
CREATE TABLE "SearchEmbedding" (
    "id" TEXT NOT NULL,
    "todoId" TEXT,
    "noteId" TEXT,
    "model" TEXT NOT NULL,
    "vector" REAL[],
    "sourceHash" TEXT NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "SearchEmbedding_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "SearchEmbedding_todoId_key" ON "SearchEmbedding"("todoId");

-- CreateIndex
CREATE UNIQUE INDEX "SearchEmbedding_noteId_key" ON "SearchEmbedding"("noteId");

-- CreateIndex
CREATE INDEX "SearchEmbedding_model_updatedAt_idx" ON "SearchEmbedding"("model", "updatedAt" DESC);

-- CreateIndex
CREATE INDEX "MemoryNote_projectId_idx" ON "MemoryNote"("projectId");

-- CreateIndex
CREATE INDEX "Message_searchVector_idx" ON "Message" USING GIN ("searchVector");

-- CreateIndex
CREATE INDEX "Message_seq_idx" ON "Message"("seq" DESC);

-- AddForeignKey
ALTER TABLE "MemoryNote" ADD CONSTRAINT "MemoryNote_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SearchEmbedding" ADD CONSTRAINT "SearchEmbedding_todoId_fkey" FOREIGN KEY ("todoId") REFERENCES "Todo"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SearchEmbedding" ADD CONSTRAINT "SearchEmbedding_noteId_fkey" FOREIGN KEY ("noteId") REFERENCES "MemoryNote"("id") ON DELETE CASCADE ON UPDATE CASCADE;
