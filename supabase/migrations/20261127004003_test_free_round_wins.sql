-- Reports (issue 36): what a free round paid in test mode. A transfer-mode free win moves the float
-- by what it paid (the campaign's max_win may cap it below what the provider reported); the
-- report's free_round_wins and the reconciliation's `moved` read that movement from the float's
-- ledger line (round_transaction.ledger_transaction_id). In test mode there was no such line, so
-- both read 0.0000; since the test ledger (20261127002000_sandbox_ledger.sql) a test round
-- transaction names its line in public.sandbox_transaction, and both read it there.
--
-- Replaces private.ggr_cells (of 20261127004001_report_cells_as_text.sql) and the view
-- private.reconciliation_line (of 20261126000300_reports.sql).

create or replace function private.ggr_cells(client_id uuid, livemode boolean, starts timestamptz, ends timestamptz)
returns table (
  day date, provider_id uuid, game text, currency_code text, player_id text,
  bets numeric, bet_count bigint, wins numeric, free_round_wins numeric, rolled_back numeric, voided numeric, rounds bigint
)
language plpgsql stable
set search_path = ''
-- Planned once per connection: its custom plans were made anew at each call, for a few rows.
set plan_cache_mode = force_generic_plan
as $$
#variable_conflict use_column
begin
  return query
  select m.day, m.provider_id, m.game, m.currency_code, m.player_id,
         sum(m.bets), sum(m.bet_count)::bigint, sum(m.wins), sum(m.free_round_wins), sum(m.rolled_back), sum(m.voided),
         sum(m.rounds)::bigint
  from (
    -- Movements, in the day they were recorded. A bet counts once it moved money (seamless: the
    -- operator's wallet accepted its debit; a refused one is deleted, a failed one never moved).
    -- A free round (game_round.free_round_grant_id) moves no money but its wins: what each paid
    -- (the float's or test float's movement, or the credit call's amount; max_win may cap it below what the
    -- provider reported, and a lump-sum game pays only its payout) is free_round_wins.
    select (t.created_at at time zone 'UTC')::date as day, r.provider_id, r.game, r.currency_code, r.player_id,
           case when t.kind = 'bet' and r.free_round_grant_id is null and (r.wallet_mode = 'transfer' or c.status = 'accepted')
                then t.amount else 0 end as bets,
           case when t.kind = 'bet' and r.free_round_grant_id is null and (r.wallet_mode = 'transfer' or c.status = 'accepted')
                then 1 else 0 end as bet_count,
           case when t.kind = 'win' and r.free_round_grant_id is null and h.round_transaction_id is null then t.amount else 0 end
             as wins,
           case when t.kind = 'win' and r.free_round_grant_id is not null
                then coalesce(l.amount, sl.amount, (fc.request->>'amount')::numeric, 0) else 0 end as free_round_wins,
           case when t.kind = 'rollback' and r.free_round_grant_id is null and t.transaction_id is distinct from 'cgs-cancel-' || t.related_id
                then t.amount else 0 end as rolled_back,
           case when t.kind = 'rollback' and r.free_round_grant_id is null and t.transaction_id = 'cgs-cancel-' || t.related_id
                then t.amount else 0 end as voided,
           0 as rounds
    from public.round_transaction t
    join public.game_round r on r.id = t.round_id
    left join public.wallet_call c on t.kind = 'bet' and c.round_transaction_id = t.id and c.action = 'debit'
    left join public.held_win h on t.kind = 'win' and h.round_transaction_id = t.id
    left join public.transaction l on r.free_round_grant_id is not null and t.kind = 'win' and l.id = t.ledger_transaction_id
    -- In test mode the float's movement is the test ledger's line.
    left join public.sandbox_transaction sl on not r.livemode and r.free_round_grant_id is not null and t.kind = 'win'
      and sl.id = t.ledger_transaction_id
    left join public.wallet_call fc on r.free_round_grant_id is not null and t.kind = 'win' and fc.round_transaction_id = t.id
      and fc.action = 'credit'
    where t.client_id = ggr_cells.client_id and t.created_at >= ggr_cells.starts and t.created_at < ggr_cells.ends
      and r.livemode = ggr_cells.livemode
    union all
    -- A held win counts in the day staff released it.
    select (h.decided_at at time zone 'UTC')::date, r.provider_id, r.game, r.currency_code, r.player_id, 0, 0, h.amount, 0, 0, 0, 0
    from public.held_win h
    join public.game_round r on r.id = h.round_id
    where h.client_id = ggr_cells.client_id and h.status = 'released' and h.decided_at >= ggr_cells.starts
      and h.decided_at < ggr_cells.ends and h.livemode = ggr_cells.livemode
    union all
    -- Rounds, in the day they opened; the sportsbook's bets (rounds of a sportsbook game) apart.
    select (r.opened_at at time zone 'UTC')::date, r.provider_id, r.game, r.currency_code, r.player_id, 0, 0, 0, 0, 0, 0, 1
    from public.game_round r
    where r.client_id = ggr_cells.client_id and r.livemode = ggr_cells.livemode and r.opened_at >= ggr_cells.starts
      and r.opened_at < ggr_cells.ends
      and not exists (select 1 from public.game g
                      where g.provider_id = r.provider_id and g.code = r.game and g.category = 'sportsbook')
  ) m
  group by m.day, m.provider_id, m.game, m.currency_code, m.player_id;
end;
$$;
revoke execute on function private.ggr_cells from public, anon, authenticated, service_role;

create or replace view private.reconciliation_line as
  select t.id, t.client_id, t.created_at, coalesce(r.livemode, c.livemode) as livemode,
         coalesce(r.currency_code, c.request->>'currency') as currency_code, t.kind, t.amount, m.moved,
         json_build_object(
           'id', t.id, 'created_at', t.created_at, 'provider', gp.slug, 'transaction_id', t.transaction_id, 'type', t.kind,
           'round_id', coalesce(r.provider_round_id, c.request->>'round_id'), 'round', r.id,
           'session_id', coalesce(r.session_id, (c.request->>'session_id')::uuid),
           'player_id', coalesce(r.player_id, c.request->>'player_id'),
           'game_id', coalesce(gp.slug || ':' || r.game, c.request->>'game_id'),
           'currency', coalesce(r.currency_code, c.request->>'currency'), 'amount', t.amount::text, 'moved', m.moved::text,
           'related_transaction_id', t.related_transaction_id, 'wallet_mode', coalesce(r.wallet_mode, 'seamless'),
           'ledger_transaction_id', t.ledger_transaction_id, 'review', h.status,
           'wallet_call', case when c.id is not null then json_build_object(
             'id', c.id, 'action', c.action, 'status', c.status, 'attempts', c.attempts,
             'balance', c.balance::text, 'completed_at', c.completed_at) end) as line
  from public.round_transaction t
  left join public.game_round r on r.id = t.round_id
  join public.game_provider gp on gp.id = t.provider_id
  left join public.wallet_call c on c.round_transaction_id = t.id
    and c.action = case t.kind when 'bet' then 'debit' when 'win' then 'credit' else 'rollback' end
  left join public.held_win h on t.kind = 'win' and h.round_transaction_id = t.id
  left join public.transaction fl on r.free_round_grant_id is not null and t.kind = 'win' and fl.id = t.ledger_transaction_id
  left join public.sandbox_transaction sfl on not r.livemode and r.free_round_grant_id is not null and t.kind = 'win'
    and sfl.id = t.ledger_transaction_id
  cross join lateral (
    select (case
              -- A free round moves no money but what its wins paid.
              when r.free_round_grant_id is not null then
                case when t.kind <> 'win' then 0
                     when r.wallet_mode = 'seamless' then case when c.status = 'accepted' then (c.request->>'amount')::numeric else 0 end
                     else coalesce(fl.amount, sfl.amount, 0) end
              when coalesce(r.wallet_mode, 'seamless') = 'seamless' then
                case when c.status = 'accepted' then case when t.kind = 'bet' then -t.amount else t.amount end else 0 end
              when t.kind = 'bet' then -t.amount
              when t.kind = 'win' and h.status is distinct from 'held' and h.status is distinct from 'rejected' then t.amount
              when t.kind = 'rollback' then t.amount
              else 0
            end)::numeric(20, 4) as moved
  ) m
  -- The casino's kinds: the sportsbook's calls are reconciled apart (not yet).
  where t.kind in ('bet', 'win', 'rollback');
revoke all on private.reconciliation_line from public, anon, authenticated, service_role;
