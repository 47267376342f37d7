-- Reconciliation (issue 36): the sportsbook's calls as lines. Until now the lines were the casino's
-- bets, wins and rollbacks only, so a day's sportsbook stakes and payouts could not be matched. Now
-- every round transaction of the caller's is a line, of its own `type` (sportsbook_place, _commit,
-- _discard, _settle, _unsettle, _close), with the same columns; `amount` as recorded (a placement's
-- stake, a discard's refund, a settlement's payout, absolute), and `moved` what it moved in the
-- bet's wallet, signed:
--
-- - transfer mode: its movement of the float (or test float), `ledger_transaction_id`, less what a
--   payout withheld for the player's owed clawbacks of other bets (taken from the float at once, by
--   movements of their own: the bet's history entry says how much), so the lines' net is the ledger's;
-- - seamless mode: its call to the operator's wallet once accepted (a placement's `debit`, a
--   discard's `rollback`, a settlement's or unsettlement's `credit` or `clawback`), by the call's
--   amount (a payout's credit is already less what it withheld); a clawback the wallet refused for
--   funds (accepted, with last_error, and owed) moved nothing. A stake the wallet never answered
--   moved nothing (its debit failed; the compensating rollback on the same line is the undo).
-- - a commit or close moves nothing.
-- A clawback's call is the `debit` your wallet was sent (internally its action is `clawback`).
--
-- A line of the sportsbook joins the bet's row (by its round, the primary key) only for a
-- settlement or unsettlement, to read its history entry by a path query: no subquery per line.
-- Totals: `transactions` and `moved` count every line; `bets`, `wins` and `rollbacks` stay the
-- casino's kinds (docs/reports.md).
--
-- Replaces private.reconciliation_line (of 20261127004003_test_free_round_wins.sql).

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
             'id', c.id, 'action', case when c.action = 'clawback' then 'debit' else c.action end, 'status', c.status, 'attempts', c.attempts,
             'balance', c.balance::text, 'completed_at', c.completed_at) end) as line
  from public.round_transaction t
  left join public.game_round r on r.id = t.round_id
  join public.game_provider gp on gp.id = t.provider_id
  -- The call that carries the line's money (wallet_call_one_per_action: one per action); a commit
  -- or close has none.
  left join public.wallet_call c on c.round_transaction_id = t.id
    and c.action = any (case t.kind when 'bet' then '{debit}'::text[] when 'win' then '{credit}'::text[]
                                    when 'rollback' then '{rollback}'::text[] when 'sportsbook_place' then '{debit}'::text[]
                                    when 'sportsbook_discard' then '{rollback}'::text[]
                                    when 'sportsbook_settle' then '{credit,clawback}'::text[]
                                    when 'sportsbook_unsettle' then '{credit,clawback}'::text[] end)
  left join public.held_win h on t.kind = 'win' and h.round_transaction_id = t.id
  left join public.transaction fl on (r.free_round_grant_id is not null and t.kind = 'win' or t.kind like 'sportsbook\_%')
    and fl.id = t.ledger_transaction_id
  left join public.sandbox_transaction sfl on not r.livemode
    and (r.free_round_grant_id is not null and t.kind = 'win' or t.kind like 'sportsbook\_%') and sfl.id = t.ledger_transaction_id
  left join public.sportsbook_bet b on t.kind in ('sportsbook_settle', 'sportsbook_unsettle') and b.round_id = t.round_id
  cross join lateral (
    select (case
              when t.kind like 'sportsbook\_%' then
                case when r.wallet_mode = 'seamless' then
                       case when c.status = 'accepted' and c.last_error is null
                            then case when c.action in ('debit', 'clawback') then -1 else 1 end * (c.request->>'amount')::numeric
                            else 0 end
                     else coalesce(fl.amount, sfl.amount, 0)
                          - coalesce((jsonb_path_query_first(b.settlements,
                                        '$[*] ? (@.transaction_id == $t && (@.type == "settlement" || @.type == "unsettlement"))',
                                        jsonb_build_object('t', t.transaction_id))->>'withheld')::numeric, 0) end
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
  ) m;
revoke all on private.reconciliation_line from public, anon, authenticated, service_role;
