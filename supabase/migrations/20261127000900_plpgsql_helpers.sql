-- The engine's small helpers in plpgsql (issue 38): a `language sql` function with its own
-- search_path is never inlined, and Postgres 17 parses and plans its body again at every call from
-- a plpgsql statement, where a plpgsql function keeps its plans for the connection. The sportsbook's
-- bet JSON was the largest single cost of a placement and a settlement for it. Same bodies, same
-- answers; each replaces the definition named in its comment.

-- (Replaces the sportsbook migration's.)
create or replace function private.sportsbook_bet_json(round_id uuid) returns jsonb
language plpgsql stable
set search_path = ''
as $$
begin
  return (
    select jsonb_build_object(
      'id', r.id, 'bet_id', r.provider_round_id, 'provider', gp.slug, 'game_id', gp.slug || ':' || r.game,
      'session_id', r.session_id, 'player_id', r.player_id, 'currency', r.currency_code, 'wallet_mode', r.wallet_mode,
      'status', b.status, 'stake', b.stake::text, 'odds', trim_scale(b.odds)::text,
      'potential_payout', b.potential_payout::text, 'selections', b.selections, 'result', b.result,
      'payout', b.payout::text, 'paid', b.paid::text, 'owed', b.owed::text, 'livemode', r.livemode,
      'placed_at', b.placed_at, 'settled_at', b.settled_at, 'closed_at', b.closed_at, 'settlements', b.settlements)
    from public.sportsbook_bet b
    join public.game_round r on r.id = b.round_id
    join public.game_provider gp on gp.id = r.provider_id
    where b.round_id = sportsbook_bet_json.round_id);
end;
$$;

-- (Replaces the sportsbook migration's.)
create or replace function private.sportsbook_answer(
  transaction_id text, bet_id text, status text, bet public.sportsbook_bet, balance text, currency text
) returns json
language plpgsql immutable
set search_path = ''
as $$
begin
  return json_build_object(
    'transaction_id', transaction_id, 'bet_id', bet_id, 'status', status, 'result', bet.result,
    'payout', bet.payout::text, 'paid', bet.paid::text, 'owed', bet.owed::text, 'balance', balance, 'currency', currency);
end;
$$;

-- (Replaces the sportsbook migration's.)
create or replace function private.sportsbook_provider(key_hash text) returns uuid
language plpgsql stable
set search_path = ''
as $$
begin
  return (select k.provider_id from public.provider_key k
          where k.key_hash = sportsbook_provider.key_hash and k.status = 'active');
end;
$$;

-- (Replaces the sportsbook migration's.)
create or replace function private.sportsbook_lock_debts(round public.game_round) returns void
language plpgsql
set search_path = ''
as $$
begin
  perform pg_advisory_xact_lock(hashtextextended(
    round.client_id::text || ' ' || round.livemode || ' ' || round.currency_code || ' sportsbook debts ' || round.player_id, 0));
end;
$$;

-- (Replaces the sandbox migration's.)
create or replace function private.float_balance(client_id uuid, currency_code text) returns text
language plpgsql stable
set search_path = ''
as $$
begin
  return coalesce((select w.balance from public.wallet w
                   where w.client_id = float_balance.client_id and w.currency_code = float_balance.currency_code),
                  0)::numeric(20, 4)::text;
end;
$$;

-- (Replaces the sandbox migration's.)
create or replace function private.balance_of(s public.game_session, currency text) returns text
language plpgsql stable
set search_path = ''
as $$
begin
  if s.livemode then
    return private.float_balance(s.client_id, currency);
  end if;
  return coalesce((select p.balance from public.sandbox_player p
                   where p.client_id = s.client_id and p.player_id = s.player_id and p.currency_code = balance_of.currency),
                  0)::numeric(20, 4)::text;
end;
$$;

-- (Replaces the seamless wallet migration's.)
create or replace function private.debit_pending(round_id uuid) returns boolean
language plpgsql stable
set search_path = ''
as $$
begin
  return exists (
    select 1 from public.round_transaction t
    join public.wallet_call c on c.round_transaction_id = t.id and c.action = 'debit' and c.status = 'pending'
    where t.round_id = debit_pending.round_id);
end;
$$;

-- (Replaces the seamless wallet migration's.)
create or replace function private.round_transaction_state(t public.round_transaction) returns text
language plpgsql stable
set search_path = ''
as $$
begin
  return case
    when t.response_body is not null then 'replayed'
    when exists (select 1 from public.wallet_call c
                 where c.round_transaction_id = t.id and c.action = 'debit' and c.status = 'failed') then 'wallet_failed'
    else 'wallet_pending'
  end;
end;
$$;

-- (Replaces the game rounds migration's.)
create or replace function private.round_answer(
  transaction_id text, round_id text, balance text, currency text
) returns json
language plpgsql immutable
set search_path = ''
as $$
begin
  return json_build_object('transaction_id', transaction_id, 'round_id', round_id, 'balance', balance,
                           'currency', currency);
end;
$$;

-- (Replaces the free-round play migration's.)
create or replace function private.free_round_per_round(provider_id uuid, game text) returns boolean
language plpgsql stable
set search_path = ''
as $$
begin
  return coalesce((select f.payout_mode = 'per_round' from public.game gm
                   join public.game_free_rounds f on f.game_id = gm.id
                   where gm.provider_id = free_round_per_round.provider_id and gm.code = free_round_per_round.game), true);
end;
$$;

-- (Replaces the free-round play migration's.)
create or replace function private.free_round_pay(amount numeric, total_win numeric, max_win numeric) returns numeric
language plpgsql immutable
set search_path = ''
as $$
begin
  return case when max_win is null then amount else least(amount, greatest(max_win - total_win, 0)) end;
end;
$$;

-- (Replaces the free-round play migration's.)
create or replace function private.free_round_known_balance(round_id uuid) returns text
language plpgsql stable
set search_path = ''
as $$
begin
  return coalesce(private.round_wallet_balance(free_round_known_balance.round_id),
                  (select t.response_body ->> 'balance' from public.round_transaction t
                   where t.round_id = free_round_known_balance.round_id and t.response_body is not null
                   order by t.created_at desc limit 1));
end;
$$;
