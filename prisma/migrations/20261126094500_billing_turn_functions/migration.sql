-- Billing's per-turn work as two PL/pgSQL functions (server/services/billing/usage.ts calls them):
-- the start check and the charge are one statement each for the application, and the statements
-- inside are planned once per connection (PL/pgSQL keeps their plans), where the same SQL sent as
-- one text per turn was parsed and planned every time (on the embedded database, most of its cost).
-- The rules (plans' allowances, window lengths, which subscriptions count) come from the
-- application in `p_rules` (plans.ts is their one source):
--   {"paidTiers": [...], "activeStatuses": [...], "monthMs": n, "weekMs": n, "sessionMs": n,
--    "currency": "usd", "limits": {"<tier>": [session, weekly, monthly], ...}}
-- Times are integer milliseconds since the epoch; timestamps are timestamp(3) in UTC.

-- The windows of the payer's account at p_at: balance, tier, each window's start (monthly: Stripe's
-- period for a paid plan while it lasts, else 30-day periods from the anchor; weekly: weeks from the
-- anchor, the subscription's start for a paid plan, else when the account or the user was made;
-- session: open for sessionMs from its start), the allowance used in each (one pass over the
-- payer's records of the widest window, through UsageRecord(payerId, createdAt)), and whether the
-- reply p_message was charged already. No row when the payer does not exist.
CREATE OR REPLACE FUNCTION billing_payer_state(p_payer text, p_team text, p_at bigint, p_message text, p_rules jsonb,
  OUT o_payer text, OUT o_team text, OUT o_balance integer, OUT o_currency text, OUT o_allow_extra boolean, OUT o_tier text,
  OUT o_month_start bigint, OUT o_month_end bigint, OUT o_week_start bigint, OUT o_session_start bigint,
  OUT o_month_used integer, OUT o_week_used integer, OUT o_session_used integer, OUT o_charged boolean)
RETURNS SETOF record LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_user_created timestamp(3);
  v_account_created timestamp(3);
  v_session timestamp(3);
  v_sub_tier text;
  v_status text;
  v_anchor_at timestamp(3);
  v_period_start timestamp(3);
  v_period_end timestamp(3);
  v_anchor bigint;
  v_month_ms bigint := (p_rules->>'monthMs')::bigint;
  v_week_ms bigint := (p_rules->>'weekMs')::bigint;
BEGIN
  SELECT p."id", p."createdAt", a."balanceCents", a."currency", a."allowExtraSpend", a."createdAt", a."sessionWindowStart",
         s."tier", s."status", s."windowAnchorAt", s."currentPeriodStart", s."currentPeriodEnd"
    INTO o_payer, v_user_created, o_balance, o_currency, o_allow_extra, v_account_created, v_session,
         v_sub_tier, v_status, v_anchor_at, v_period_start, v_period_end
    FROM "User" p
    LEFT JOIN "BillingAccount" a ON a."userId" = p."id"
    LEFT JOIN "Subscription" s ON s."userId" = p."id"
    WHERE p."id" = p_payer;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  o_team := p_team;
  o_balance := COALESCE(o_balance, 0);
  o_currency := COALESCE(o_currency, p_rules->>'currency');
  o_allow_extra := COALESCE(o_allow_extra, false);
  o_tier := CASE WHEN v_status IS NOT NULL AND p_rules->'activeStatuses' ? v_status AND p_rules->'paidTiers' ? v_sub_tier THEN v_sub_tier ELSE 'free' END;
  v_anchor := (EXTRACT(EPOCH FROM CASE WHEN o_tier <> 'free' AND v_anchor_at IS NOT NULL THEN v_anchor_at ELSE COALESCE(v_account_created, v_user_created) END) * 1000)::bigint;
  IF o_tier <> 'free' AND v_period_start IS NOT NULL AND v_period_end IS NOT NULL AND (EXTRACT(EPOCH FROM v_period_end) * 1000)::bigint > p_at THEN
    o_month_start := (EXTRACT(EPOCH FROM v_period_start) * 1000)::bigint;
    o_month_end := (EXTRACT(EPOCH FROM v_period_end) * 1000)::bigint;
  ELSE
    o_month_start := CASE WHEN p_at < v_anchor THEN v_anchor ELSE v_anchor + ((p_at - v_anchor) / v_month_ms) * v_month_ms END;
    o_month_end := o_month_start + v_month_ms;
  END IF;
  o_week_start := CASE WHEN p_at < v_anchor THEN v_anchor ELSE v_anchor + ((p_at - v_anchor) / v_week_ms) * v_week_ms END;
  IF v_session IS NOT NULL AND p_at < (EXTRACT(EPOCH FROM v_session) * 1000)::bigint + (p_rules->>'sessionMs')::bigint THEN
    o_session_start := (EXTRACT(EPOCH FROM v_session) * 1000)::bigint;
  END IF;
  SELECT COALESCE(SUM(r."allowanceCents") FILTER (WHERE r."createdAt" >= TIMESTAMP 'epoch' + o_month_start * INTERVAL '1 millisecond'), 0),
         COALESCE(SUM(r."allowanceCents") FILTER (WHERE r."createdAt" >= TIMESTAMP 'epoch' + o_week_start * INTERVAL '1 millisecond'), 0),
         COALESCE(SUM(r."allowanceCents") FILTER (WHERE r."createdAt" >= TIMESTAMP 'epoch' + o_session_start * INTERVAL '1 millisecond'), 0)
    INTO o_month_used, o_week_used, o_session_used
    FROM "UsageRecord" r
    WHERE r."payerId" = o_payer
      AND r."createdAt" >= TIMESTAMP 'epoch' + LEAST(o_month_start, o_week_start, COALESCE(o_session_start, o_month_start)) * INTERVAL '1 millisecond';
  IF o_session_start IS NULL THEN
    o_session_used := 0;
  END IF;
  o_charged := p_message IS NOT NULL AND EXISTS (SELECT 1 FROM "UsageRecord" c WHERE c."messageId" = p_message);
  RETURN NEXT;
END
$$;

-- The windows of the account that pays for p_user's turns (the owner of the user's team, the
-- team's shared spend pool, else the user's own). Reads only. No row when the user does not exist.
CREATE OR REPLACE FUNCTION billing_usage_state(p_user text, p_at bigint, p_rules jsonb)
RETURNS TABLE (o_payer text, o_team text, o_balance integer, o_currency text, o_allow_extra boolean, o_tier text,
  o_month_start bigint, o_month_end bigint, o_week_start bigint, o_session_start bigint,
  o_month_used integer, o_week_used integer, o_session_used integer, o_charged boolean)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_payer text;
  v_team text;
BEGIN
  SELECT p."id", t."id" INTO v_payer, v_team
    FROM "User" me
    LEFT JOIN "TeamMember" m ON m."userId" = me."id"
    LEFT JOIN "Team" t ON t."id" = m."teamId"
    JOIN "User" p ON p."id" = COALESCE(t."ownerId", me."id")
    WHERE me."id" = p_user;
  IF FOUND THEN
    RETURN QUERY SELECT * FROM billing_payer_state(v_payer, v_team, p_at, NULL, p_rules);
  END IF;
END
$$;

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
  v_at timestamp(3) := TIMESTAMP 'epoch' + p_at * INTERVAL '1 millisecond';
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

-- The windows' sums read allowanceCents from the index (an index-only scan where the table's pages are all-visible).
DROP INDEX "UsageRecord_payerId_createdAt_idx";
CREATE INDEX "UsageRecord_payerId_createdAt_allowanceCents_idx" ON "UsageRecord"("payerId", "createdAt", "allowanceCents");
