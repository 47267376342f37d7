-- A sandbox reset ends the sportsbook's test play too (issue 37 item 2, with issue 35): a reset left
-- the caller's test bets `reserved`, `open` or `settled` with their players gone, owing clawbacks a
-- new test player of the same id would pay from its first payout, and the demo fixtures' outcomes
-- kept, so a reset sandbox could not settle them again (`409 fixture_settled`).
--
-- private.sportsbook_reset_sandbox, called by the reset before anything else is removed, ends every
-- test bet of the caller's that could still change or owes (every test player goes with the reset,
-- and with them the balances these bets moved; in seamless mode the test wallet is forgotten):
-- - reserved or open: `discarded`, its round cancelled (told as sportsbook.bet.discarded, reason
--   `sandbox_reset`); settled: `closed` (told as sportsbook.bet.closed); closed and owing: only
--   forgiven. A late call of the provider's on such a bet is then answered bet_discarded or
--   bet_closed, as for any bet so ended.
-- - No money moves: no stake goes back and no payout is made or taken, to a test balance, the test
--   ledger, a wallet or the live ledger. The balances they would move are the removed test
--   players', and the calls still due to the test wallet end failed with the reset.
-- - What a bet owed is forgiven (a removed player's debt; it is never taken from anyone's next
--   payout): owed 0 and paid less as much, so paid - owed = payout still holds.
-- - Each such bet's history gets one line, `sandbox_reset` (transaction_id `cgs-reset-<bet's id>`,
--   moved 0, owed 0, `forgiven` what it owed). No round transaction is written: no call was made.
-- - The caller's fixture outcomes (private.sandbox_fixture_result) are cleared, so each fixture
--   settles again.
-- - Locks: the sandbox's sportsbook lock (exclusive; a fixture's settlement holds it shared), then
--   the bets' rounds in one order before any bet row, as every engine call locks a bet's round
--   first; all before the reset locks the test players' balances.
--
-- Replaces private.sandbox_fixture_outcome (the sandbox sportsbook migration): it holds the
-- sandbox's sportsbook lock shared, so a fixture is never settled while a reset runs (its outcome
-- kept after the reset cleared them, its bets ended under it). The rest is unchanged.
-- Replaces private.reset_sandbox (the sandbox reset free rounds migration): it calls
-- private.sportsbook_reset_sandbox first and counts what it did (`sportsbook_bets_discarded`,
-- `sportsbook_bets_closed`, `sportsbook_fixtures_cleared`).

-- ============================================================================================
-- Helper functions
-- ============================================================================================

-- The lock of a client's sandbox sportsbook: a reset holds it exclusive, a fixture's settlement shared.
create function private.sandbox_sportsbook_lock(client_id uuid, exclusive boolean) returns void
language plpgsql
set search_path = ''
as $$
declare
  lock_key bigint := hashtextextended(client_id::text || ' sandbox sportsbook', 0);
begin
  if exclusive then
    perform pg_advisory_xact_lock(lock_key);
  else
    perform pg_advisory_xact_lock_shared(lock_key);
  end if;
end;
$$;
revoke execute on function private.sandbox_sportsbook_lock from public, anon, authenticated, service_role;

-- Ends the client's test bets for a sandbox reset, as the header says; what it did, counted.
create function private.sportsbook_reset_sandbox(
  client_id uuid, out bets_discarded int, out bets_closed int, out fixtures_cleared int
)
language plpgsql
set search_path = ''
as $$
#variable_conflict use_variable
declare
  ending public.sportsbook_bet;
  status text;
begin
  bets_discarded := 0;
  bets_closed := 0;
  perform private.sandbox_sportsbook_lock(client_id, true);
  perform 1 from public.game_round r
  where r.id in (select b.round_id from public.sportsbook_bet b
                 where b.client_id = client_id and not b.livemode and (b.status in ('reserved', 'open', 'settled') or b.owed > 0))
  order by r.id
  for update;
  for ending in
    select * from public.sportsbook_bet b
    where b.client_id = client_id and not b.livemode and (b.status in ('reserved', 'open', 'settled') or b.owed > 0)
    order by b.placed_at, b.round_id
    for update
  loop
    status := case when ending.status in ('reserved', 'open') then 'discarded'
                   when ending.status = 'settled' then 'closed' else ending.status end;
    update public.sportsbook_bet b
    set status = status,
        closed_at = case when status = 'closed' then coalesce(b.closed_at, now()) end,
        paid = b.paid - b.owed, owed = 0,
        settlements = b.settlements || jsonb_build_object(
          'type', 'sandbox_reset', 'transaction_id', 'cgs-reset-' || b.round_id, 'moved', '0.0000', 'owed', '0.0000',
          'forgiven', b.owed::text, 'created_at', now())
    where b.round_id = ending.round_id;
    if status = 'discarded' then
      update public.game_round r set status = 'cancelled', total_bet = 0 where r.id = ending.round_id;
      perform private.emit_event(ending.client_id, false, 'sportsbook.bet.discarded',
                                 private.sportsbook_bet_json(ending.round_id) || jsonb_build_object('reason', 'sandbox_reset'));
      bets_discarded := bets_discarded + 1;
    elsif ending.status = 'settled' then
      perform private.emit_event(ending.client_id, false, 'sportsbook.bet.closed', private.sportsbook_bet_json(ending.round_id));
      bets_closed := bets_closed + 1;
    end if;
  end loop;
  delete from private.sandbox_fixture_result f where f.client_id = client_id;
  get diagnostics fixtures_cleared = row_count;
end;
$$;
revoke execute on function private.sportsbook_reset_sandbox from public, anon, authenticated, service_role;

-- ============================================================================================
-- The demo sportsbook's fixtures: unchanged but for the sandbox's sportsbook lock, held shared
-- ============================================================================================
create or replace function private.sandbox_fixture_outcome(key_hash text, fixture_id text, action text, fixture_outcome text)
returns table (outcome text, bet_round_id uuid, engine_outcome text, engine_body json)
language plpgsql
set search_path = ''
as $$
#variable_conflict use_variable
declare
  caller record;
  demo_key text := '512feeb33cd512f1ab0c5e01f07fe24b9ceb36d955de038bf7d1f746c26ba501';
  found record;
  bet public.sportsbook_bet;
  decided record;
  tx text;
  applied record;
  touched int := 0;
begin
  select * into caller from private.authenticate_api_key(key_hash);
  if caller.key_id is null then
    return query select 'unauthorized'::text, null::uuid, null::text, null::json;
    return;
  end if;
  if caller.livemode then
    return query select 'live_key'::text, null::uuid, null::text, null::json;
    return;
  end if;
  -- Never while a reset of this sandbox runs (it clears the outcomes and ends the bets).
  perform private.sandbox_sportsbook_lock(caller.client_id, false);
  perform pg_advisory_xact_lock(hashtextextended(caller.client_id::text || ' sandbox fixture ' || fixture_id, 0));
  if action = 'settle' and exists (select 1 from private.sandbox_fixture_result r
                                   where r.client_id = caller.client_id and r.fixture_id = sandbox_fixture_outcome.fixture_id) then
    return query select 'fixture_settled'::text, null::uuid, null::text, null::json;
    return;
  end if;
  if action = 'resettle' and not exists (select 1 from private.sandbox_fixture_result r
                                         where r.client_id = caller.client_id and r.fixture_id = sandbox_fixture_outcome.fixture_id) then
    return query select 'fixture_not_settled'::text, null::uuid, null::text, null::json;
    return;
  end if;
  insert into private.sandbox_fixture_result as r (client_id, fixture_id, outcome)
  values (caller.client_id, fixture_id, fixture_outcome)
  on conflict on constraint sandbox_fixture_result_pkey do update set outcome = excluded.outcome, updated_at = now();

  for found in
    select b.round_id, r.provider_round_id from public.sportsbook_bet b
    join public.game_round r on r.id = b.round_id
    join public.game_provider gp on gp.id = r.provider_id and gp.slug = 'cgs-sandbox'
    where b.client_id = caller.client_id and not b.livemode and b.status in ('open', 'settled')
      and b.selections @> jsonb_build_array(jsonb_build_object('fixture_id', fixture_id))
    order by b.placed_at, b.round_id
  loop
    select * into bet from public.sportsbook_bet b where b.round_id = found.round_id;
    select * into decided from private.sandbox_bet_outcome(bet, caller.client_id);
    continue when decided.result is null;
    continue when decided.result is not null and bet.status = 'settled'
                  and decided.result = bet.result and decided.payout = bet.payout;
    tx := 'sandbox-' || fixture_id || '-' || gen_random_uuid();
    select * into applied from private.sportsbook_settle(demo_key, found.provider_round_id, tx, decided.result, decided.payout,
                                                         encode(extensions.digest(tx, 'sha256'), 'hex'));
    touched := touched + 1;
    return query select 'ok'::text, bet.round_id, applied.outcome, applied.body;
  end loop;
  if touched = 0 then
    return query select 'ok'::text, null::uuid, null::text, null::json;
  end if;
end;
$$;
revoke execute on function private.sandbox_fixture_outcome from public, anon, authenticated, service_role;

-- ============================================================================================
-- The reset
-- ============================================================================================

-- POST /v3/sandbox/reset: the key check and the reset in one call. Outcomes: reset (with what was
-- removed, as JSON), live_key, unauthorized. The sportsbook's bets first (their rounds are locked
-- before any balance, as the engine locks them), then the test players, then their test floats
-- with the test ledger (the engine's order: a player's row, then the test float's). Free rounds
-- after the rounds: their grants' open rounds are cancelled by then.
create or replace function private.reset_sandbox(key_hash text)
returns table (outcome text, body text)
language plpgsql
set search_path = ''
as $$
declare
  caller record;
  sportsbook record;
  players int;
  restrictions int;
  endpoints int;
  wallet_settings int;
  sessions int;
  rounds int;
  campaigns int;
  grants int;
begin
  select * into caller from private.authenticate_api_key(reset_sandbox.key_hash);
  if caller.key_id is null then
    return query select 'unauthorized', null::text;
    return;
  end if;
  if caller.livemode then
    return query select 'live_key', null::text;
    return;
  end if;
  -- As a change of mode does: no bet of this client's in test mode runs while its wallet changes.
  perform private.lock_wallet_mode(caller.client_id, false, true);
  -- The test bets ended, moving nothing: their events reach no endpoint (the endpoints go below).
  select * into sportsbook from private.sportsbook_reset_sandbox(caller.client_id);
  with gone as (
    delete from public.sandbox_player p where p.client_id = caller.client_id returning p.player_id
  ) select count(distinct g.player_id) into players from gone g;
  delete from public.sandbox_transaction t where t.client_id = caller.client_id;
  delete from public.sandbox_wallet w where w.client_id = caller.client_id;
  delete from private.player_loss l where l.client_id = caller.client_id and not l.livemode;
  delete from public.player_restriction r where r.client_id = caller.client_id and not r.livemode;
  get diagnostics restrictions = row_count;
  delete from public.webhook_endpoint e where e.client_id = caller.client_id and not e.livemode;
  get diagnostics endpoints = row_count;
  -- Calls to the test wallet still due would find no wallet to go to once its settings are gone, and
  -- the delivery runner serves every client: they end here, failed, with why.
  update public.wallet_call c set status = 'failed', last_error = 'the sandbox was reset', completed_at = now()
  where c.client_id = caller.client_id and not c.livemode and c.status = 'pending';
  delete from public.wallet_setting w where w.client_id = caller.client_id and not w.livemode;
  get diagnostics wallet_settings = row_count;
  update public.game_session s set status = 'closed'
  where s.client_id = caller.client_id and not s.livemode and s.status <> 'closed';
  get diagnostics sessions = row_count;
  -- Rounds left open end cancelled (told as round.cancelled): their test players are gone, so a
  -- late win or rollback is answered round_closed instead of finding no balance to move.
  update public.game_round r set status = 'cancelled', closed_at = now()
  where r.client_id = caller.client_id and not r.livemode and r.status = 'open';
  get diagnostics rounds = row_count;
  -- Free rounds the test play left going: each grant not finished (and not past its expiry, which
  -- already ends it) is cancelled, its open rounds cancelled above; each campaign still running or
  -- to come is cancelled, so no test player is granted anything more by it.
  update public.free_round_grant g set status = 'cancelled', rounds_open = 0
  where g.client_id = caller.client_id and not g.livemode and g.status in ('pending', 'in_progress') and g.expires_at > now();
  get diagnostics grants = row_count;
  update public.free_round_campaign c set cancelled_at = now()
  where c.client_id = caller.client_id and not c.livemode and c.cancelled_at is null and c.valid_until > now();
  get diagnostics campaigns = row_count;
  return query select 'reset', json_build_object(
    'livemode', false,
    'removed', json_build_object('players', players, 'restrictions', restrictions, 'webhook_endpoints', endpoints,
                                 'wallet_settings', wallet_settings),
    'sessions_closed', sessions,
    'rounds_cancelled', rounds,
    'free_round_campaigns_cancelled', campaigns,
    'free_round_grants_cancelled', grants,
    'sportsbook_bets_discarded', sportsbook.bets_discarded,
    'sportsbook_bets_closed', sportsbook.bets_closed,
    'sportsbook_fixtures_cleared', sportsbook.fixtures_cleared,
    'wallet_mode', 'transfer')::text;
end;
$$;
revoke execute on function private.reset_sandbox from public, anon, authenticated, service_role;
