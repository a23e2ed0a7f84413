-- Message search (server/services/search/messages.ts): GIN keeps new entries in a pending list
-- that every search reads through in full until VACUUM or the list's limit (4 MB by default)
-- merges them into the index. At 64 kB (the least allowed) a search reads at most that much, and
-- inserts still merge in batches.
ALTER INDEX "Message_searchVector_idx" SET (gin_pending_list_limit = 64);
