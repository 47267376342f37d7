-- A win reads only what a win needs of its caller (issue 38).
--
-- Replaces private.round_caller (the lean caller migration) and private.round_win (the free round
-- play migration). round_caller takes `bet` (default true, so every caller that names none is
-- unchanged): with false it reads neither the client's profile nor the jurisdiction, and answers
-- client_active and may_refuse null. A win asks neither: a suspended or closed client's rounds still
-- settle, and a win is no stake to cap. Each table a call does not read is a relation lock it does
-- not take (two here: the profile and its key). round_win is the free round play migration's,
-- statement for statement, but for that argument.

drop function private.round_caller(text, uuid);
create function private.round_caller(key_hash text, session_id uuid, bet boolean default true)
returns table (
  provider_id uuid, session public.game_session, client_active boolean, may_refuse boolean,
  loss_limits jsonb, available numeric, test_refusal text
)
language plpgsql stable
set search_path = ''
as $$
declare
  found_key record;
  s public.game_session;
begin
  select k.provider_id as provider, gs as session into found_key
  from public.provider_key k
  left join public.game_session gs on gs.id = round_caller.session_id and gs.provider_id = k.provider_id
  where k.key_hash = round_caller.key_hash and k.status = 'active';
  if found_key.provider is null then
    return;
  end if;
  provider_id := found_key.provider;
  s := found_key.session;
  session := s;
  if s.id is null then
    return next;
    return;
  end if;
  if bet then
    select p.status = 'active' into client_active from public.profile p where p.id = s.client_id;
  end if;
  select true, nullif(pr.loss_limits -> s.currency_code, '{}'::jsonb) into may_refuse, loss_limits
  from public.player_restriction pr
  where pr.client_id = s.client_id and pr.livemode = s.livemode and pr.player_id = s.player_id;
  may_refuse := coalesce(may_refuse, false);
  if bet and not may_refuse and s.jurisdiction is not null then
    may_refuse := exists (select 1 from public.jurisdiction j
                          where j.code = s.jurisdiction and j.max_stake_currency = s.currency_code);
  end if;
  if s.livemode then
    select w.balance into available
    from public.wallet w where w.client_id = s.client_id and w.currency_code = s.currency_code;
  else
    select case when sp.behaviour = 'insufficient_funds' then 0 else sp.balance end,
           case sp.behaviour when 'failing_wallet' then 'wallet_failed' when 'slow_wallet' then 'wallet_timeout' end
    into available, test_refusal
    from public.sandbox_player sp
    where sp.client_id = s.client_id and sp.player_id = s.player_id and sp.currency_code = s.currency_code;
  end if;
  return next;
end;
$$;
revoke execute on function private.round_caller from public, anon, authenticated, service_role;

create or replace function private.round_win(
  key_hash text,
  session_id uuid,
  transaction_id text,
  round_id text,
  amount numeric,
  round_closed boolean,
  bet_transaction_id text,
  request_fingerprint text,
  free_round_grant_id uuid default null
) returns table (outcome text, body json, balance text)
language plpgsql
set search_path = ''
as $$
#variable_conflict use_variable
declare
  c record;
  s public.game_session;
  replay record;
  round public.game_round;
  bet public.round_transaction;
  ledger public.transaction;
  balance_after text;
  win public.round_transaction;
  seamless boolean;
  held_by uuid;
