-- Free rounds, second part (issue 34): the provider plays them through the round engine
-- (../shared/design/bonuses-and-sportsbook.md, "Free rounds").
--
-- - A free bet (POST /v3/provider/bets with `free_round_grant_id`) must equal its grant's
--   bet_amount, uses one of its rounds in the same transaction (the grant's row locked, so rounds
--   are counted once however many arrive at once) and moves no money: no ledger row, and in
--   seamless mode no debit (the answer's balance is the operator's, asked with a balance call
--   first: outcome `wallet_balance`). Refused, writing nothing, when the grant is unknown (or
--   another client's or mode's), another player's, for another game or currency, used up, expired
--   (private.free_round_grant_status at the bet's instant: no job has to have run), of a
--   cancelled or not yet started campaign, or for another stake. Its first round locks the grant's
--   game. Restrictions apply as to any bet (a self-excluded player plays none); a free bet is no
--   stake for stake or loss limits (counted as 0 and not at all).
-- - A round is funded by cash or by one grant, never both (game_round.free_round_grant_id, fixed
--   by its first bet): a cash bet on a free round, or a free bet or a win naming another grant, is
--   `free_round_mismatch`. Each round transaction records what funded it
--   (round_transaction.free_round_grant_id, null for cash), as platform.md asks of the engine.
-- - A win of a free round settles its bets like any win. `per_round` games: it is credited as a
--   `win` (transfer: the ledger; seamless: a credit call naming the grant, `free_round: {grant_id,
--   campaign_external_id}`), capped so the grant's total_win never passes max_win (the rest goes to
--   capped_win, recorded and never paid). `lump_sum` games: free wins are tracking only; the
--   grant's one credit is POST /v3/provider/free-rounds/{grant_id}/payout (private.free_round_payout),
--   applied once, forever, by its transaction_id like every provider call, capped the same way.
--   A free round's totals are money: total_bet stays 0, total_win is what it paid.
-- - A rollback of a free bet gives its round back while the grant can still be played (otherwise
--   the round stays used); it moves no money and calls no wallet.
-- - A round in play settles whatever happens to its grant: its wins and rollbacks are taken after
--   a cancel or past the expiry. A grant is completed when every round is used and settled
--   (per_round) or at its payout (lump_sum); one of a cancelled campaign ends `cancelled` when
--   its last open round settles (or at the cancel, when none is open).
-- - Win limits (held wins) do not apply to free rounds: max_win caps them.
-- - GET /v3/provider/free-rounds: a session's usable grants (private.session_free_rounds).
-- - private.record_free_round_ends, called by the delivery runner, records expired grants and ended
--   campaigns (their events); correctness never waits for it.
--
-- Replaces private.round_bet and private.round_win (the lean engine migration; dropped and made
-- again: each takes a grant now, `free_round_grant_id uuid default null` last, so every caller
-- that named none is unchanged), private.round_rollback (the lean engine migration), and from the
-- free rounds migration private.free_round_grant_json (rounds_left is 0 once its campaign is
-- cancelled) and private.free_round_campaign_call (a cancel also ends the grants in play with no
-- round open), and private.resolve_round (the round engine migration: staff cannot cancel a free
-- round, which took no money to give back; closing one settles its bets for its grant). The cash path is the lean engine's, statement for statement: what it adds reads
-- fields of rows it already reads (the round's grant), and the free path is a function of its own.
-- No foreign key on the new columns, as the lean engine dropped the others of this path: the
-- engine writes them from the grant row it has locked, and a client's deletion reaches them
-- through their rounds.

-- ============================================================================================
-- Columns
-- ============================================================================================
alter table public.round_transaction add column free_round_grant_id uuid;
comment on column public.round_transaction.free_round_grant_id is
  'The free-round grant that funded it (null: cash). A free bet moved no money; a free win moved what its ledger row or credit call says.';
alter table public.game_round add column free_round_grant_id uuid;
comment on column public.game_round.free_round_grant_id is
  'The free-round grant whose round this is (null: a cash round), fixed by its first bet.';

alter table public.free_round_grant
  -- Free bets neither settled by a win nor rolled back: the rounds in play.
  add column rounds_open int not null default 0,
  -- The round of its latest free bet: where its lump-sum payout is recorded, in that session.
  add column last_round_id uuid,
  -- When its lump-sum payout was applied: once, forever.
  add column paid_out_at timestamptz,
  add constraint free_round_grant_rounds_open check (rounds_open between 0 and rounds_used);

-- The scheduled job's reads: grants not finished, by expiry; campaigns whose end is not recorded.
create index free_round_grant_unfinished_idx on public.free_round_grant (expires_at)
  where status in ('pending', 'in_progress');
create index free_round_campaign_unrecorded_end_idx on public.free_round_campaign (valid_until)
  where ended_recorded_at is null and cancelled_at is null;

-- ============================================================================================
-- Helper functions
-- ============================================================================================

-- A grant as the operator API shows it (the rule replaced: rounds_left counted the rounds of a
-- grant in play after its campaign was cancelled, which no free bet can use).
create or replace function private.free_round_grant_json(g public.free_round_grant, at timestamptz) returns text
language sql stable
set search_path = ''
as $$
  select json_build_object(
    'id', g.id, 'campaign_id', g.campaign_id, 'campaign_external_id', c.external_id, 'player_id', g.player_id,
    'game_id', case when g.game is not null then gp.slug || ':' || g.game end,
    'currency', c.currency_code, 'bet_amount', c.bet_amount::text,
    'rounds_total', g.rounds_total, 'rounds_used', g.rounds_used,
    'rounds_left', case when private.free_round_grant_status(g.status, g.expires_at, at) in ('pending', 'in_progress')
                             and c.cancelled_at is null and g.paid_out_at is null
                        then g.rounds_total - g.rounds_used else 0 end,
    'total_win', g.total_win::text, 'status', private.free_round_grant_status(g.status, g.expires_at, at),
    'expires_at', g.expires_at, 'livemode', g.livemode, 'created_at', g.created_at, 'updated_at', g.updated_at)::text
  from public.free_round_campaign c
  join public.game_provider gp on gp.id = c.provider_id
  where c.id = g.campaign_id;
$$;
revoke execute on function private.free_round_grant_json from public, anon, authenticated, service_role;

-- Whether a grant's game pays per round (true) or in one sum at the end (false): its catalogue
-- terms. A game whose terms are gone pays per round (what was won is paid as it comes).
create function private.free_round_per_round(provider_id uuid, game text) returns boolean
language sql stable
set search_path = ''
as $$
  select coalesce((select f.payout_mode = 'per_round' from public.game gm
                   join public.game_free_rounds f on f.game_id = gm.id
                   where gm.provider_id = free_round_per_round.provider_id and gm.code = free_round_per_round.game), true);
$$;
revoke execute on function private.free_round_per_round from public, anon, authenticated, service_role;

-- What a free win pays: `amount` up to what max_win leaves the grant (all of it without max_win).
create function private.free_round_pay(amount numeric, total_win numeric, max_win numeric) returns numeric
language sql immutable
set search_path = ''
as $$
  select case when max_win is null then amount else least(amount, greatest(max_win - total_win, 0)) end;
$$;
revoke execute on function private.free_round_pay from public, anon, authenticated, service_role;

-- The operator's balance as a seamless free round last heard it, for an answer that calls no
-- wallet: its latest accepted call, else the latest answer of the round (its free bet's, which
-- asked the operator).
create function private.free_round_known_balance(round_id uuid) returns text
language sql stable
set search_path = ''
as $$
  select coalesce(private.round_wallet_balance(free_round_known_balance.round_id),
                  (select t.response_body ->> 'balance' from public.round_transaction t
                   where t.round_id = free_round_known_balance.round_id and t.response_body is not null
                   order by t.created_at desc limit 1));
$$;
revoke execute on function private.free_round_known_balance from public, anon, authenticated, service_role;

-- Free bets of a locked grant leave play: `settled` settled by a win (or closed by staff), of which
-- `given_back` rolled back with their round given back. The grant is completed when every round is
-- used and none is open (per round; a lump-sum grant completes at its payout), and cancelled when
-- its campaign was and nothing is open any more. A recorded completed, expired or cancelled stays.
create function private.free_round_release(g public.free_round_grant, settled int, given_back int) returns void
language plpgsql
set search_path = ''
as $$
declare
  open_now int := g.rounds_open - settled;
  used_now int := g.rounds_used - given_back;
begin
  if settled = 0 and given_back = 0 then
    return;
  end if;
  update public.free_round_grant x
  set rounds_open = open_now, rounds_used = used_now,
      status = case when x.status not in ('pending', 'in_progress') or open_now > 0 then x.status
                    when used_now = x.rounds_total and private.free_round_per_round(c.provider_id, x.game) then 'completed'
                    when c.cancelled_at is not null then 'cancelled'
                    else x.status end
  from public.free_round_campaign c
  where x.id = g.id and c.id = x.campaign_id;
end;
$$;
revoke execute on function private.free_round_release from public, anon, authenticated, service_role;

-- ============================================================================================
-- The engine (see the round engine migration for the rules and the outcomes; the free rules above)
-- ============================================================================================

-- A free bet, from round_bet once the caller, the session and the player's restrictions have
-- passed: locks in the engine's order (the round, then the grant), every refusal before any write.
create function private.free_round_bet(
  provider_id uuid, s public.game_session, seamless boolean, grant_id uuid, transaction_id text, round_id text,
  amount numeric, round_closed boolean, request_fingerprint text, wallet_balance text
) returns table (outcome text, body json, balance text)
language plpgsql
set search_path = ''
as $$
#variable_conflict use_variable
declare
  round public.game_round;
  g public.free_round_grant;
  campaign public.free_round_campaign;
  refusal text;
  balance_after text;
begin
  perform pg_advisory_xact_lock(hashtextextended(provider_id::text || ' round ' || round_id, 0));
  select * into round from public.game_round r
  where r.provider_id = provider_id and r.provider_round_id = round_id
  for update;
  if round.id is not null and round.session_id <> s.id then
    return query select 'round_mismatch', null::json, null::text;
    return;
  end if;
  if round.status in ('closed', 'cancelled') then
    return query select 'round_closed', null::json, null::text;
    return;
  end if;
  if round.id is not null and round.free_round_grant_id is distinct from grant_id then
    return query select 'free_round_mismatch', null::json, null::text;
    return;
  end if;
  seamless := coalesce(round.wallet_mode = 'seamless', seamless);

  -- The grant's row lock: its rounds are counted under it, so concurrent free bets use each once.
  select * into g from public.free_round_grant x
  where x.id = grant_id and x.client_id = s.client_id and x.livemode = s.livemode
  for update;
  if g.id is null then
    return query select 'free_round_grant_unknown', null::json, null::text;
    return;
  end if;
  if g.player_id <> s.player_id then
    return query select 'free_round_wrong_player', null::json, null::text;
    return;
  end if;
  select * into campaign from public.free_round_campaign c where c.id = g.campaign_id;
  refusal := case
    when campaign.cancelled_at is not null or g.status = 'cancelled' then 'free_round_campaign_cancelled'
    when private.free_round_grant_status(g.status, g.expires_at, now()) = 'expired' then 'free_round_grant_expired'
    when now() < campaign.valid_from then 'free_round_campaign_scheduled'
    when g.status = 'completed' or g.paid_out_at is not null or g.rounds_used >= g.rounds_total then 'free_rounds_exhausted'
    when campaign.provider_id <> provider_id or not (s.game = any (campaign.games)) or g.game <> s.game
      or campaign.currency_code <> s.currency_code then 'free_round_wrong_game'
    when amount <> campaign.bet_amount then 'free_round_stake_mismatch'
  end;
  if refusal is not null then
    return query select refusal, null::json, null::text;
    return;
  end if;
  -- Seamless: no debit, but the answer says the operator's balance: the route asks for it with a
  -- balance call and sends the bet again with it (nothing is written until then).
  if seamless and wallet_balance is null then
    return query select 'wallet_balance',
                        private.wallet_call_json(null, 0, s.client_id, s.livemode, private.wallet_request(s, 'balance', '{}')),
                        null::text;
    return;
  end if;
  balance_after := case when seamless then wallet_balance::numeric(20, 4)::text else private.balance_of(s, s.currency_code) end;

  if s.status = 'created' then
    update public.game_session gs set status = 'active' where gs.id = s.id;
  end if;
  if round.id is null then
    insert into public.game_round as r
      (provider_id, provider_round_id, client_id, livemode, session_id, player_id, game, currency_code, wallet_mode,
       status, closed_at, free_round_grant_id)
    values (provider_id, round_id, s.client_id, s.livemode, s.id, s.player_id, s.game, s.currency_code,
            case when seamless then 'seamless' else 'transfer' end,
            case when round_closed then 'closed' else 'open' end, case when round_closed then now() end, g.id)
    returning r.* into round;
    if round_closed then
      perform private.emit_event(s.client_id, s.livemode, 'round.closed',
                                 (select e.round::jsonb from private.round_entry e where e.id = round.id));
    end if;
  elsif round_closed then
    update public.game_round r set status = 'closed', closed_at = now() where r.id = round.id;
  end if;
  -- One round used; in play until a win settles it, unless this bet closed its round (lost).
  update public.free_round_grant x
  set rounds_used = x.rounds_used + 1,
      rounds_open = x.rounds_open + case when round_closed then 0 else 1 end,
      game = coalesce(x.game, s.game),
      last_round_id = round.id,
      status = 'in_progress'
  where x.id = g.id
  returning x.* into g;
  if round_closed then
    update public.free_round_grant x
    set status = 'completed'
    where x.id = g.id and x.rounds_open = 0 and x.rounds_used = x.rounds_total
      and private.free_round_per_round(provider_id, x.game);
  end if;
  return query
    insert into public.round_transaction as t
      (provider_id, transaction_id, kind, client_id, round_id, amount, settled, request_fingerprint, response_body,
       free_round_grant_id)
    values (provider_id, transaction_id, 'bet', s.client_id, round.id, amount, round_closed, request_fingerprint,
            json_build_object('transaction_id', transaction_id, 'round_id', round_id,
                              'balance', balance_after, 'currency', s.currency_code),
            g.id)
    returning 'ok'::text, t.response_body, balance_after;
end;
$$;
revoke execute on function private.free_round_bet from public, anon, authenticated, service_role;

drop function private.round_bet(text, uuid, text, text, numeric, boolean, text);
create function private.round_bet(
  key_hash text,
  session_id uuid,
  transaction_id text,
  round_id text,
  amount numeric,
  round_closed boolean,
  request_fingerprint text,
  free_round_grant_id uuid default null,
  wallet_balance text default null
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
  refusal text;
  seamless boolean;
  ledger public.transaction;
  bet public.round_transaction;
begin
  select * into c from private.round_caller(key_hash, session_id);
  if c.provider_id is null then
    return query select 'invalid_provider_key', null::json, null::text;
    return;
  end if;
  s := c.session;
  if s.id is null then
    return query select 'unknown_session', null::json, null::text;
    return;
  end if;
  -- A repeat waits for the first call with its transaction_id, then replays its answer.
  perform pg_advisory_xact_lock(hashtextextended(c.provider_id::text || ' tx ' || transaction_id, 0));
  select * into replay from private.round_replay(c.provider_id, transaction_id, request_fingerprint);
  if replay.outcome is not null then
    return query select replay.outcome, replay.body, null::text;
    return;
  end if;
  if exists (select 1 from public.round_transaction t
             where t.provider_id = c.provider_id and t.kind = 'rollback'
               and t.related_transaction_id = round_bet.transaction_id) then
    return query select 'transaction_rolled_back', null::json, null::text;
    return;
  end if;
  -- The wallet mode, under its shared lock held to the end (a mode change waits for this bet).
  seamless := private.lock_wallet_mode(s.client_id, s.livemode, false) = 'seamless';
  -- A suspended or closed client's sessions take no new bets; wins, rollbacks and staff settlements
  -- of what was played still settle, so no player loses money.
  if not c.client_active then
    return query select 'operator_suspended', null::json, null::text;
    return;
  end if;
  if s.status = 'closed' then
    return query select 'session_closed', null::json, null::text;
    return;
  end if;
  if s.status = 'created' and s.expires_at <= now() then
    return query select 'session_expired', null::json, null::text;
    return;
  end if;
  if c.may_refuse then
    -- A free bet is no stake: judged as one of 0 (a self-exclusion or the session's time still refuse it).
    refusal := private.player_refusal(s.client_id, s.livemode, s.player_id, s.id, s.currency_code, s.jurisdiction,
                                      s.created_at, case when free_round_grant_id is null then amount else 0 end);
    if refusal is not null then
      return query select refusal, null::json, null::text;
      return;
    end if;
  end if;
  if free_round_grant_id is not null then
    return query select * from private.free_round_bet(c.provider_id, s, seamless, free_round_grant_id, transaction_id,
                                                      round_id, amount, round_closed, request_fingerprint, wallet_balance);
    return;
  end if;

  -- One first bet at a time per round: two at once must not both create it.
  perform pg_advisory_xact_lock(hashtextextended(c.provider_id::text || ' round ' || round_bet.round_id, 0));
  select * into round from public.game_round r
  where r.provider_id = c.provider_id and r.provider_round_id = round_bet.round_id
  for update;
  if round.id is not null and round.session_id <> s.id then
    return query select 'round_mismatch', null::json, null::text;
    return;
  end if;
  if round.status in ('closed', 'cancelled') then
    return query select 'round_closed', null::json, null::text;
    return;
  end if;
  -- A free round takes free bets of its grant only.
  if round.free_round_grant_id is not null then
    return query select 'free_round_mismatch', null::json, null::text;
    return;
  end if;
  seamless := coalesce(round.wallet_mode = 'seamless', seamless);

  if not seamless then
    if c.available is null and not s.livemode then
      return query select 'test_player_unknown', null::json, null::text;
      return;
    end if;
    if c.test_refusal is not null then
      return query select c.test_refusal, null::json, null::text;
      return;
    end if;
    if coalesce(c.available, 0) < amount then
      return query select 'insufficient_funds',
                          json_build_object('balance', coalesce(c.available, 0)::numeric(20, 4)::text, 'currency', s.currency_code),
                          null::text;
      return;
    end if;
  end if;
  -- A round's totals and a balance hold 16 digits before the point.
  if coalesce(round.total_bet, 0) + amount >= 1e16 then
    return query select 'amount_too_large', null::json, null::text;
    return;
  end if;
  -- The player's loss limits: the bet that would cross one is refused, and counted otherwise.
  if c.loss_limits is not null then
    refusal := private.count_loss(s.client_id, s.livemode, s.player_id, s.currency_code, amount, true);
    if refusal is not null then
      perform private.record_refusal(s.client_id, s.livemode, s.player_id, s.id, refusal, amount);
      return query select refusal, null::json, null::text;
      return;
    end if;
  end if;

  if s.status = 'created' then
    update public.game_session gs set status = 'active' where gs.id = s.id;
  end if;
  -- Seamless: the bet waits for the operator's debit, which finish_wallet_call applies to the round.
  if seamless then
    if round.id is null then
      insert into public.game_round as r
        (provider_id, provider_round_id, client_id, livemode, session_id, player_id, game, currency_code, wallet_mode)
      values (c.provider_id, round_bet.round_id, s.client_id, s.livemode, s.id, s.player_id, s.game, s.currency_code,
              'seamless')
      returning r.* into round;
    end if;
    insert into public.round_transaction as t
      (provider_id, transaction_id, kind, client_id, round_id, amount, request_fingerprint)
    values (c.provider_id, transaction_id, 'bet', s.client_id, round.id, amount, request_fingerprint)
    returning t.* into bet;
    return query select * from private.queue_wallet_call(bet, s, 'debit', jsonb_build_object(
      'transaction_id', transaction_id, 'round_id', round_bet.round_id, 'amount', amount::numeric(20, 4)::text,
      'round_closed', round_closed));
    return;
  end if;

  if round.id is null then
    insert into public.game_round as r
      (provider_id, provider_round_id, client_id, livemode, session_id, player_id, game, currency_code, wallet_mode,
       total_bet, status, closed_at)
    values (c.provider_id, round_bet.round_id, s.client_id, s.livemode, s.id, s.player_id, s.game, s.currency_code,
            'transfer', amount, case when round_closed then 'closed' else 'open' end,
            case when round_closed then now() end)
    returning r.* into round;
    -- Closed by its first bet: no update closes it, so the event game_round_event would send is sent here.
    if round_closed then
      perform private.emit_event(s.client_id, s.livemode, 'round.closed',
                                 (select e.round::jsonb from private.round_entry e where e.id = round.id));
    end if;
  else
    update public.game_round r
    set total_bet = r.total_bet + amount,
        status = case when round_closed then 'closed' else r.status end,
        closed_at = case when round_closed then now() end
    where r.id = round.id;
  end if;
  -- The float's (or test player's) row is locked here, for the last two writes and the commit.
  ledger := private.move_money(s, s.currency_code, 'bet', -amount,
                                format('round %s, bet %s', round_bet.round_id, round_bet.transaction_id));
  return query
    insert into public.round_transaction as t
      (provider_id, transaction_id, kind, client_id, round_id, amount, ledger_transaction_id, request_fingerprint,
       response_body)
    values (c.provider_id, transaction_id, 'bet', s.client_id, round.id, amount, ledger.id, request_fingerprint,
            json_build_object('transaction_id', transaction_id, 'round_id', round_bet.round_id,
                              'balance', ledger.balance_after::text, 'currency', s.currency_code))
    returning 'ok'::text, t.response_body, ledger.balance_after::text;
end;
$$;
revoke execute on function private.round_bet from public, anon, authenticated, service_role;

-- A win of a free round, from round_win once the round, the bet it names and (seamless) its debits
-- have passed: the grant locked after the round and its bets, then the float last.
create function private.free_round_win(
  c_available numeric, c_loss_limits jsonb, s public.game_session, round public.game_round, bet public.round_transaction,
  transaction_id text, amount numeric, round_closed boolean, bet_transaction_id text, request_fingerprint text
) returns table (outcome text, body json, balance text)
language plpgsql
set search_path = ''
as $$
#variable_conflict use_variable
declare
  g public.free_round_grant;
  campaign public.free_round_campaign;
  seamless boolean := round.wallet_mode = 'seamless';
  per_round boolean := private.free_round_per_round(round.provider_id, round.game);
  paid numeric;
  settled_now int;
  ledger public.transaction;
  balance_after text;
  win public.round_transaction;
begin
  select * into g from public.free_round_grant x where x.id = round.free_round_grant_id for update;
  select * into campaign from public.free_round_campaign x where x.id = g.campaign_id;
  -- Lump sum: the win is tracking only; per round: paid up to what max_win leaves.
  paid := case when per_round then private.free_round_pay(amount, g.total_win, campaign.max_win) else 0 end;
  if paid > 0 and seamless then
    if round.total_win + paid >= 1e16 then
      return query select 'amount_too_large', null::json, null::text;
      return;
    end if;
  elsif paid > 0 then
    if c_available is null and not s.livemode then
      return query select 'test_player_unknown', null::json, null::text;
      return;
    end if;
    if round.total_win + paid >= 1e16 or coalesce(c_available, 0) + paid >= 1e16 then
      return query select 'amount_too_large', null::json, null::text;
      return;
    end if;
  end if;
  update public.round_transaction t set settled = true
  where t.round_id = round.id and t.kind = 'bet' and not t.rolled_back and not t.settled
    and (bet.id is null or t.id = bet.id);
  get diagnostics settled_now = row_count;
  update public.game_round r
  set total_win = r.total_win + paid,
      status = case when round_closed then 'closed' else r.status end,
      closed_at = case when round_closed then now() end
  where r.id = round.id;
  update public.free_round_grant x
  set total_win = x.total_win + paid,
      capped_win = x.capped_win + case when per_round then amount - paid else 0 end
  where x.id = g.id
  returning x.* into g;
  perform private.free_round_release(g, settled_now, 0);
  if paid > 0 and c_loss_limits is not null then
    perform private.count_loss(s.client_id, s.livemode, s.player_id, s.currency_code, -paid, false);
  end if;
  if seamless then
    balance_after := case when paid = 0 then private.free_round_known_balance(round.id) end;
  elsif paid > 0 then
    if c_available is null then
      insert into public.wallet (client_id, currency_code) values (s.client_id, s.currency_code)
      on conflict on constraint wallet_client_id_currency_code_key do nothing;
    end if;
    -- The float's (or test player's) row is locked here, for the last write and the commit.
    ledger := private.move_money(s, s.currency_code, 'win', paid,
                                  format('round %s, free-round win %s (grant %s)', round.provider_round_id, transaction_id, g.id));
    balance_after := ledger.balance_after::text;
  else
    balance_after := private.balance_of(s, s.currency_code);
  end if;
  insert into public.round_transaction as t
    (provider_id, transaction_id, kind, client_id, round_id, amount, related_transaction_id, related_id,
     ledger_transaction_id, request_fingerprint, response_body, free_round_grant_id)
  values (round.provider_id, transaction_id, 'win', s.client_id, round.id, amount, bet_transaction_id, bet.id,
          ledger.id, request_fingerprint,
          case when not seamless or paid = 0
               then json_build_object('transaction_id', transaction_id, 'round_id', round.provider_round_id,
                                      'balance', balance_after, 'currency', s.currency_code) end,
          g.id)
  returning t.* into win;
  if seamless and paid > 0 then
    return query select * from private.queue_wallet_call(win, s, 'credit', jsonb_build_object(
      'transaction_id', transaction_id, 'round_id', round.provider_round_id, 'amount', paid::numeric(20, 4)::text,
      'round_closed', round_closed,
      'free_round', jsonb_build_object('grant_id', g.id, 'campaign_external_id', campaign.external_id)));
  else
    return query select 'ok'::text, win.response_body, balance_after;
  end if;
end;
$$;
revoke execute on function private.free_round_win from public, anon, authenticated, service_role;

-- A win settles the bet it names, or every unsettled bet of its round when it names none: either
-- way those bets can no longer be rolled back. An amount of 0 closes a lost round without money.
drop function private.round_win(text, uuid, text, text, numeric, boolean, text, text);
create function private.round_win(
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
  select * into c from private.round_caller(key_hash, session_id);
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

-- The rollback of a free bet not settled, from round_rollback with the round and the bet locked:
-- the grant locked next; no money moves and no wallet is called (none was debited). The round is
-- given back while the grant can still be played.
create function private.free_round_rollback(
  provider_id uuid, s public.game_session, round public.game_round, bet public.round_transaction, transaction_id text,
  rolled_back_transaction_id text, request_fingerprint text
) returns table (outcome text, body json, balance text)
language plpgsql
set search_path = ''
as $$
#variable_conflict use_variable
declare
  g public.free_round_grant;
  campaign public.free_round_campaign;
  playable boolean;
  cancel boolean;
  balance_after text := case when round.wallet_mode = 'seamless' then private.free_round_known_balance(round.id)
                             else private.balance_of(s, round.currency_code) end;
  undo public.round_transaction;
begin
  if not bet.rolled_back then
    select * into g from public.free_round_grant x where x.id = bet.free_round_grant_id for update;
    select * into campaign from public.free_round_campaign x where x.id = g.campaign_id;
    playable := private.free_round_grant_status(g.status, g.expires_at, now()) in ('pending', 'in_progress')
                and campaign.cancelled_at is null and g.paid_out_at is null;
    update public.round_transaction t set rolled_back = true where t.id = bet.id;
    perform private.free_round_release(g, 1, case when playable then 1 else 0 end);
    -- Nothing else at stake and nothing won: the round is cancelled.
    cancel := not exists (select 1 from public.round_transaction t
                          where t.round_id = round.id and t.id <> bet.id
                            and (t.kind = 'win' or (t.kind = 'bet' and not t.rolled_back)));
    if cancel then
      update public.game_round r set status = 'cancelled', closed_at = coalesce(r.closed_at, now()) where r.id = round.id;
    end if;
  end if;
  insert into public.round_transaction as t
    (provider_id, transaction_id, kind, client_id, round_id, amount, related_transaction_id, related_id,
     request_fingerprint, response_body, free_round_grant_id)
  values (provider_id, transaction_id, 'rollback', s.client_id, round.id,
          case when bet.rolled_back then 0 else bet.amount end, rolled_back_transaction_id, bet.id, request_fingerprint,
          private.round_answer(transaction_id, round.provider_round_id, balance_after, round.currency_code),
          bet.free_round_grant_id)
  returning t.* into undo;
  return query select 'ok'::text, undo.response_body, balance_after;
end;
$$;
revoke execute on function private.free_round_rollback from public, anon, authenticated, service_role;

-- A rollback gives a bet back. Of a transaction nobody has seen, it is a tombstone (answered OK,
-- and the bet is refused when it comes); of a bet already rolled back, it answers OK and moves
-- nothing. A win cannot be rolled back, nor a bet a win settled.
create or replace function private.round_rollback(
  key_hash text,
  session_id uuid,
  transaction_id text,
  rolled_back_transaction_id text,
  request_fingerprint text
) returns table (outcome text, body json, balance text)
language plpgsql
set search_path = ''
as $$
#variable_conflict use_variable
declare
  began record;
  s public.game_session;
  round public.game_round;
  bet public.round_transaction;
  ledger public.transaction;
  balance_after text;
  undo public.round_transaction;
  cancel boolean;
  seamless boolean;
begin
  select * into began from private.round_start(key_hash, session_id, transaction_id, request_fingerprint, rolled_back_transaction_id);
  if began.outcome is not null then
    return query select began.outcome, began.body, null::text;
    return;
  end if;
  s := began.session;

  -- Locks in the order every call takes them: the round, then its transactions, then the float.
  select * into bet from public.round_transaction t
  where t.provider_id = began.provider_id and t.transaction_id = rolled_back_transaction_id;
  if bet.round_id is not null then
    select * into round from public.game_round r where r.id = bet.round_id for update;
    select * into bet from public.round_transaction t where t.id = bet.id for update;
  end if;
  if bet.id is not null and (bet.kind <> 'bet' or round.session_id <> s.id) then
    return query select 'invalid_rollback', null::json, null::text;
    return;
  end if;
  -- The bet is given back in the wallet it was taken from; a tombstone follows the mode in force.
  seamless := coalesce(round.wallet_mode = 'seamless', began.seamless);
  if bet.settled then
    return query select 'bet_settled', null::json, null::text;
    return;
  end if;
  -- A free bet took no money: its round goes back to its grant instead.
  if bet.free_round_grant_id is not null then
    return query select * from private.free_round_rollback(began.provider_id, s, round, bet, transaction_id,
                                                           rolled_back_transaction_id, request_fingerprint);
    return;
  end if;
  if seamless and bet.id is not null and private.round_transaction_state(bet) = 'wallet_pending' then
    return query select 'transaction_pending', null::json, null::text;
    return;
  end if;

  -- The balance as read (unlocked): its row is locked by the movement itself, last.
  if bet.id is not null and not bet.rolled_back and not seamless
     and (select coalesce(c.available, 0) from private.round_caller(key_hash, session_id) c) + bet.amount >= 1e16 then
    return query select 'amount_too_large', null::json, null::text;
    return;
  end if;
  if bet.id is not null and not bet.rolled_back then
    perform private.count_loss(s.client_id, s.livemode, s.player_id, round.currency_code, -bet.amount, false);
    if not seamless then
      ledger := private.move_money(s, round.currency_code, 'adjustment', bet.amount,
                                    format('round %s, rollback %s of bet %s', round.provider_round_id,
                                           round_rollback.transaction_id, rolled_back_transaction_id));
      balance_after := ledger.balance_after::text;
    end if;
    update public.round_transaction t set rolled_back = true where t.id = bet.id;
    -- Nothing left at stake, nothing won, and no bet waiting for the operator's debit (seamless):
    -- the round is cancelled. (The round is locked: its totals are as read.)
    cancel := round.total_bet - bet.amount = 0 and round.total_win = 0 and not private.debit_pending(round.id);
    update public.game_round r
    set total_bet = r.total_bet - bet.amount,
        status = case when cancel then 'cancelled' else r.status end,
        closed_at = case when cancel then coalesce(r.closed_at, now()) else r.closed_at end
    where r.id = round.id;
  elsif not seamless then
    balance_after := private.balance_of(s, coalesce(round.currency_code, s.currency_code));
  end if;
  insert into public.round_transaction as t
    (provider_id, transaction_id, kind, client_id, round_id, amount, related_transaction_id, related_id,
     ledger_transaction_id, request_fingerprint, response_body)
  values (began.provider_id, transaction_id, 'rollback', s.client_id, bet.round_id,
          case when bet.id is not null and not bet.rolled_back then bet.amount else 0 end,
          rolled_back_transaction_id, bet.id, ledger.id, request_fingerprint,
          case when not seamless then private.round_answer(transaction_id, round.provider_round_id, balance_after,
                                                                 coalesce(round.currency_code, s.currency_code)) end)
  returning t.* into undo;
  -- Seamless: every rollback goes to the operator, even of a bet it never saw (it answers OK, and
  -- refuses the debit if it comes later).
  if seamless then
    return query select * from private.queue_wallet_call(undo, s, 'rollback', jsonb_strip_nulls(jsonb_build_object(
      'transaction_id', transaction_id, 'rolled_back_transaction_id', rolled_back_transaction_id,
      'round_id', round.provider_round_id, 'amount', (case when bet.id is not null then bet.amount end)::numeric(20, 4)::text)));
  else
    return query select 'ok'::text, undo.response_body, balance_after;
  end if;
end;
$$;
revoke execute on function private.round_rollback from public, anon, authenticated, service_role;

-- (The rule replaced: a cancel ended only the grants not started, so one in play between rounds
-- stayed in_progress until it expired.)
-- One of the caller's campaigns, read (`read`), cancelled (`cancel`) or given to players (`grant`,
-- with `player_ids`). Outcomes: found (with the campaign, or for `grant` how many grants were made
-- and how many existed), not_found, unauthorized, and for `cancel` and `grant`: campaign_ended;
-- for `grant`: campaign_cancelled. A cancel ends the grants not started; a grant in play keeps its
-- open round (the engine takes no new free bet of a cancelled campaign), and ends when it settles. Cancelling a cancelled
-- campaign answers it as it is.
create or replace function private.free_round_campaign_call(key_hash text, campaign_id uuid, action text, player_ids text[] default null)
returns table (outcome text, body text)
language plpgsql
set search_path = ''
as $$
declare
  caller record;
  found public.free_round_campaign;
  made int;
begin
  select * into caller from private.authenticate_api_key(free_round_campaign_call.key_hash);
  if caller.key_id is null then
    return query select 'unauthorized', null::text;
    return;
  end if;
  if action = 'read' then
    select c.* into found from public.free_round_campaign c
    where c.id = free_round_campaign_call.campaign_id and c.client_id = caller.client_id and c.livemode = caller.livemode;
  else
    -- The row lock orders a cancel and a grant of the same campaign.
    select c.* into found from public.free_round_campaign c
    where c.id = free_round_campaign_call.campaign_id and c.client_id = caller.client_id and c.livemode = caller.livemode
    for update;
  end if;
  if found.id is null then
    return query select 'not_found', null::text;
    return;
  end if;
  if action = 'read' or (action = 'cancel' and found.cancelled_at is not null) then
    return query select 'found', private.free_round_campaign_json(found, now());
    return;
  end if;
  if action not in ('cancel', 'grant') then
    raise exception 'unknown campaign action %', action using errcode = '22023';
  end if;
  if found.cancelled_at is not null then
    return query select 'campaign_cancelled', null::text;
    return;
  end if;
  if now() >= found.valid_until then
    return query select 'campaign_ended', null::text;
    return;
  end if;
  if action = 'cancel' then
    -- Grants not started, and grants in play with no round open, end now; one with a round open
    -- ends when that round settles (private.free_round_release).
    update public.free_round_grant g set status = 'cancelled'
    where g.campaign_id = found.id and (g.status = 'pending' or (g.status = 'in_progress' and g.rounds_open = 0));
    update public.free_round_campaign c set cancelled_at = now() where c.id = found.id returning c.* into found;
    return query select 'found', private.free_round_campaign_json(found, now());
    return;
  end if;
  with added as (
    insert into public.free_round_grant (campaign_id, client_id, livemode, player_id, rounds_total, expires_at)
    select found.id, found.client_id, found.livemode, p, found.rounds, found.valid_until
    from (select distinct p from unnest(free_round_campaign_call.player_ids) p) players
    order by p
    on conflict on constraint free_round_grant_campaign_player_key do nothing
    returning 1
  )
  select count(*) into made from added;
  return query select 'found', json_build_object('campaign_id', found.id, 'created', made,
    'unchanged', (select count(distinct p) from unnest(free_round_campaign_call.player_ids) p) - made)::text;
end;
$$;
revoke execute on function private.free_round_campaign_call from public, anon, authenticated, service_role;

-- POST /v3/provider/free-rounds/{grant_id}/payout: a lump-sum grant's one credit, once, forever:
-- its transaction_id applies once (the same request again replays its answer, another is
-- duplicate_transaction), and a grant paid once refuses another (free_round_already_paid). Only
-- when its rounds are over (all used and settled, or no more can be played); capped by max_win.
-- Recorded as a win of the grant's last round, in that round's session and wallet (transfer: the
-- float or the test player's balance; seamless: a credit call naming the grant). Locks in the
-- engine's order: the transaction id, the round, the grant, the float.
create function private.free_round_payout(
  key_hash text, grant_id uuid, transaction_id text, amount numeric, request_fingerprint text
) returns table (outcome text, body json, balance text)
language plpgsql
set search_path = ''
as $$
#variable_conflict use_variable
declare
  provider uuid;
  replay record;
  g public.free_round_grant;
  campaign public.free_round_campaign;
  round public.game_round;
  s public.game_session;
  paid numeric;
  available numeric;
  ledger public.transaction;
  balance_after text;
  win public.round_transaction;
  seamless boolean;
begin
  select k.provider_id into provider from public.provider_key k where k.key_hash = free_round_payout.key_hash and k.status = 'active';
  if provider is null then
    return query select 'invalid_provider_key', null::json, null::text;
    return;
  end if;
  perform pg_advisory_xact_lock(hashtextextended(provider::text || ' tx ' || transaction_id, 0));
  select * into replay from private.round_replay(provider, transaction_id, request_fingerprint);
  if replay.outcome is not null then
    return query select replay.outcome, replay.body, null::text;
    return;
  end if;
  select x.* into g from public.free_round_grant x
  join public.free_round_campaign c on c.id = x.campaign_id and c.provider_id = provider
  where x.id = free_round_payout.grant_id;
  if g.id is null then
    return query select 'free_round_grant_unknown', null::json, null::text;
    return;
  end if;
  if g.last_round_id is null then
    return query select 'free_round_not_played', null::json, null::text;
    return;
  end if;
  select * into round from public.game_round r where r.id = g.last_round_id for update;
  select * into g from public.free_round_grant x where x.id = g.id for update;
  select * into campaign from public.free_round_campaign c where c.id = g.campaign_id;
  if private.free_round_per_round(provider, g.game) then
    return query select 'free_round_not_lump_sum', null::json, null::text;
    return;
  end if;
  if g.paid_out_at is not null then
    return query select 'free_round_already_paid', null::json, null::text;
    return;
  end if;
  if g.rounds_open > 0
     or (g.rounds_used < g.rounds_total and campaign.cancelled_at is null
         and private.free_round_grant_status(g.status, g.expires_at, now()) in ('pending', 'in_progress')) then
    return query select 'free_rounds_left', null::json, null::text;
    return;
  end if;
  select * into s from public.game_session gs where gs.id = round.session_id;
  seamless := round.wallet_mode = 'seamless';
  paid := private.free_round_pay(amount, g.total_win, campaign.max_win);
  if paid > 0 and not seamless then
    available := case when s.livemode then (select w.balance from public.wallet w
                                             where w.client_id = s.client_id and w.currency_code = round.currency_code)
                      else (select p.balance from public.sandbox_player p
                            where p.client_id = s.client_id and p.player_id = s.player_id and p.currency_code = round.currency_code) end;
    if available is null and not s.livemode then
      return query select 'test_player_unknown', null::json, null::text;
      return;
    end if;
    if coalesce(available, 0) + paid >= 1e16 then
      return query select 'amount_too_large', null::json, null::text;
      return;
    end if;
  end if;
  if round.total_win + paid >= 1e16 then
    return query select 'amount_too_large', null::json, null::text;
    return;
  end if;

  update public.game_round r set total_win = r.total_win + paid where r.id = round.id;
  update public.free_round_grant x
  set total_win = x.total_win + paid, capped_win = x.capped_win + (amount - paid), paid_out_at = now(),
      status = 'completed'
  where x.id = g.id;
  if paid > 0 then
    perform private.count_loss(s.client_id, s.livemode, s.player_id, round.currency_code, -paid, false);
  end if;
  if seamless then
    balance_after := case when paid = 0 then private.free_round_known_balance(round.id) end;
  elsif paid > 0 then
    if s.livemode and available is null then
      insert into public.wallet (client_id, currency_code) values (s.client_id, round.currency_code)
      on conflict on constraint wallet_client_id_currency_code_key do nothing;
    end if;
    ledger := private.move_money(s, round.currency_code, 'win', paid,
                                  format('free rounds: payout %s of grant %s', transaction_id, g.id));
    balance_after := ledger.balance_after::text;
  else
    balance_after := private.balance_of(s, round.currency_code);
  end if;
  insert into public.round_transaction as t
    (provider_id, transaction_id, kind, client_id, round_id, amount, ledger_transaction_id, request_fingerprint,
     response_body, free_round_grant_id)
  values (provider, transaction_id, 'win', g.client_id, round.id, amount, ledger.id, request_fingerprint,
          case when not seamless or paid = 0
               then private.round_answer(transaction_id, round.provider_round_id, balance_after, round.currency_code) end,
          g.id)
  returning t.* into win;
  if seamless and paid > 0 then
    return query select * from private.queue_wallet_call(win, s, 'credit', jsonb_build_object(
      'transaction_id', transaction_id, 'round_id', round.provider_round_id, 'amount', paid::numeric(20, 4)::text,
      'round_closed', round.status <> 'open',
      'free_round', jsonb_build_object('grant_id', g.id, 'campaign_external_id', campaign.external_id)));
  else
    return query select 'ok'::text, win.response_body, balance_after;
  end if;
end;
$$;
revoke execute on function private.free_round_payout from public, anon, authenticated, service_role;

-- GET /v3/provider/free-rounds: the grants the session's player can play in it now (its client,
-- mode, currency and game; not locked to another game; rounds left; campaign started and not
-- cancelled; not expired), soonest to expire first. Outcomes: ok (body: {data: [grant, ...]}),
-- invalid_provider_key, unknown_session.
create function private.session_free_rounds(key_hash text, session_id uuid)
returns table (outcome text, body json)
language plpgsql stable
set search_path = ''
as $$
declare
  provider uuid;
  s public.game_session;
begin
  select k.provider_id into provider from public.provider_key k where k.key_hash = session_free_rounds.key_hash and k.status = 'active';
  if provider is null then
    return query select 'invalid_provider_key', null::json;
    return;
  end if;
  select * into s from public.game_session x where x.id = session_free_rounds.session_id and x.provider_id = provider;
  if s.id is null then
    return query select 'unknown_session', null::json;
    return;
  end if;
  return query
  select 'ok', json_build_object('data', coalesce(json_agg(private.free_round_grant_json(g, now())::json
                                                           order by g.expires_at, g.id), '[]'::json))
  from public.free_round_grant g
  join public.free_round_campaign c on c.id = g.campaign_id
  where g.client_id = s.client_id and g.livemode = s.livemode and g.player_id = s.player_id
    and c.provider_id = provider and s.game = any (c.games) and (g.game is null or g.game = s.game)
    and c.currency_code = s.currency_code and c.cancelled_at is null and c.valid_from <= now()
    and private.free_round_grant_status(g.status, g.expires_at, now()) in ('pending', 'in_progress')
    and g.paid_out_at is null and g.rounds_used < g.rounds_total;
end;
$$;
revoke execute on function private.session_free_rounds from public, anon, authenticated, service_role;

-- The delivery runner's job: records grants past their expiry unfinished as `expired` and
-- campaigns past valid_until as ended (free_rounds.grant.expired, free_rounds.campaign.ended),
-- a batch of each at a time, any number of runners at once. Time alone already made them so.
create function private.record_free_round_ends(batch int default 100) returns int
language plpgsql
set search_path = ''
as $$
declare
  grants int;
  campaigns int;
begin
  with due as (
    select g.id from public.free_round_grant g
    where g.status in ('pending', 'in_progress') and g.expires_at <= now()
    order by g.expires_at
    limit record_free_round_ends.batch
    for update skip locked
  )
  update public.free_round_grant g set status = 'expired' from due where g.id = due.id;
  get diagnostics grants = row_count;
  with due as (
    select c.id from public.free_round_campaign c
    where c.ended_recorded_at is null and c.cancelled_at is null and c.valid_until <= now()
    order by c.valid_until
    limit record_free_round_ends.batch
    for update skip locked
  )
  update public.free_round_campaign c set ended_recorded_at = now() from due where c.id = due.id;
  get diagnostics campaigns = row_count;
  return grants + campaigns;
end;
$$;
revoke execute on function private.record_free_round_ends from public, anon, authenticated, service_role;

-- ============================================================================================
-- Staff's end of a stuck round (the rule replaced, the round engine migration's resolve_round:
-- `cancel` gave back every unsettled bet through the float or the operator's wallet, which for a
-- free bet would pay out money never taken). A free round cannot be cancelled; `close` settles its
-- bets as played, and its grant may complete.
-- ============================================================================================
create or replace function private.resolve_round(round_id uuid, resolution text)
returns public.game_round
language plpgsql
-- security definer: staff may not write rounds or their transactions themselves (nobody writes them
-- through the API); this is the one way they end one.
security definer
set search_path = ''
as $$
declare
  round public.game_round;
  bet public.round_transaction;
  ledger public.transaction;
  undo public.round_transaction;
  s public.game_session;
  seamless boolean;
  resolved_status text := case resolution when 'close' then 'closed' when 'cancel' then 'cancelled' end;
  grant_row public.free_round_grant;
