-- Cards are named once per project (the agent's show tool defines or replaces a card by name).
-- Before this, nothing but tests created cards; should a database hold two of one name, the
-- older is kept.
DELETE FROM "RendererCard" a
USING "RendererCard" b
WHERE a."projectId" = b."projectId" AND a."name" = b."name"
  AND (a."createdAt" > b."createdAt" OR (a."createdAt" = b."createdAt" AND a."id" > b."id"));

-- DropIndex
DROP INDEX "RendererCard_projectId_idx";

-- CreateIndex
CREATE UNIQUE INDEX "RendererCard_projectId_name_key" ON "RendererCard"("projectId", "name");