begin
  select * into c from private.round_caller(key_hash, session_id, false);
  if c.provider_id is null then
    return query select 'invalid_provider_key', null::json, null::text;
    return;
  end if;
  s := c.session;
  if s.id is null then
    return query select 'unknown_session', null::json, null::text;
    return;
  end if;
  perform pg_advisory_xact_lock(hashtextextended(c.provider_id::text || ' tx ' || transaction_id, 0));
  select * into replay from private.round_replay(c.provider_id, transaction_id, request_fingerprint);
  if replay.outcome is not null then
    return query select replay.outcome, replay.body, null::text;
    return;
  end if;

  select * into round from public.game_round r
  where r.provider_id = c.provider_id and r.provider_round_id = round_win.round_id
  for update;
  if round.id is null then
    return query select 'unknown_round', null::json, null::text;
    return;
  end if;
  if round.session_id <> s.id then
    return query select 'round_mismatch', null::json, null::text;
    return;
  end if;
  if round.status <> 'open' then
    return query select 'round_closed', null::json, null::text;
    return;
  end if;
  -- A win naming a grant must be of that grant's round.
  if free_round_grant_id is not null and round.free_round_grant_id is distinct from free_round_grant_id then
    return query select 'free_round_mismatch', null::json, null::text;
    return;
  end if;
  seamless := round.wallet_mode = 'seamless';
  if bet_transaction_id is not null then
    select * into bet from public.round_transaction t
    where t.provider_id = c.provider_id and t.transaction_id = bet_transaction_id
      and t.kind = 'bet' and t.round_id = round.id
    for update;
    if bet.id is null then
      return query select 'unknown_transaction', null::json, null::text;
      return;
    end if;
    if bet.rolled_back then
      return query select 'transaction_rolled_back', null::json, null::text;
      return;
    end if;
  end if;
  -- A win settles what was bet: not while a bet of the round waits for the operator's debit.
  if seamless and private.debit_pending(round.id) then
    return query select 'transaction_pending', null::json, null::text;
    return;
  end if;
  -- A free round's win: credited against its grant (or tracked), never held.
  if round.free_round_grant_id is not null then
    return query select * from private.free_round_win(c.available, c.loss_limits, s, round, bet, transaction_id, amount,
                                                      round_closed, bet_transaction_id, request_fingerprint);
    return;
  end if;

  if amount > 0 and seamless then
    if round.total_win + amount >= 1e16 then
      return query select 'amount_too_large', null::json, null::text;
      return;
    end if;
  elsif amount > 0 then
    -- The float in the session's currency takes the win even if it had no wallet yet (a test
    -- session's: its test player's balance, which must exist).
    if c.available is null and not s.livemode then
      return query select 'test_player_unknown', null::json, null::text;
      return;
    end if;
    if round.total_win + amount >= 1e16 or coalesce(c.available, 0) + amount >= 1e16 then
      return query select 'amount_too_large', null::json, null::text;
      return;
    end if;
  end if;
  -- Past a win limit: recorded and answered, its bets settled, but held for staff, not paid.
  if amount > 0 then
    held_by := private.win_limit_passed(round, amount);
  end if;
  update public.round_transaction t set settled = true
  where t.round_id = round.id and t.kind = 'bet' and not t.rolled_back
    and (bet.id is null or t.id = bet.id);
  update public.game_round r
  set total_win = r.total_win + case when held_by is null then amount else 0 end,
      status = case when round_closed then 'closed' else r.status end,
      closed_at = case when round_closed then now() end
  where r.id = round.id;
  if amount > 0 and held_by is null and c.loss_limits is not null then
    perform private.count_loss(s.client_id, s.livemode, s.player_id, s.currency_code, -amount, false);
  end if;
  if held_by is not null then
    balance_after := case when seamless then private.round_wallet_balance(round.id) else private.balance_of(s, s.currency_code) end;
  elsif seamless then
    balance_after := null;
  elsif amount > 0 then
    if c.available is null then
      insert into public.wallet (client_id, currency_code) values (s.client_id, s.currency_code)
      on conflict on constraint wallet_client_id_currency_code_key do nothing;
    end if;
    -- The float's (or test player's) row is locked here, for the last write and the commit.
    ledger := private.move_money(s, s.currency_code, 'win', amount,
                                  format('round %s, win %s', round_win.round_id, round_win.transaction_id));
    balance_after := ledger.balance_after::text;
  else
    balance_after := private.balance_of(s, s.currency_code);
  end if;
  insert into public.round_transaction as t
    (provider_id, transaction_id, kind, client_id, round_id, amount, related_transaction_id, related_id,
     ledger_transaction_id, request_fingerprint, response_body)
  values (c.provider_id, transaction_id, 'win', s.client_id, round.id, amount, bet_transaction_id, bet.id,
          ledger.id, request_fingerprint,
          case when not seamless or held_by is not null
               then json_build_object('transaction_id', transaction_id, 'round_id', round_win.round_id,
                                      'balance', balance_after, 'currency', s.currency_code) end)
  returning t.* into win;
  if held_by is not null then
    insert into public.held_win (round_transaction_id, client_id, livemode, round_id, amount, currency_code, win_limit_id)
    values (win.id, s.client_id, s.livemode, round.id, amount, s.currency_code, held_by);
    perform private.emit_event(s.client_id, s.livemode, 'round.win_held', private.round_detail(round.id));
    return query select 'ok'::text, win.response_body, balance_after;
  elsif seamless then
    return query select * from private.queue_wallet_call(win, s, 'credit', jsonb_build_object(
      'transaction_id', transaction_id, 'round_id', round_win.round_id, 'amount', amount::numeric(20, 4)::text,
      'round_closed', round_closed));
  else
    return query select 'ok'::text, win.response_body, balance_after;
  end if;
end;
$$;
revoke execute on function private.round_win from public, anon, authenticated, service_role;

