-- A sandbox reset ends its open test rounds.
--
-- Replaces private.reset_sandbox (the sandbox reset migration), which closed the test sessions but
-- left their open rounds open: the provider's win for such a round then found no test player and
-- was refused test_player_unknown for ever, a round stuck in the operator's lists. A reset now
-- cancels them (no money moves: the test balances they played with are gone too), and its answer
-- counts them (`rounds_cancelled`).

-- POST /v3/sandbox/reset: the key check and the reset in one call. Outcomes: reset (with what was
-- removed, as JSON), live_key, unauthorized.
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
  return query select 'reset', json_build_object(
    'livemode', false,
    'removed', json_build_object('players', players, 'restrictions', restrictions, 'webhook_endpoints', endpoints,
                                 'wallet_settings', wallet_settings),
    'sessions_closed', sessions,
    'rounds_cancelled', rounds,
    'wallet_mode', 'transfer')::text;
end;
$$;
revoke execute on function private.reset_sandbox from public, anon, authenticated, service_role;
