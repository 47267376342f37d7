-- The player's restrictions and the client's status, as facts of what a bet reads anyway (issue 38).
--
-- Replaces private.round_caller (the lean win caller migration's): the same columns and answers,
-- but a bet of a player with no restrictions reads no restrictions, and a live bet reads its
-- client's status with its float's balance instead of from the profile. Each table a call does not
-- name is a relation lock it does not take (two each: the table and the index read by).
--
-- The rules:
-- - A session says whether its player may have restrictions (`game_session.restricted`): set when
--   the session is made or given another player (the player has a restriction row), and set on
--   each of the player's sessions when the player is given one. It is never cleared: a restriction removed costs only
--   the read. A session not restricted is a player with none, so its calls read none.
-- - A new session and a new restriction cannot miss each other: both take the player's lock (the
--   advisory lock put_player_restrictions takes), the session's insert before it reads the
--   restrictions, the restriction's write before it marks the sessions. Whichever takes it second
--   reads (in its next statement's snapshot) what the first committed.
-- - A live float says whether its client is active (`wallet.client_active`): read from the profile
--   when the float is made, under the profile's row lock, and written to each of the client's
--   floats whenever the profile's status changes. A suspension and a new float cannot miss each
--   other: the suspension's update and the float's read for share conflict on the profile's row.
-- - A live bet reads its client's status with its float's balance; one without a float, one whose
--   float does not say (made before this migration and its client without a profile), or one in
--   test mode reads the profile, as before.
-- Both rules hold in READ COMMITTED, as every engine call runs.

-- ============================================================================================
-- Tables
-- ============================================================================================
-- True for every session already made: the facts start safe, and sessions made from here on say.
alter table public.game_session add column restricted boolean not null default true;
comment on column public.game_session.restricted is
  'The player may have restrictions (false: has none, and a call reads none); kept by triggers, never cleared.';
-- The sessions a new restriction marks: only those not marked yet.
create index game_session_unrestricted_player_idx on public.game_session (client_id, livemode, player_id)
  where not restricted;

alter table public.wallet add column client_active boolean;
comment on column public.wallet.client_active is
  'Whether the client''s profile is active, kept by triggers so a bet reads it with the balance; null: read the profile.';

-- ============================================================================================
-- Triggers
-- ============================================================================================
-- The player's lock, as put_player_restrictions takes it.
create function private.lock_player(client_id uuid, livemode boolean, player_id text) returns void
language plpgsql
set search_path = ''
as $$
begin
  perform pg_advisory_xact_lock(hashtextextended(client_id::text || ' player ' || livemode::text || ' ' || player_id, 0));
end;
$$;
revoke execute on function private.lock_player from public, anon, authenticated, service_role;

create function private.session_restricted() returns trigger
language plpgsql
-- security definer: a session is made by whoever calls create_game_session, and its player's
-- restrictions are read whoever that is.
security definer
set search_path = ''
as $$
begin
  perform private.lock_player(new.client_id, new.livemode, new.player_id);
  new.restricted := exists (select 1 from public.player_restriction r
                            where r.client_id = new.client_id and r.livemode = new.livemode and r.player_id = new.player_id);
  return new;
end;
$$;
revoke execute on function private.session_restricted() from public, anon, authenticated, service_role;

create trigger game_session_restricted
  before insert or update of client_id, livemode, player_id on public.game_session
  for each row execute function private.session_restricted();

create function private.restriction_marks_sessions() returns trigger
language plpgsql
-- security definer: a restriction is written by its API call or by staff, and it marks sessions
-- neither may write.
security definer
set search_path = ''
as $$
begin
  perform private.lock_player(new.client_id, new.livemode, new.player_id);
  update public.game_session gs set restricted = true
  where gs.client_id = new.client_id and gs.livemode = new.livemode and gs.player_id = new.player_id
    and not gs.restricted;
  return null;
end;
$$;
revoke execute on function private.restriction_marks_sessions() from public, anon, authenticated, service_role;

create trigger player_restriction_marks_sessions
  after insert or update of client_id, livemode, player_id on public.player_restriction
  for each row execute function private.restriction_marks_sessions();

create function private.wallet_client_active() returns trigger
language plpgsql
-- security definer: a float is made by staff or by the engine, and the profile's status is read
-- whoever that is.
security definer
set search_path = ''
as $$
begin
  select p.status = 'active' into new.client_active from public.profile p where p.id = new.client_id for share;
  return new;
end;
$$;
revoke execute on function private.wallet_client_active() from public, anon, authenticated, service_role;

create trigger wallet_client_active
  before insert or update of client_id on public.wallet
  for each row execute function private.wallet_client_active();

create function private.profile_status_to_wallets() returns trigger
language plpgsql
-- security definer: staff change a client's status; its floats are written by no API role.
security definer
set search_path = ''
as $$
begin
  update public.wallet w set client_active = new.status = 'active'
  where w.client_id = new.id and w.client_active is distinct from (new.status = 'active');
  return null;
end;
$$;
revoke execute on function private.profile_status_to_wallets() from public, anon, authenticated, service_role;

create trigger profile_status_to_wallets
  after update of status on public.profile
  for each row when (old.status is distinct from new.status)
  execute function private.profile_status_to_wallets();

-- The floats made before this migration: their clients' status, with no status change under way.
lock table public.profile in share mode;
update public.wallet w set client_active = p.status = 'active' from public.profile p where p.id = w.client_id;

-- ============================================================================================
-- Helper functions
-- ============================================================================================
create or replace function private.round_caller(key_hash text, session_id uuid, bet boolean default true)
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
  if s.livemode then
    select w.balance, case when bet then w.client_active end into available, client_active
    from public.wallet w where w.client_id = s.client_id and w.currency_code = s.currency_code;
  else
    select case when sp.behaviour = 'insufficient_funds' then 0 else sp.balance end,
           case sp.behaviour when 'failing_wallet' then 'wallet_failed' when 'slow_wallet' then 'wallet_timeout' end
    into available, test_refusal
    from public.sandbox_player sp
    where sp.client_id = s.client_id and sp.player_id = s.player_id and sp.currency_code = s.currency_code;
  end if;
  if bet and client_active is null then
    select p.status = 'active' into client_active from public.profile p where p.id = s.client_id;
  end if;
  if s.restricted then
    select true, nullif(pr.loss_limits -> s.currency_code, '{}'::jsonb) into may_refuse, loss_limits
    from public.player_restriction pr
    where pr.client_id = s.client_id and pr.livemode = s.livemode and pr.player_id = s.player_id;
  end if;
  may_refuse := coalesce(may_refuse, false);
  if bet and not may_refuse and s.jurisdiction is not null then
    may_refuse := exists (select 1 from public.jurisdiction j
                          where j.code = s.jurisdiction and j.max_stake_currency = s.currency_code);
  end if;
  return next;
end;
$$;
revoke execute on function private.round_caller from public, anon, authenticated, service_role;
