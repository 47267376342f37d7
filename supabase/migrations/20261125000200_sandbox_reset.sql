-- The sandbox, reset: POST /v3/sandbox/reset (test keys only) puts a client's test world back as a
-- new client's is: no test players (nor their balances), no test restrictions (nor their loss
-- tallies), no test webhook endpoints (their pending deliveries go with them), test wallet settings
-- back to transfer (the test wallet's URL and secret forgotten), and its test sessions closed. Live
-- records are never touched: every statement names livemode false or a test-only table.
--
-- Replaces one rule of 20261121001000_responsible_gaming.sql (private.put_player_restrictions): a
-- self-exclusion or cool-off "cannot be lifted or shortened before it ends" now holds for live
-- players only. Regulators' rules protect real players; a test player's restrictions are a
-- rehearsal, and an operator must be able to lift them to rehearse again.

-- ============================================================================================
-- Helper functions
-- ============================================================================================
-- PUT /v3/players/{player_id}/restrictions: the restrictions as a whole, replacing what was set.
-- Outcomes: updated, unauthorized, exclusion_active (a live player's self-exclusion or cool-off
-- would end sooner than it does now: refused, nothing written). A test player's may be lifted.
create or replace function private.put_player_restrictions(key_hash text, player_id text, restrictions jsonb)
returns table (outcome text, body text)
language plpgsql
set search_path = ''
as $$
#variable_conflict use_variable
declare
  caller record;
  current public.player_restriction;
  wanted public.player_restriction;
  shown text;
begin
  select * into caller from private.authenticate_api_key(key_hash);
  if caller.key_id is null then
    return query select 'unauthorized', null::text;
    return;
  end if;
  -- One change at a time per player: the check below and the write see one state.
  perform pg_advisory_xact_lock(hashtextextended(caller.client_id::text || ' player ' || caller.livemode::text || ' ' || player_id, 0));
  select * into current from public.player_restriction r
  where r.client_id = caller.client_id and r.livemode = caller.livemode and r.player_id = put_player_restrictions.player_id;
  -- Amounts as stored everywhere: four places ("50" is "50.0000").
  wanted := row(caller.client_id, caller.livemode, player_id,
    (restrictions->>'self_excluded_until')::timestamptz, coalesce((restrictions->>'self_excluded_indefinitely')::boolean, false),
    (restrictions->>'cool_off_until')::timestamptz,
    coalesce((select jsonb_object_agg(c.key, (
               select coalesce(jsonb_object_agg(p.key, to_jsonb((p.value #>> '{}')::numeric(20, 4)::text)), '{}')
               from jsonb_each(c.value) p where jsonb_typeof(p.value) <> 'null'))
             from jsonb_each(restrictions->'loss_limits') c), '{}'),
    coalesce((select jsonb_object_agg(c.key, to_jsonb((c.value #>> '{}')::numeric(20, 4)::text))
             from jsonb_each(restrictions->'stake_limits') c), '{}'),
    (restrictions->>'session_time_limit_minutes')::int, now())::public.player_restriction;
  if caller.livemode and ((current.self_excluded_indefinitely and not wanted.self_excluded_indefinitely)
     or (current.self_excluded_until > now() and not wanted.self_excluded_indefinitely
         and coalesce(wanted.self_excluded_until, '-infinity') < current.self_excluded_until)
     or (current.cool_off_until > now() and coalesce(wanted.cool_off_until, '-infinity') < current.cool_off_until)) then
    return query select 'exclusion_active', null::text;
    return;
  end if;
  insert into public.player_restriction as r values (wanted.*)
  on conflict on constraint player_restriction_pkey do update
    set self_excluded_until = excluded.self_excluded_until, self_excluded_indefinitely = excluded.self_excluded_indefinitely,
        cool_off_until = excluded.cool_off_until, loss_limits = excluded.loss_limits, stake_limits = excluded.stake_limits,
        session_time_limit_minutes = excluded.session_time_limit_minutes, updated_at = excluded.updated_at;
  shown := private.player_restriction_json(wanted);
  insert into public.player_restriction_audit (client_id, livemode, player_id, action, detail)
  values (caller.client_id, caller.livemode, player_id, 'restrictions_changed', shown::jsonb);
  perform private.emit_event(caller.client_id, caller.livemode, 'player.restrictions_updated', shown::jsonb);
  return query select 'updated', shown;
end;
$$;
revoke execute on function private.put_player_restrictions from public, anon, authenticated, service_role;

-- POST /v3/sandbox/reset: the key check and the reset in one call. Outcomes: reset (with what was
-- removed, as JSON), live_key, unauthorized.
create function private.reset_sandbox(key_hash text)
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
  return query select 'reset', json_build_object(
    'livemode', false,
    'removed', json_build_object('players', players, 'restrictions', restrictions, 'webhook_endpoints', endpoints,
                                 'wallet_settings', wallet_settings),
    'sessions_closed', sessions,
    'wallet_mode', 'transfer')::text;
end;
$$;
revoke execute on function private.reset_sandbox from public, anon, authenticated, service_role;