begin
  perform private.require_staff('resolve rounds');
  if resolved_status is null then
    raise exception 'resolution must be close or cancel' using errcode = '22023';
  end if;
  select * into round from public.game_round r where r.id = resolve_round.round_id for update;
  if round.id is null then
    raise exception 'no round %', resolve_round.round_id using errcode = 'P0002';
  end if;
  if round.status <> 'open' then
    if round.status = resolved_status then
      return round;
    end if;
    raise exception 'the round is already %', round.status using errcode = '55000';
  end if;
  if private.debit_pending(round.id) then
    raise exception 'a bet of the round waits for the operator''s wallet: try again in a minute' using errcode = '55000';
  end if;
  seamless := round.wallet_mode = 'seamless';
  -- A free round took no money: there is nothing to give back, and its bets stand as played.
  if resolution = 'cancel' and round.free_round_grant_id is not null then
    raise exception 'a free round cannot be cancelled: close it' using errcode = '55000';
  end if;
  select * into s from public.game_session gs where gs.id = round.session_id;
  if resolution = 'cancel' then
    -- A win (even of 0) settled its bets: what it settled stands.
    if round.total_win > 0 or exists (select 1 from public.round_transaction t where t.round_id = round.id and t.settled) then
      raise exception 'a round a win has settled cannot be cancelled: close it' using errcode = '55000';
    end if;
    for bet in
      select * from public.round_transaction t
      where t.round_id = round.id and t.kind = 'bet' and not t.rolled_back and not t.settled
      order by t.created_at
      for update
    loop
      if not seamless then
        ledger := private.move_money(s, round.currency_code, 'adjustment', bet.amount,
                                      format('round %s cancelled by staff: bet %s given back', round.provider_round_id,
                                             bet.transaction_id));
      end if;
      update public.round_transaction t set rolled_back = true where t.id = bet.id;
      perform private.count_loss(round.client_id, round.livemode, round.player_id, round.currency_code, -bet.amount, false);
      insert into public.round_transaction as t
        (provider_id, transaction_id, kind, client_id, round_id, amount, related_transaction_id, related_id,
         ledger_transaction_id, request_fingerprint, response_body)
      values (round.provider_id, 'cgs-cancel-' || bet.id, 'rollback', round.client_id, round.id, bet.amount,
              bet.transaction_id, bet.id, ledger.id, encode(extensions.digest('cgs-cancel-' || bet.id, 'sha256'), 'hex'),
              case when not seamless then private.round_answer('cgs-cancel-' || bet.id, round.provider_round_id,
                                                               ledger.balance_after::text, round.currency_code) end)
      returning t.* into undo;
      if seamless then
        perform private.queue_wallet_call(undo, s, 'rollback', jsonb_build_object(
          'transaction_id', undo.transaction_id, 'rolled_back_transaction_id', bet.transaction_id,
          'round_id', round.provider_round_id, 'amount', bet.amount::numeric(20, 4)::text), claimed => false);
      end if;
    end loop;
  end if;
  -- Closed by staff, its bets stand for good: settled, so no rollback can reach them later.
  if resolved_status = 'closed' then
    -- A free round's bets leave play: its grant may complete.
    if round.free_round_grant_id is not null then
      select * into grant_row from public.free_round_grant g where g.id = round.free_round_grant_id for update;
      perform private.free_round_release(grant_row, (select count(*)::int from public.round_transaction t
                                                     where t.round_id = round.id and t.kind = 'bet' and not t.rolled_back and not t.settled), 0);
    end if;
    update public.round_transaction t set settled = true where t.round_id = round.id and t.kind = 'bet' and not t.rolled_back;
  end if;
  update public.game_round r
  set status = resolved_status,
      total_bet = case when resolved_status = 'closed' then r.total_bet else 0 end,
      closed_at = now()
  where r.id = round.id
  returning r.* into round;
  return round;
end;
$$;
revoke execute on function private.resolve_round from public, anon, authenticated;
grant execute on function private.resolve_round to staff, service_role;
