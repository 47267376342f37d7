-- The sportsbook (issue 35; ../shared/design/bonuses-and-sportsbook.md): bets a sportsbook provider
-- places during a session and settles whenever results come, possibly several times, as rounds of
-- the round engine.
--
-- - A bet is a game_round (provider_round_id: the provider's bet_id) and a public.sportsbook_bet
--   row keyed by it: its state, stake, odds, potential payout, selections, the payout in force,
--   what it has paid and what it owes. Each provider call is a public.round_transaction of a kind of
--   its own (sportsbook_place, _commit, _discard, _settle, _unsettle, _close), so a provider's
--   transaction_id applies once, forever, across its casino and sportsbook calls, and a repeat
--   replays the first answer byte for byte (private.round_replay), as for bets and wins.
-- - The round of a bet is never `open`: `closed` from its placement (`cancelled` once discarded), so
--   the casino calls (round_bet, round_win) refuse it as round_closed, round_rollback refuses its
--   transactions as invalid_rollback, and a bet open for months is no stuck round. The bet's own
--   state is sportsbook_bet.status: reserved (two-phase, not yet committed), open, settled, closed,
--   discarded. game_round.total_bet is its stake (0 once discarded), total_win its payout in force.
-- - Money (transfer mode; test sessions on their test player's balance): the stake is a `bet` at
--   placement (reserved or not); a discard gives it back (`adjustment`). A settlement's payout is
--   absolute: the engine moves only the difference from the payout in force, in one transaction: a
--   rise is a `win`, a fall a clawback (`adjustment`). A clawback the balance cannot cover is owed
--   (sportsbook_bet.owed, reported as sportsbook.clawback.pending), and taken first from the
--   player's next sportsbook payouts in that currency and mode (or forgiven by a rise of the same
--   bet's payout); never dropped. So for every bet, always: paid - owed = payout (a check).
-- - Settlement, unsettlement, commit, discard and close need the provider's key, never the session:
--   sessions expire, bets settle months later. A discard of a bet nobody has seen, and an unsettle
--   naming a settlement nobody has seen, are remembered (tombstones): that bet, or that
--   settlement, is refused when it comes.
-- - Compliance at placement as for a casino bet (restrictions, stake limits, the jurisdiction's
--   maximum stake, session time); loss limits count the stake at placement, and each change of a
--   bet's payout as it comes (a discard gives the stake back).
-- - Locks, in the lean engine's order (20261126000100_lean_engine.sql): the transaction id, the
--   wallet mode (placement), the bet (its round), the player's sportsbook debts (an advisory lock,
--   taken before any bet row of the player is written), the bets' rows, the loss tally, the
--   balance, locked last by private.move_money (serialization_failure when a concurrent movement
--   took what was read: the API runs the call again).
-- - Seamless mode is not taken yet: a placement for a client in seamless mode is refused
--   (wallet_mode_unsupported) and writes nothing.
--
-- Replaces two rules of earlier migrations:
-- - game_category_check (20261121000650_game_catalogue.sql): a game may be of category `sportsbook`.
-- - round_transaction_kind_check and round_transaction_round_unless_tombstone
--   (20261121001200_game_rounds.sql): the sportsbook's kinds, and its two tombstones (a discard or
--   an unsettle of what nobody has seen) may have no round.

-- ============================================================================================
-- The catalogue and the round engine's transactions
-- ============================================================================================
alter table public.game drop constraint game_category_check;
alter table public.game add constraint game_category_check check (category in (
  'slots', 'live_casino', 'table_games', 'game_show', 'crash', 'instant', 'scratch', 'bingo', 'jackpot', 'sportsbook'));

-- Added not valid, then validated: the check of existing rows takes no lock that stops the engine.
alter table public.round_transaction
  drop constraint round_transaction_kind_check,
  add constraint round_transaction_kind_check check (kind in (
    'bet', 'win', 'rollback', 'sportsbook_place', 'sportsbook_commit', 'sportsbook_discard', 'sportsbook_settle',
    'sportsbook_unsettle', 'sportsbook_close')) not valid,
  drop constraint round_transaction_round_unless_tombstone,
  add constraint round_transaction_round_unless_tombstone
    check (round_id is not null or kind in ('rollback', 'sportsbook_discard', 'sportsbook_unsettle')) not valid;
-- A tombstone the provider's key alone made (a discard or unsettle of a bet nobody has seen)
-- belongs to no client anyone knows yet: only staff read it.
alter table public.round_transaction
  alter column client_id drop not null,
  add constraint round_transaction_client_unless_tombstone
    check (client_id is not null or (round_id is null and kind in ('sportsbook_discard', 'sportsbook_unsettle'))) not valid;
alter table public.round_transaction validate constraint round_transaction_kind_check;
alter table public.round_transaction validate constraint round_transaction_client_unless_tombstone;
alter table public.round_transaction validate constraint round_transaction_round_unless_tombstone;

-- The sportsbook's tombstones: a discard naming a bet (related_transaction_id: its bet_id), an
-- unsettle naming a settlement (its transaction_id).
create index round_transaction_sportsbook_target_idx
  on public.round_transaction (provider_id, related_transaction_id) where kind in ('sportsbook_discard', 'sportsbook_unsettle');

