-- The caller's read touches only the tables its session needs (issue 38).
--
-- Replaces private.round_caller (the lean engine migration): the same columns and answers, read
-- as one statement per table instead of one statement joining seven. A statement locks every
-- table it names, rows or not, and a backend keeps only 16 relation locks (a table or an index
-- each) in its fast-path slots: every one past them goes through the shared lock table, whose
-- partition locks all concurrent calls contend on. The join named the float and the test player's
-- balance for every session, and the jurisdiction for sessions without one. Now:
-- - a live session reads its float, a test session its test player, never both;
-- - the jurisdiction is read only for a session that has one, and only when the player's
--   restrictions do not already make the call ask player_refusal (which reads it again).
-- Nothing is locked here, as before: the engine's locks come after, and the movement itself
-- re-checks the balance.
create or replace function private.round_caller(key_hash text, session_id uuid)
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
  select p.status = 'active' into client_active from public.profile p where p.id = s.client_id;
  select true, nullif(pr.loss_limits -> s.currency_code, '{}'::jsonb) into may_refuse, loss_limits
  from public.player_restriction pr
  where pr.client_id = s.client_id and pr.livemode = s.livemode and pr.player_id = s.player_id;
  may_refuse := coalesce(may_refuse, false);
  if not may_refuse and s.jurisdiction is not null then
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
