-- A sandbox reset ends the free rounds test play left going (issue 37, with issue 34's leftover):
-- a test grant stayed `pending` or `in_progress` after a reset (its open round cancelled, its
-- player gone) and its campaign went on granting. Now each test grant not finished is cancelled and
-- each test campaign still running or to come is cancelled (both told as their webhook events, to
-- no endpoint: the reset removed the test endpoints before), and the answer counts them
-- (`free_round_campaigns_cancelled`, `free_round_grants_cancelled`).
--
-- Replaces private.reset_sandbox (the sandbox ledger migration).

-- POST /v3/sandbox/reset: the key check and the reset in one call. Outcomes: reset (with what was
-- removed, as JSON), live_key, unauthorized. The test players go first, then their test floats
-- with the test ledger (the engine's order: a player's row, then the test float's). Free rounds
-- after the rounds: their grants' open rounds are cancelled by then.
create or replace function private.reset_sandbox(key_hash text)
returns table (outcome text, body text)
language plpgsql
set search_path = ''
as $$
declare
  caller record;
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
    'wallet_mode', 'transfer')::text;
end;
$$;
revoke execute on function private.reset_sandbox from public, anon, authenticated, service_role;