-- ============================================================================================
-- Tables
-- ============================================================================================
create table public.sportsbook_bet (
  round_id uuid primary key references public.game_round (id) on delete cascade,
  -- The round's, for the policies and the player's debts.
  client_id uuid not null references auth.users (id) on delete cascade,
  livemode boolean not null,
  player_id text not null,
  currency_code text not null,
  status text not null,
  stake numeric(20, 4) not null,
  odds numeric(16, 6) not null,
  potential_payout numeric(20, 4) not null,
  -- The provider's description of what was bet on: opaque, bounded.
  selections jsonb not null,
  -- The settlement in force (null while the bet is not settled): its result, payout and id.
  result text,
  payout numeric(20, 4) not null default 0,
  settlement_transaction_id text,
  -- What the bet has paid the player so far (its payouts less the clawbacks taken), and the
  -- clawbacks no balance could cover yet: always paid - owed = payout.
  paid numeric(20, 4) not null default 0,
  owed numeric(20, 4) not null default 0,
  -- Every settlement, unsettlement and owed clawback taken, in order, as the bets API shows them.
  settlements jsonb not null default '[]',
  placed_at timestamptz not null default now(),
  settled_at timestamptz,
  closed_at timestamptz,
  updated_at timestamptz not null default now(),
  constraint sportsbook_bet_status_check check (status in ('reserved', 'open', 'settled', 'closed', 'discarded')),
  constraint sportsbook_bet_result_check check (result in ('won', 'lost', 'void', 'cashout', 'half_won', 'half_lost')),
  constraint sportsbook_bet_result_with_status check ((status in ('settled', 'closed')) = (result is not null)),
  constraint sportsbook_bet_settlement_with_result check ((result is null) = (settlement_transaction_id is null)),
  constraint sportsbook_bet_closed_at_with_status check ((status = 'closed') = (closed_at is not null)),
  constraint sportsbook_bet_stake_positive check (stake > 0),
  constraint sportsbook_bet_odds_range check (odds >= 1 and odds < 1e10),
  constraint sportsbook_bet_potential_payout check (potential_payout >= stake and potential_payout < 1e16),
  constraint sportsbook_bet_money check (payout >= 0 and payout <= potential_payout and paid >= 0 and owed >= 0),
  constraint sportsbook_bet_paid_is_payout check (paid - owed = payout),
  -- The API takes at most 8 KiB of JSON; jsonb's text spaces it out, at most twice as long.
  constraint sportsbook_bet_selections_size check (octet_length(selections::text) <= 16384),
  constraint sportsbook_bet_settlements_array check (jsonb_typeof(settlements) = 'array')
);
comment on table public.sportsbook_bet is
  'A sportsbook bet (a round of the engine): state, stake, odds, selections, the payout in force, what it paid and owes.';
-- The client's read (its policy) and the bets API's list, newest first.
create index sportsbook_bet_client_id_idx on public.sportsbook_bet (client_id, livemode, placed_at desc, round_id desc);
-- A player's owed clawbacks, taken from its next payouts.
create index sportsbook_bet_owed_idx on public.sportsbook_bet (client_id, livemode, player_id, currency_code, placed_at)
  where owed > 0;
-- Reserved bets, discarded by the engine when left too long.
create index sportsbook_bet_reserved_idx on public.sportsbook_bet (placed_at) where status = 'reserved';

-- ============================================================================================
-- Row level security and grants: clients read their own bets, staff all; the engine writes as
-- the owner.
-- ============================================================================================
alter table public.sportsbook_bet enable row level security;
grant select on public.sportsbook_bet to authenticated, staff, service_role;

create trigger sportsbook_bet_set_updated_at
  before update on public.sportsbook_bet
  for each row execute function private.set_updated_at();

-- ============================================================================================
-- Helper functions
-- ============================================================================================

-- Who places a bet, in one statement (as private.round_caller for a casino bet): the key's provider
-- (null: the key does not authenticate), the session the token names if it is one of that
-- provider's, whether its game is a sportsbook, its client's status, whether the player's
-- restrictions or the jurisdiction could refuse a bet, the player's loss limits in the session's
-- currency, and the balance the stake would come from (the float's, live; the test player's, test:
-- 0 for one that refuses every bet, null for no such player) with how a test player's wallet fails.
create function private.sportsbook_caller(key_hash text, session_id uuid)
returns table (
  provider_id uuid, session public.game_session, sportsbook boolean, client_active boolean, may_refuse boolean,
  loss_limits jsonb, available numeric, test_refusal text
)
language plpgsql stable
set search_path = ''
as $$
begin
  return query
  select k.provider_id, s,
         exists (select 1 from public.game g where g.provider_id = s.provider_id and g.code = s.game and g.category = 'sportsbook'),
         p.status = 'active',
         pr.player_id is not null or j.max_stake is not null,
         nullif(pr.loss_limits -> s.currency_code, '{}'::jsonb),
         case when s.livemode then w.balance
              when sp.behaviour = 'insufficient_funds' then 0 else sp.balance end,
         case sp.behaviour when 'failing_wallet' then 'wallet_failed' when 'slow_wallet' then 'wallet_timeout' end
  from public.provider_key k
  left join public.game_session s on s.id = sportsbook_caller.session_id and s.provider_id = k.provider_id
  left join public.profile p on p.id = s.client_id
  left join public.player_restriction pr
    on pr.client_id = s.client_id and pr.livemode = s.livemode and pr.player_id = s.player_id
  left join public.jurisdiction j on j.code = s.jurisdiction and j.max_stake_currency = s.currency_code
  left join public.wallet w on s.livemode and w.client_id = s.client_id and w.currency_code = s.currency_code
  left join public.sandbox_player sp
    on not s.livemode and sp.client_id = s.client_id and sp.player_id = s.player_id and sp.currency_code = s.currency_code
  where k.key_hash = sportsbook_caller.key_hash and k.status = 'active';
end;
$$;
revoke execute on function private.sportsbook_caller from public, anon, authenticated, service_role;

-- The provider of an active key, or null.
create function private.sportsbook_provider(key_hash text) returns uuid
language sql stable
set search_path = ''
as $$
  select k.provider_id from public.provider_key k where k.key_hash = sportsbook_provider.key_hash and k.status = 'active';
$$;
revoke execute on function private.sportsbook_provider from public, anon, authenticated, service_role;

-- A bet as the bets API shows it and its events carry it, with every settlement.
create function private.sportsbook_bet_json(round_id uuid) returns jsonb
language sql stable
set search_path = ''
as $$
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
  where b.round_id = sportsbook_bet_json.round_id;
$$;
revoke execute on function private.sportsbook_bet_json from public, anon, authenticated, service_role;

