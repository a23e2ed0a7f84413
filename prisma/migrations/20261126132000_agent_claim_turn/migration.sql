-- An agent turn's lease, taken under the per-user limit, as one statement
-- (server/agent/turn-lease.ts holdLease): the user's advisory lock, the count of the user's other
-- live leases, and the todo's lease (and workflow) written. The advisory lock serialises every
-- start of one user's turns until the transaction commits; with the count and the write sent as
-- separate statements it was held across three round trips through the application's event loop,
-- and under load one user's turn starts queued behind it (bench/README.md agent_turns). The count
-- runs after the lock is taken, with its own snapshot (a VOLATILE function's statements get a fresh
-- one each in READ COMMITTED), so it sees every lease committed before the lock was granted.
-- Times are timestamp(3) in UTC from the application's clock, as Prisma writes them.
-- Returns false (nothing written) when the user's other live leases reach p_max.
CREATE OR REPLACE FUNCTION agent_claim_turn(p_todo text, p_user text, p_max integer, p_now timestamp(3), p_owner text, p_until timestamp(3), p_workflow jsonb)
RETURNS boolean LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('agent-user:' || p_user));
  IF (SELECT count(*) FROM "Todo" WHERE "userId" = p_user AND "id" <> p_todo AND "status" = 'RUNNING' AND "leaseUntil" > p_now) >= p_max THEN
    RETURN false;
  END IF;
  UPDATE "Todo" SET "leaseOwner" = p_owner, "leaseUntil" = p_until, "workflow" = COALESCE(p_workflow, "workflow"), "updatedAt" = p_now WHERE "id" = p_todo;
  RETURN true;
END $$;
