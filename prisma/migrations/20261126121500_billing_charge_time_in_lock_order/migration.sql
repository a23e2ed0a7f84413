-- A charge's time is taken in the order the payer's lock grants: never before the payer's last
-- record, so the session window a charge opened holds every record counted in it (on PostgreSQL
-- a transaction that read the clock first may get the lock after a later one).
-- Charges one finished turn of p_user to the account that pays for it, inside the caller's
-- transaction, once per reply: the allowance first (the least of the three windows), then credit
-- when extra spend is on, never below zero; what neither covers is counted on the allowance (a
-- started turn is never cut). Writes the UsageRecord, the ledger row and the new balance when
-- credit pays, and opens a session window when none is open (the payer's account made if it has
-- none). The payer's user row is locked first (the ledger's lock): charges of one payer go one at
-- a time, and every statement after the lock takes a new snapshot (a VOLATILE function in READ
-- COMMITTED), so it sees every charge committed before. No row when the user does not exist;
-- o_charged when the reply was charged already (then nothing is written).
CREATE OR REPLACE FUNCTION billing_charge_turn(p_user text, p_project text, p_todo text, p_message text, p_cost integer,
  p_tokens_in integer, p_tokens_out integer, p_at bigint, p_record_id text, p_ledger_id text, p_rules jsonb,
  OUT o_charged boolean, OUT o_allowance integer, OUT o_credit integer)
RETURNS SETOF record LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_payer text;
  v_team text;
  st record;
  v_limits jsonb;
  v_from_allowance integer;
  v_at timestamp(3);
BEGIN
  SELECT p."id", t."id" INTO v_payer, v_team
    FROM "User" me
    LEFT JOIN "TeamMember" m ON m."userId" = me."id"
    LEFT JOIN "Team" t ON t."id" = m."teamId"
    JOIN "User" p ON p."id" = COALESCE(t."ownerId", me."id")
    WHERE me."id" = p_user
    FOR UPDATE OF p;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  -- Under the lock: no earlier than the payer's latest record (an index-only backward scan).
  SELECT GREATEST(p_at, COALESCE(MAX((EXTRACT(EPOCH FROM r."createdAt") * 1000)::bigint), 0)) INTO p_at
    FROM (SELECT "createdAt" FROM "UsageRecord" WHERE "payerId" = v_payer ORDER BY "createdAt" DESC LIMIT 1) r;
  v_at := TIMESTAMP 'epoch' + p_at * INTERVAL '1 millisecond';
  SELECT * INTO st FROM billing_payer_state(v_payer, v_team, p_at, p_message, p_rules);
  IF st.o_charged THEN
    o_charged := true;
    o_allowance := 0;
    o_credit := 0;
    RETURN NEXT;
    RETURN;
  END IF;
  v_limits := p_rules->'limits'->st.o_tier;
  v_from_allowance := LEAST(p_cost, GREATEST(0, LEAST((v_limits->>0)::integer - st.o_session_used, (v_limits->>1)::integer - st.o_week_used, (v_limits->>2)::integer - st.o_month_used)));
  o_charged := false;
  o_credit := CASE WHEN st.o_allow_extra AND p_cost > v_from_allowance THEN GREATEST(0, LEAST(p_cost - v_from_allowance, st.o_balance)) ELSE 0 END;
  o_allowance := p_cost - o_credit;
  INSERT INTO "UsageRecord" ("id", "userId", "payerId", "teamId", "projectId", "todoId", "messageId", "costCents", "allowanceCents", "creditCents", "tokensIn", "tokensOut", "currency", "createdAt")
    VALUES (p_record_id, p_user, st.o_payer, st.o_team, p_project, p_todo, p_message, p_cost, o_allowance, o_credit, p_tokens_in, p_tokens_out, st.o_currency, v_at);
  IF o_credit > 0 THEN
    INSERT INTO "LedgerTransaction" ("id", "userId", "teamId", "amountCents", "balanceAfterCents", "currency", "kind", "description", "reference", "createdAt")
      VALUES (p_ledger_id, st.o_payer, st.o_team, -o_credit, st.o_balance - o_credit, st.o_currency, 'usage_charge', 'Agent turn', 'turn:' || p_message, v_at);
  END IF;
  IF o_credit > 0 OR st.o_session_start IS NULL THEN
    INSERT INTO "BillingAccount" AS a ("userId", "currency", "balanceCents", "sessionWindowStart", "createdAt", "updatedAt")
      VALUES (st.o_payer, st.o_currency, st.o_balance - o_credit,
              CASE WHEN st.o_session_start IS NULL THEN v_at ELSE TIMESTAMP 'epoch' + st.o_session_start * INTERVAL '1 millisecond' END, v_at, v_at)
      ON CONFLICT ("userId") DO UPDATE SET "balanceCents" = a."balanceCents" - o_credit, "sessionWindowStart" = EXCLUDED."sessionWindowStart", "updatedAt" = EXCLUDED."updatedAt";
  END IF;
  RETURN NEXT;
END
$$;