-- The answer to a provider call, as stored and replayed: the bet as it stands after the call (its
-- members null for a tombstone of a bet nobody has seen) and the balance (null when no session is
-- known: such a tombstone).
create function private.sportsbook_answer(
  transaction_id text, bet_id text, status text, bet public.sportsbook_bet, balance text, currency text
) returns json
language sql immutable
set search_path = ''
as $$
  select json_build_object(
    'transaction_id', transaction_id, 'bet_id', bet_id, 'status', status, 'result', bet.result,
    'payout', bet.payout::text, 'paid', bet.paid::text, 'owed', bet.owed::text, 'balance', balance, 'currency', currency);
$$;
revoke execute on function private.sportsbook_answer from public, anon, authenticated, service_role;

-- The lock on a player's sportsbook debts (its bets' owed clawbacks) in a currency and mode: every
-- call that may change a bet's payout takes it after the bet's round and before writing any bet row
-- of the player, so taking another bet's owed clawback from a payout never waits on that bet.
create function private.sportsbook_lock_debts(round public.game_round) returns void
language sql
set search_path = ''
as $$
  select pg_advisory_xact_lock(hashtextextended(
    round.client_id::text || ' ' || round.livemode || ' ' || round.currency_code || ' sportsbook debts ' || round.player_id, 0));
$$;
revoke execute on function private.sportsbook_lock_debts from public, anon, authenticated, service_role;

