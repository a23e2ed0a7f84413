-- Message search (server/services/search/messages.ts): whether the planner's statistics say a
-- query is too rare for the first plan (the caller's newest p_window messages, walked and tested)
-- to find p_needed matches, so that plan is skipped rather than run to find one or two. The
-- estimate is PostgreSQL's own (EXPLAIN of the match alone, from the lexeme frequencies ANALYZE
-- keeps for "searchVector"), as a share of all messages. Without those statistics (never
-- analysed: the embedded database has no autovacuum) the answer is false and every plan runs as
-- before. It only orders the plans; the results are the same either way.
-- VOLATILE because PostgreSQL allows EXPLAIN only there.
CREATE OR REPLACE FUNCTION message_search_rare(p_query tsquery, p_needed integer, p_window integer)
RETURNS boolean LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_plan json;
  v_total float8;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_stats WHERE schemaname = current_schema() AND tablename = 'Message'
                 AND attname = 'searchVector' AND most_common_elems IS NOT NULL) THEN
    RETURN false;
  END IF;
  SELECT reltuples INTO v_total FROM pg_class WHERE oid = '"Message"'::regclass;
  IF v_total IS NULL OR v_total <= 0 THEN
    RETURN false;
  END IF;
  EXECUTE 'EXPLAIN (FORMAT JSON) SELECT 1 FROM "Message" WHERE "searchVector" @@ $1' INTO v_plan USING p_query;
  RETURN (v_plan->0->'Plan'->>'Plan Rows')::float8 / v_total * p_window < p_needed;
END $$;