-- Moves a bet from the payout in force to `new_payout` (its round, session and row locked by the
-- caller, and the player's debts): only the difference moves. A rise first forgives what the bet
-- itself owes, then takes the player's other owed clawbacks (oldest bet first), then is paid
-- (`win` of the rise, an `adjustment` per owed clawback taken); a fall takes what the balance holds
-- (`adjustment`) and owes the rest. `entry` is the settlement's line in the bet's history, which
-- this completes. Refusals (refusal not null) write nothing. The bet row is updated here: status,
-- result and settlement are the caller's to set after.
create function private.sportsbook_move(
  round public.game_round, bet public.sportsbook_bet, s public.game_session, new_payout numeric, transaction_id text,
  entry jsonb, out refusal text, out moved_bet public.sportsbook_bet, out ledger_id uuid, out balance text,
  out owed_added numeric
)
language plpgsql
set search_path = ''
as $$
#variable_conflict use_variable
declare
  delta numeric := new_payout - bet.payout;
  forgiven numeric := 0;
  credit numeric := 0;
  taken numeric := 0;
  withheld numeric := 0;
  available numeric;
  debtor public.sportsbook_bet;
  take numeric;
  takes jsonb := '[]';
  item jsonb;
  movement public.transaction;
begin
  owed_added := 0;
  if s.livemode then
    select w.balance into available from public.wallet w where w.client_id = s.client_id and w.currency_code = round.currency_code;
  else
    select p.balance into available from public.sandbox_player p
    where p.client_id = s.client_id and p.player_id = s.player_id and p.currency_code = round.currency_code;
  end if;
  if delta <> 0 and available is null and not s.livemode then
    refusal := 'test_player_unknown';
    return;
  end if;
  if delta > 0 then
    forgiven := least(delta, bet.owed);
    credit := delta - forgiven;
    if credit > 0 and coalesce(available, 0) + credit >= 1e16 then
      refusal := 'amount_too_large';
      return;
    end if;
  elsif delta < 0 then
    taken := least(-delta, greatest(coalesce(available, 0), 0));
    owed_added := -delta - taken;
  end if;
  -- The player's owed clawbacks of other bets come first out of what this one pays.
  if credit > 0 then
    for debtor in
      select * from public.sportsbook_bet b
      where b.client_id = bet.client_id and b.livemode = bet.livemode and b.player_id = bet.player_id
        and b.currency_code = bet.currency_code and b.owed > 0 and b.round_id <> bet.round_id
      order by b.placed_at, b.round_id
      for update
    loop
      exit when withheld = credit;
      take := least(credit - withheld, debtor.owed);
      withheld := withheld + take;
      takes := takes || jsonb_build_object('round_id', debtor.round_id, 'amount', take);
    end loop;
  end if;
  -- The loss tally counts the change of what the bet pays, as it comes; then the balance, last.
  if delta <> 0 then
    perform private.count_loss(bet.client_id, bet.livemode, bet.player_id, bet.currency_code, -delta, false);
  end if;
  if credit > 0 then
    if s.livemode and available is null then
      insert into public.wallet (client_id, currency_code) values (s.client_id, round.currency_code)
      on conflict on constraint wallet_client_id_currency_code_key do nothing;
    end if;
    movement := private.move_money(s, round.currency_code, 'win', credit,
                                   format('sportsbook bet %s, payout %s', round.provider_round_id, transaction_id));
    ledger_id := movement.id;
    balance := movement.balance_after::text;
  elsif taken > 0 then
    movement := private.move_money(s, round.currency_code, 'adjustment', -taken,
                                   format('sportsbook bet %s, clawback %s', round.provider_round_id, transaction_id));
    ledger_id := movement.id;
    balance := movement.balance_after::text;
  end if;
  for item in select * from jsonb_array_elements(takes) loop
    take := (item->>'amount')::numeric;
    movement := private.move_money(s, round.currency_code, 'adjustment', -take,
      format('sportsbook bet %s, owed clawback taken from the payout %s of bet %s',
             (select r.provider_round_id from public.game_round r where r.id = (item->>'round_id')::uuid),
             transaction_id, round.provider_round_id));
    balance := movement.balance_after::text;
    update public.sportsbook_bet b
    set paid = b.paid - take, owed = b.owed - take,
        settlements = b.settlements || jsonb_build_object(
          'type', 'recovery', 'transaction_id', transaction_id, 'from_bet_id', round.provider_round_id,
          'moved', (-take)::numeric(20, 4)::text, 'owed', (b.owed - take)::text, 'created_at', now())
    where b.round_id = (item->>'round_id')::uuid;
  end loop;
  if balance is null then
    balance := private.balance_of(s, round.currency_code);
  end if;
  update public.sportsbook_bet b
  set payout = new_payout,
      paid = b.paid + credit - taken,
      owed = b.owed - forgiven + owed_added,
      settlements = b.settlements || (entry || jsonb_build_object(
        'payout', new_payout::numeric(20, 4)::text, 'moved', (credit - taken)::numeric(20, 4)::text,
        'withheld', withheld::numeric(20, 4)::text, 'owed', (b.owed - forgiven + owed_added)::numeric(20, 4)::text,
        'created_at', now()))
  where b.round_id = bet.round_id
  returning b.* into moved_bet;
  update public.game_round r set total_win = new_payout where r.id = round.id;
end;
$$;
revoke execute on function private.sportsbook_move from public, anon, authenticated, service_role;

-- A clawback left owed, told to the operator.
create function private.sportsbook_report_owed(bet public.sportsbook_bet, round public.game_round, amount numeric)
returns void
language plpgsql
set search_path = ''
as $$
begin
  perform private.emit_event(bet.client_id, bet.livemode, 'sportsbook.clawback.pending', jsonb_build_object(
    'id', bet.round_id, 'bet_id', round.provider_round_id, 'player_id', bet.player_id, 'currency', bet.currency_code,
    'amount', amount::numeric(20, 4)::text, 'bet_owed', bet.owed::text,
    'player_owed', (select sum(b.owed)::text from public.sportsbook_bet b
                    where b.client_id = bet.client_id and b.livemode = bet.livemode and b.player_id = bet.player_id
                      and b.currency_code = bet.currency_code and b.owed > 0)));
end;
$$;
revoke execute on function private.sportsbook_report_owed from public, anon, authenticated, service_role;

-- Gives a reserved bet's stake back (its round and row locked by the caller): the bet is discarded,
-- its round cancelled, and the operator told. `reason`: discarded by the provider, or expired.
create function private.sportsbook_give_back(
  round public.game_round, bet public.sportsbook_bet, transaction_id text, reason text,
  out refusal text, out ledger_id uuid, out balance text
)
language plpgsql
set search_path = ''
as $$
declare
  s public.game_session;
  movement public.transaction;
  available numeric;
begin
  select * into s from public.game_session gs where gs.id = round.session_id;
  if s.livemode then
    select w.balance into available from public.wallet w where w.client_id = s.client_id and w.currency_code = round.currency_code;
  else
    select p.balance into available from public.sandbox_player p
    where p.client_id = s.client_id and p.player_id = s.player_id and p.currency_code = round.currency_code;
    if available is null then
      refusal := 'test_player_unknown';
      return;
    end if;
  end if;
  if coalesce(available, 0) + bet.stake >= 1e16 then
    refusal := 'amount_too_large';
    return;
  end if;
  perform private.count_loss(bet.client_id, bet.livemode, bet.player_id, bet.currency_code, -bet.stake, false);
  movement := private.move_money(s, round.currency_code, 'adjustment', bet.stake,
                                 format('sportsbook bet %s, discarded (%s): stake given back', round.provider_round_id, transaction_id));
  ledger_id := movement.id;
  balance := movement.balance_after::text;
  update public.sportsbook_bet b
  set status = 'discarded',
      settlements = b.settlements || jsonb_build_object('type', 'discard', 'transaction_id', transaction_id,
                                                        'reason', reason, 'moved', bet.stake::text, 'created_at', now())
  where b.round_id = bet.round_id;
  update public.game_round r set status = 'cancelled', total_bet = 0 where r.id = round.id;
  perform private.emit_event(bet.client_id, bet.livemode, 'sportsbook.bet.discarded',
                             private.sportsbook_bet_json(round.id) || jsonb_build_object('reason', reason));
end;
$$;
revoke execute on function private.sportsbook_give_back from public, anon, authenticated, service_role;

-- ============================================================================================
-- The engine: one call each, one transaction each. Outcomes: ok (body: the answer, stored and
-- replayed), replayed (the first answer), or a problem code (body null, or the problem's members).
-- ============================================================================================

-- POST /v3/provider/sportsbook/bets: the stake is taken, the bet is open (or reserved, two-phase).
create function private.sportsbook_place(
  key_hash text, session_id uuid, bet_id text, transaction_id text, amount numeric, odds numeric,
  potential_payout numeric, selections jsonb, two_phase boolean, request_fingerprint text
) returns table (outcome text, body json)
language plpgsql
set search_path = ''
as $$
#variable_conflict use_variable
declare
  c record;
  s public.game_session;
  replay record;
  refusal text;
  round public.game_round;
  bet public.sportsbook_bet;
  ledger public.transaction;
  answer json;
begin
  select * into c from private.sportsbook_caller(key_hash, session_id);
  if c.provider_id is null then
    return query select 'invalid_provider_key', null::json;
    return;
  end if;
  s := c.session;
  if s.id is null then
    return query select 'unknown_session', null::json;
    return;
  end if;
  perform pg_advisory_xact_lock(hashtextextended(c.provider_id::text || ' tx ' || transaction_id, 0));
  select * into replay from private.round_replay(c.provider_id, transaction_id, request_fingerprint);
  if replay.outcome is not null then
    return query select replay.outcome, replay.body;
    return;
  end if;
  -- The wallet mode, under its shared lock held to the end (a mode change waits for this bet).
  if private.lock_wallet_mode(s.client_id, s.livemode, false) = 'seamless' then
    return query select 'wallet_mode_unsupported', null::json;
    return;
  end if;
  if not c.sportsbook then
    return query select 'not_sportsbook', null::json;
    return;
  end if;
  if not c.client_active then
    return query select 'operator_suspended', null::json;
    return;
  end if;
  if s.status = 'closed' then
    return query select 'session_closed', null::json;
    return;
  end if;
  if s.status = 'created' and s.expires_at <= now() then
    return query select 'session_expired', null::json;
    return;
  end if;
  if c.may_refuse then
    refusal := private.player_refusal(s.client_id, s.livemode, s.player_id, s.id, s.currency_code, s.jurisdiction,
                                      s.created_at, amount);
    if refusal is not null then
      return query select refusal, null::json;
      return;
    end if;
  end if;

  -- One placement (or discard) of a bet_id at a time: the same lock a casino round's first bet takes.
  perform pg_advisory_xact_lock(hashtextextended(c.provider_id::text || ' round ' || bet_id, 0));
  if exists (select 1 from public.round_transaction t
             where t.provider_id = c.provider_id and t.kind = 'sportsbook_discard' and t.related_transaction_id = bet_id) then
    return query select 'bet_discarded', null::json;
    return;
  end if;
  if exists (select 1 from public.game_round r where r.provider_id = c.provider_id and r.provider_round_id = bet_id) then
    return query select 'duplicate_bet', null::json;
    return;
  end if;
  if c.available is null and not s.livemode then
    return query select 'test_player_unknown', null::json;
    return;
  end if;
  if c.test_refusal is not null then
    return query select c.test_refusal, null::json;
    return;
  end if;
  if coalesce(c.available, 0) < amount then
    return query select 'insufficient_funds',
                        json_build_object('balance', coalesce(c.available, 0)::numeric(20, 4)::text, 'currency', s.currency_code);
    return;
  end if;
  if c.loss_limits is not null then
    refusal := private.count_loss(s.client_id, s.livemode, s.player_id, s.currency_code, amount, true);
    if refusal is not null then
      perform private.record_refusal(s.client_id, s.livemode, s.player_id, s.id, refusal, amount);
      return query select refusal, null::json;
      return;
    end if;
  end if;

  if s.status = 'created' then
    update public.game_session gs set status = 'active' where gs.id = s.id;
  end if;
  insert into public.game_round as r
    (provider_id, provider_round_id, client_id, livemode, session_id, player_id, game, currency_code, wallet_mode,
     total_bet, status, closed_at)
  values (c.provider_id, bet_id, s.client_id, s.livemode, s.id, s.player_id, s.game, s.currency_code, 'transfer',
          amount, 'closed', now())
  returning r.* into round;
  insert into public.sportsbook_bet as b
    (round_id, client_id, livemode, player_id, currency_code, status, stake, odds, potential_payout, selections)
  values (round.id, s.client_id, s.livemode, s.player_id, s.currency_code,
          case when two_phase then 'reserved' else 'open' end, amount, odds, potential_payout, selections)
  returning b.* into bet;
  -- The float's (or test player's) row is locked here, for the last writes and the commit.
  ledger := private.move_money(s, s.currency_code, 'bet', -amount, format('sportsbook bet %s, stake %s', bet_id, transaction_id));
  answer := private.sportsbook_answer(transaction_id, bet_id, bet.status, bet, ledger.balance_after::text, s.currency_code);
  insert into public.round_transaction
    (provider_id, transaction_id, kind, client_id, round_id, amount, ledger_transaction_id, request_fingerprint, response_body)
  values (c.provider_id, transaction_id, 'sportsbook_place', s.client_id, round.id, amount, ledger.id, request_fingerprint, answer);
  if not two_phase then
    perform private.emit_event(s.client_id, s.livemode, 'sportsbook.bet.placed', private.sportsbook_bet_json(round.id));
  end if;
  return query select 'ok'::text, answer;
end;
$$;
revoke execute on function private.sportsbook_place from public, anon, authenticated, service_role;

-- What every call after the placement starts with: the key's provider, the lock on the call's
-- transaction_id (and on the one it names, in one order), and a repeat's first answer. `outcome`
-- null when the call may go on.
create function private.sportsbook_start(key_hash text, transaction_id text, request_fingerprint text, also_lock text default null)
returns table (outcome text, body json, provider_id uuid)
language plpgsql
set search_path = ''
as $$
declare
  provider uuid := private.sportsbook_provider(key_hash);
  lock_key bigint;
  replay record;
begin
  if provider is null then
    return query select 'invalid_provider_key'::text, null::json, null::uuid;
    return;
  end if;
  foreach lock_key in array (
    select array_agg(distinct k order by k)
    from unnest(array[hashtextextended(provider::text || ' tx ' || transaction_id, 0),
                      hashtextextended(provider::text || ' tx ' || also_lock, 0)]) k
    where k is not null
  ) loop
    perform pg_advisory_xact_lock(lock_key);
  end loop;
  select * into replay from private.round_replay(provider, transaction_id, request_fingerprint);
  return query select replay.outcome, replay.body, provider;
end;
$$;
revoke execute on function private.sportsbook_start from public, anon, authenticated, service_role;

-- POST .../bets/{bet_id}/commit: a reserved bet is open. Of a bet open or past it, nothing changes.
create function private.sportsbook_commit(key_hash text, bet_id text, transaction_id text, request_fingerprint text)
returns table (outcome text, body json)
language plpgsql
set search_path = ''
as $$
#variable_conflict use_variable
declare
  began record;
  round public.game_round;
  bet public.sportsbook_bet;
  s public.game_session;
  answer json;
begin
  select * into began from private.sportsbook_start(key_hash, transaction_id, request_fingerprint);
  if began.outcome is not null then
    return query select began.outcome, began.body;
    return;
  end if;
  select * into round from public.game_round r
  where r.provider_id = began.provider_id and r.provider_round_id = bet_id
  for update;
  select * into bet from public.sportsbook_bet b where b.round_id = round.id;
  if bet.round_id is null then
    return query select 'unknown_bet', null::json;
    return;
  end if;
  if bet.status = 'discarded' then
    return query select 'bet_discarded', null::json;
    return;
  end if;
  if bet.status = 'reserved' then
    update public.sportsbook_bet b set status = 'open' where b.round_id = round.id returning b.* into bet;
    perform private.emit_event(bet.client_id, bet.livemode, 'sportsbook.bet.placed',
                               private.sportsbook_bet_json(round.id));
  end if;
  select * into s from public.game_session gs where gs.id = round.session_id;
  answer := private.sportsbook_answer(transaction_id, bet_id, bet.status, bet,
                                      private.balance_of(s, round.currency_code), round.currency_code);
  insert into public.round_transaction
    (provider_id, transaction_id, kind, client_id, round_id, amount, request_fingerprint, response_body)
  values (began.provider_id, transaction_id, 'sportsbook_commit', round.client_id, round.id, 0,
          request_fingerprint, answer);
  return query select 'ok'::text, answer;
end;
$$;
revoke execute on function private.sportsbook_commit from public, anon, authenticated, service_role;

-- POST .../bets/{bet_id}/discard: a reserved bet's stake is given back. Of a bet nobody has seen,
-- a tombstone: answered OK, and the bet is refused when it comes. Of a discarded bet, nothing moves.
create function private.sportsbook_discard(key_hash text, bet_id text, transaction_id text, request_fingerprint text)
returns table (outcome text, body json)
language plpgsql
set search_path = ''
as $$
#variable_conflict use_variable
declare
  began record;
  round public.game_round;
  bet public.sportsbook_bet;
  given record;
  s public.game_session;
  answer json;
  balance text;
  ledger_id uuid;
  refunded numeric := 0;
begin
  select * into began from private.sportsbook_start(key_hash, transaction_id, request_fingerprint);
  if began.outcome is not null then
    return query select began.outcome, began.body;
    return;
  end if;
  -- The lock a placement of this bet_id takes: a tombstone and the bet it refuses never cross.
  perform pg_advisory_xact_lock(hashtextextended(began.provider_id::text || ' round ' || bet_id, 0));
  select * into round from public.game_round r
  where r.provider_id = began.provider_id and r.provider_round_id = bet_id
  for update;
  select * into bet from public.sportsbook_bet b where b.round_id = round.id;
  if bet.round_id is null then
    if exists (select 1 from public.game_round r where r.provider_id = began.provider_id and r.provider_round_id = bet_id) then
      return query select 'unknown_bet', null::json;
      return;
    end if;
    answer := private.sportsbook_answer(transaction_id, bet_id, 'discarded', null, null, null);
    insert into public.round_transaction
      (provider_id, transaction_id, kind, client_id, round_id, amount, related_transaction_id, request_fingerprint, response_body)
    values (began.provider_id, transaction_id, 'sportsbook_discard', null, null, 0, bet_id, request_fingerprint, answer);
    return query select 'ok'::text, answer;
    return;
  end if;
  if bet.status not in ('reserved', 'discarded') then
    return query select 'bet_not_reserved', null::json;
    return;
  end if;
  select * into s from public.game_session gs where gs.id = round.session_id;
  if bet.status = 'reserved' then
    select * into given from private.sportsbook_give_back(round, bet, transaction_id, 'discarded');
    if given.refusal is not null then
      return query select given.refusal, null::json;
      return;
    end if;
    balance := given.balance;
    ledger_id := given.ledger_id;
    refunded := bet.stake;
  else
    balance := private.balance_of(s, round.currency_code);
  end if;
  select * into bet from public.sportsbook_bet b where b.round_id = round.id;
  answer := private.sportsbook_answer(transaction_id, bet_id, 'discarded', bet, balance, round.currency_code);
  insert into public.round_transaction
    (provider_id, transaction_id, kind, client_id, round_id, amount, related_transaction_id, ledger_transaction_id,
     request_fingerprint, response_body)
  values (began.provider_id, transaction_id, 'sportsbook_discard', round.client_id, round.id, refunded, bet_id,
          ledger_id, request_fingerprint, answer);
  return query select 'ok'::text, answer;
end;
$$;
revoke execute on function private.sportsbook_discard from public, anon, authenticated, service_role;

-- POST .../bets/{bet_id}/settlements: the bet now pays `payout` (absolute), with `result`; a
-- settled bet is resettled. Only the difference from the payout in force moves.
create function private.sportsbook_settle(
  key_hash text, bet_id text, transaction_id text, result text, payout numeric, request_fingerprint text
) returns table (outcome text, body json)
language plpgsql
set search_path = ''
as $$
#variable_conflict use_variable
declare
  began record;
  round public.game_round;
  bet public.sportsbook_bet;
  moved record;
  s public.game_session;
  was text;
  answer json;
begin
  select * into began from private.sportsbook_start(key_hash, transaction_id, request_fingerprint);
  if began.outcome is not null then
    return query select began.outcome, began.body;
    return;
  end if;
  -- An unsettle named this settlement before it came: it stays undone.
  if exists (select 1 from public.round_transaction t
             where t.provider_id = began.provider_id and t.kind = 'sportsbook_unsettle'
               and t.related_transaction_id = transaction_id) then
    return query select 'settlement_cancelled', null::json;
    return;
  end if;
  select * into round from public.game_round r
  where r.provider_id = began.provider_id and r.provider_round_id = bet_id
  for update;
  select * into bet from public.sportsbook_bet b where b.round_id = round.id;
  if bet.round_id is null then
    return query select 'unknown_bet', null::json;
    return;
  end if;
  perform private.sportsbook_lock_debts(round);
  select * into bet from public.sportsbook_bet b where b.round_id = round.id for update;
  was := bet.status;
  if was in ('reserved', 'discarded', 'closed') then
    return query select 'bet_' || was, null::json;
    return;
  end if;
  if payout > bet.potential_payout then
    return query select 'invalid_settlement',
                        json_build_object('reason', 'payout_above_potential', 'potential_payout', bet.potential_payout::text);
    return;
  end if;
  if (result = 'lost' and payout <> 0) or (result = 'won' and payout = 0) or (result = 'void' and payout <> bet.stake) then
    return query select 'invalid_settlement',
                        json_build_object('reason', 'result_payout_mismatch', 'stake', bet.stake::text);
    return;
  end if;
  select * into s from public.game_session gs where gs.id = round.session_id;
  select * into moved from private.sportsbook_move(round, bet, s, payout, transaction_id,
    jsonb_build_object('type', 'settlement', 'transaction_id', transaction_id, 'result', result));
  if moved.refusal is not null then
    return query select moved.refusal, null::json;
    return;
  end if;
  update public.sportsbook_bet b
  set status = 'settled', result = sportsbook_settle.result, settlement_transaction_id = transaction_id, settled_at = now()
  where b.round_id = round.id
  returning b.* into bet;
  answer := private.sportsbook_answer(transaction_id, bet_id, 'settled', bet, moved.balance, round.currency_code);
  insert into public.round_transaction
    (provider_id, transaction_id, kind, client_id, round_id, amount, ledger_transaction_id, request_fingerprint, response_body)
  values (began.provider_id, transaction_id, 'sportsbook_settle', round.client_id, round.id, payout,
          moved.ledger_id, request_fingerprint, answer);
  perform private.emit_event(bet.client_id, bet.livemode,
                             case when was = 'open' then 'sportsbook.bet.settled' else 'sportsbook.bet.resettled' end,
                             private.sportsbook_bet_json(round.id));
  if moved.owed_added > 0 then
    perform private.sportsbook_report_owed(bet, round, moved.owed_added);
  end if;
  return query select 'ok'::text, answer;
end;
$$;
revoke execute on function private.sportsbook_settle from public, anon, authenticated, service_role;

-- POST .../bets/{bet_id}/unsettle: the bet is open again and what it paid is taken back. Naming the
-- settlement it undoes (`settlement_transaction_id`): of a settlement nobody has seen, a tombstone
-- (answered OK, and that settlement is refused when it comes); of one a later settlement has
-- replaced, nothing changes. Naming none: the settlement in force, and an unsettled bet is refused.
create function private.sportsbook_unsettle(
  key_hash text, bet_id text, transaction_id text, settlement_transaction_id text, request_fingerprint text
) returns table (outcome text, body json)
language plpgsql
set search_path = ''
as $$
#variable_conflict use_variable
declare
  began record;
  round public.game_round;
  bet public.sportsbook_bet;
  moved record;
  named public.round_transaction;
  s public.game_session;
  answer json;
  balance text;
  ledger_id uuid;
  cancelled numeric;
  owed_added numeric := 0;
begin
  select * into began from private.sportsbook_start(key_hash, transaction_id, request_fingerprint, settlement_transaction_id);
  if began.outcome is not null then
    return query select began.outcome, began.body;
    return;
  end if;
  select * into round from public.game_round r
  where r.provider_id = began.provider_id and r.provider_round_id = bet_id
  for update;
  select * into bet from public.sportsbook_bet b where b.round_id = round.id;
  if bet.round_id is null then
    if settlement_transaction_id is null
       or exists (select 1 from public.game_round r where r.provider_id = began.provider_id and r.provider_round_id = bet_id) then
      return query select 'unknown_bet', null::json;
      return;
    end if;
    answer := private.sportsbook_answer(transaction_id, bet_id, null, null, null, null);
    insert into public.round_transaction
      (provider_id, transaction_id, kind, client_id, round_id, amount, related_transaction_id, request_fingerprint, response_body)
    values (began.provider_id, transaction_id, 'sportsbook_unsettle', null, null, 0, settlement_transaction_id,
            request_fingerprint, answer);
    return query select 'ok'::text, answer;
    return;
  end if;
  perform private.sportsbook_lock_debts(round);
  select * into bet from public.sportsbook_bet b where b.round_id = round.id for update;
  if bet.status in ('reserved', 'discarded', 'closed') then
    return query select 'bet_' || bet.status, null::json;
    return;
  end if;
  if settlement_transaction_id is not null then
    select * into named from public.round_transaction t
    where t.provider_id = began.provider_id and t.transaction_id = settlement_transaction_id;
    if named.id is not null and (named.kind <> 'sportsbook_settle' or named.round_id <> round.id) then
      return query select 'unknown_transaction', null::json;
      return;
    end if;
  elsif bet.status <> 'settled' then
    return query select 'bet_not_settled', null::json;
    return;
  end if;
  select * into s from public.game_session gs where gs.id = round.session_id;
  if settlement_transaction_id is null or bet.settlement_transaction_id = settlement_transaction_id then
    select * into moved from private.sportsbook_move(round, bet, s, 0, transaction_id,
      jsonb_build_object('type', 'unsettlement', 'transaction_id', transaction_id, 'result', null));
    if moved.refusal is not null then
      return query select moved.refusal, null::json;
      return;
    end if;
    cancelled := bet.payout;
    update public.sportsbook_bet b
    set status = 'open', result = null, settlement_transaction_id = null
    where b.round_id = round.id
    returning b.* into bet;
    balance := moved.balance;
    ledger_id := moved.ledger_id;
    owed_added := moved.owed_added;
  else
    balance := private.balance_of(s, round.currency_code);
  end if;
  answer := private.sportsbook_answer(transaction_id, bet_id, bet.status, bet, balance, round.currency_code);
  insert into public.round_transaction
    (provider_id, transaction_id, kind, client_id, round_id, amount, related_transaction_id, ledger_transaction_id,
     request_fingerprint, response_body)
  values (began.provider_id, transaction_id, 'sportsbook_unsettle', round.client_id, round.id,
          coalesce(cancelled, 0), settlement_transaction_id, ledger_id, request_fingerprint, answer);
  if cancelled is not null then
    perform private.emit_event(bet.client_id, bet.livemode, 'sportsbook.bet.unsettled',
                               private.sportsbook_bet_json(round.id));
    if owed_added > 0 then
      perform private.sportsbook_report_owed(bet, round, owed_added);
    end if;
  end if;
  return query select 'ok'::text, answer;
end;
$$;
revoke execute on function private.sportsbook_unsettle from public, anon, authenticated, service_role;

-- POST .../bets/{bet_id}/close: a settled bet is final and takes nothing more (what it owes is still
-- taken from the player's next payouts). Of a closed bet, nothing changes.
create function private.sportsbook_close(key_hash text, bet_id text, transaction_id text, request_fingerprint text)
returns table (outcome text, body json)
language plpgsql
set search_path = ''
as $$
#variable_conflict use_variable
declare
  began record;
  round public.game_round;
  bet public.sportsbook_bet;
  s public.game_session;
  answer json;
begin
  select * into began from private.sportsbook_start(key_hash, transaction_id, request_fingerprint);
  if began.outcome is not null then
    return query select began.outcome, began.body;
    return;
  end if;
  select * into round from public.game_round r
  where r.provider_id = began.provider_id and r.provider_round_id = bet_id
  for update;
  select * into bet from public.sportsbook_bet b where b.round_id = round.id;
  if bet.round_id is null then
    return query select 'unknown_bet', null::json;
    return;
  end if;
  if bet.status in ('reserved', 'discarded') then
    return query select 'bet_' || bet.status, null::json;
    return;
  end if;
  if bet.status = 'open' then
    return query select 'bet_not_settled', null::json;
    return;
  end if;
  if bet.status = 'settled' then
    update public.sportsbook_bet b set status = 'closed', closed_at = now()
    where b.round_id = round.id
    returning b.* into bet;
    perform private.emit_event(bet.client_id, bet.livemode, 'sportsbook.bet.closed',
                               private.sportsbook_bet_json(round.id));
  end if;
  select * into s from public.game_session gs where gs.id = round.session_id;
  answer := private.sportsbook_answer(transaction_id, bet_id, 'closed', bet,
                                      private.balance_of(s, round.currency_code), round.currency_code);
  insert into public.round_transaction
    (provider_id, transaction_id, kind, client_id, round_id, amount, request_fingerprint, response_body)
  values (began.provider_id, transaction_id, 'sportsbook_close', round.client_id, round.id, 0,
          request_fingerprint, answer);
  return query select 'ok'::text, answer;
end;
$$;
revoke execute on function private.sportsbook_close from public, anon, authenticated, service_role;

-- Reserved bets neither committed nor discarded within the setting `sportsbook.reserve_minutes`
-- (15 by default) are discarded by the engine, each a discard in the bet's transactions
-- (cgs-discard-<bet's id>), and reported (sportsbook.bet.discarded, reason `expired`). A batch at a
-- time; any number of callers at once.
create function private.sportsbook_discard_expired(batch int default 100) returns int
language plpgsql
set search_path = ''
as $$
declare
  after interval := make_interval(mins => coalesce(
    (select (s.value #>> '{}')::int from public.app_setting s where s.key = 'sportsbook.reserve_minutes'), 15));
  expired record;
  round public.game_round;
  bet public.sportsbook_bet;
  given record;
  done int := 0;
  tx text;
begin
  for expired in
    select b.round_id from public.sportsbook_bet b
    where b.status = 'reserved' and b.placed_at < now() - after
    order by b.placed_at
    limit sportsbook_discard_expired.batch
  loop
    select * into round from public.game_round r where r.id = expired.round_id for update skip locked;
    continue when round.id is null;
    select * into bet from public.sportsbook_bet b where b.round_id = round.id;
    continue when bet.status <> 'reserved';
    tx := 'cgs-discard-' || round.id;
    select * into given from private.sportsbook_give_back(round, bet, tx, 'expired');
    -- A bet whose stake cannot be given back now (its test player is gone) stays for staff.
    continue when given.refusal is not null;
    insert into public.round_transaction
      (provider_id, transaction_id, kind, client_id, round_id, amount, related_transaction_id, ledger_transaction_id,
       request_fingerprint, response_body)
    values (round.provider_id, tx, 'sportsbook_discard', round.client_id, round.id, bet.stake, round.provider_round_id,
            given.ledger_id, encode(extensions.digest(tx, 'sha256'), 'hex'),
            private.sportsbook_answer(tx, round.provider_round_id, 'discarded',
                                      (select b from public.sportsbook_bet b where b.round_id = round.id),
                                      given.balance, round.currency_code));
    done := done + 1;
  end loop;
  return done;
end;
$$;
revoke execute on function private.sportsbook_discard_expired from public, anon, authenticated, service_role;

-- ============================================================================================
-- The operator API's reads (GET /v3/sportsbook/bets, GET /v3/sportsbook/bets/{id}): the caller's
-- bets in its key's mode, newest first; `authorized` false (nothing else set) for a key that does
-- not authenticate. JSON leaves as text, put into the response as it is.
-- ============================================================================================
create function private.list_sportsbook_bets(
  key_hash text, status text, player_id text, settled_after timestamptz, before_placed timestamptz, before_id uuid,
  page_size int
) returns table (authorized boolean, id uuid, "position" text, bet text)
language plpgsql stable
set search_path = ''
as $$
begin
  return query
  select a.key_id is not null, b.round_id, to_char(b.placed_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
         private.sportsbook_bet_json(b.round_id)::text
  from (select 1) one
  left join private.authenticate_api_key(list_sportsbook_bets.key_hash) a on true
  left join lateral (
    select b.round_id, b.placed_at from public.sportsbook_bet b
    where b.client_id = a.client_id and b.livemode = a.livemode
      and (list_sportsbook_bets.status is null or b.status = list_sportsbook_bets.status)
      and (list_sportsbook_bets.player_id is null or b.player_id = list_sportsbook_bets.player_id)
      and (list_sportsbook_bets.settled_after is null or b.settled_at > list_sportsbook_bets.settled_after)
      and (list_sportsbook_bets.before_placed is null
           or (b.placed_at, b.round_id) < (list_sportsbook_bets.before_placed, list_sportsbook_bets.before_id))
    order by b.placed_at desc, b.round_id desc
    limit list_sportsbook_bets.page_size
  ) b on true;
end;
$$;
revoke execute on function private.list_sportsbook_bets from public, anon, authenticated, service_role;

create function private.read_sportsbook_bet(key_hash text, bet_id uuid)
returns table (outcome text, bet text)
language plpgsql stable
set search_path = ''
as $$
begin
  return query
  select case when a.key_id is null then 'unauthorized' when b.round_id is null then 'not_found' else 'found' end,
         case when b.round_id is not null then private.sportsbook_bet_json(b.round_id)::text end
  from (select 1) one
  left join private.authenticate_api_key(read_sportsbook_bet.key_hash) a on true
  left join public.sportsbook_bet b on b.round_id = read_sportsbook_bet.bet_id and b.client_id = a.client_id
    and b.livemode = a.livemode;
end;
$$;
revoke execute on function private.read_sportsbook_bet from public, anon, authenticated, service_role;

-- ============================================================================================
-- Policies
-- ============================================================================================
create policy "clients read their own sportsbook bets"
  on public.sportsbook_bet for select to authenticated
  using (client_id = (select private.uid()));

create policy "staff read all sportsbook bets"
  on public.sportsbook_bet for select to staff
  using (true);
