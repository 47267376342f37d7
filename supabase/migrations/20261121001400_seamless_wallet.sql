-- Seamless wallet calls. In seamless mode the round engine moves no float: each bet, win and
-- rollback is a call to the operator's wallet, written here in the same transaction as the round's
-- change (an outbox, as webhook deliveries are), so no movement is lost:
-- - A debit (a bet) is made at once by the provider call that recorded it, and never retried.
--   Accepted, the bet stands; refused, it is undone as if never made; without an answer in time, or
--   left unfinished by a caller that died, it fails: the bet is rolled back and a compensating
--   `rollback` call is queued, in case the operator applied it after all.
-- - A credit (a win) or a rollback is made at once too, then retried by the delivery runner on the
--   webhook schedule until the operator accepts it; after the last retry it is `failed`, the client
--   is told (`wallet_call.failed`), and staff can send it again (retry_wallet_call).
-- Every retry carries the same body and the same message id (webhook-id), and the provider's
-- transaction_id, so the operator applies each once.

-- ============================================================================================
-- Tables
-- ============================================================================================
create table public.wallet_call (
  id uuid primary key default gen_random_uuid(),
  client_id uuid not null references auth.users (id) on delete cascade,
  livemode boolean not null,
  -- The round transaction it carries: a bet's debit (and its compensating rollback), a win's
  -- credit, a rollback's rollback.
  round_transaction_id uuid not null references public.round_transaction (id) on delete cascade,
  action text not null,
  -- The body sent, the same on every attempt.
  request jsonb not null,
  status text not null default 'pending',
  -- Attempts made or under way; a finish names its attempt, so a late one changes nothing.
  attempts int not null default 1,
  -- When the next attempt is due, or when the attempt under way counts as abandoned.
  next_attempt_at timestamptz not null default now(),
  last_error text,
  -- The operator's balance after it, when accepted.
  balance numeric(20, 4),
  created_at timestamptz not null default now(),
  completed_at timestamptz,
  constraint wallet_call_one_per_action unique (round_transaction_id, action),
  constraint wallet_call_action_check check (action in ('debit', 'credit', 'rollback')),
  constraint wallet_call_status_check check (status in ('pending', 'accepted', 'failed')),
  constraint wallet_call_completed_at_with_status check ((status = 'pending') = (completed_at is null)),
  constraint wallet_call_attempts_check check (attempts >= 0)
);
comment on table public.wallet_call is
  'Calls to clients'' seamless wallets (debit, credit, rollback), each sent until the operator answers, with the same body.';
create index wallet_call_client_id_idx on public.wallet_call (client_id, created_at desc);
create index wallet_call_due_idx on public.wallet_call (next_attempt_at) where status = 'pending';

-- ============================================================================================
-- Row level security
-- ============================================================================================
alter table public.wallet_call enable row level security;

-- ============================================================================================
-- Grants: read-only for the API roles; the engine and the runner write as the owner.
-- ============================================================================================
grant select on public.wallet_call to authenticated, staff, service_role;

-- ============================================================================================
-- Helper functions
-- ============================================================================================
-- The body of a call to the operator's wallet: the session's facts and the call's own fields. A
-- provider's transaction and round ids are unique to it alone, and the operator keys on them, so
-- they go prefixed with the provider's slug, as game ids do: `pragmatic-play:tx-1001`.
create function private.wallet_request(s public.game_session, action text, fields jsonb) returns jsonb
language sql stable
set search_path = ''
as $$
  select jsonb_build_object('action', action, 'session_id', s.id, 'player_id', s.player_id,
                            'game_id', gp.slug || ':' || s.game, 'currency', s.currency_code)
         || coalesce((select jsonb_object_agg(f.key, case when f.key in ('transaction_id', 'rolled_back_transaction_id', 'round_id')
                                                          then to_jsonb(gp.slug || ':' || (f.value #>> '{}')) else f.value end)
                      from jsonb_each(fields) f), '{}')
  from public.game_provider gp where gp.id = s.provider_id;
$$;
revoke execute on function private.wallet_request from public, anon, authenticated, service_role;

-- A call as the function makes it: where (the client's wallet url), signed with which secrets
-- (the current one, and the previous one for 24 hours after a rotation), and what.
create function private.wallet_call_json(call_id uuid, attempt int, client_id uuid, livemode boolean, request jsonb)
returns json
language sql stable
set search_path = ''
as $$
  select json_build_object('call_id', call_id, 'attempt', attempt, 'url', w.url,
                           'secrets', array_remove(array[s.secret, case when s.previous_until > now() then s.previous_secret end], null),
                           'request', request)
  from public.wallet_setting w
  join private.wallet_secret s on s.client_id = w.client_id and s.livemode = w.livemode
  where w.client_id = wallet_call_json.client_id and w.livemode = wallet_call_json.livemode;
$$;
revoke execute on function private.wallet_call_json from public, anon, authenticated, service_role;

-- Queues the call that carries a round transaction. `claimed`: the caller makes the first attempt
-- at once (and has until the lease ends to finish it); otherwise the runner sends it.
create function private.queue_wallet_call(
  t public.round_transaction, s public.game_session, action text, fields jsonb, claimed boolean default true
) returns table (outcome text, body json, balance text)
language plpgsql
set search_path = ''
as $$
declare
  call public.wallet_call;
begin
  insert into public.wallet_call as c (client_id, livemode, round_transaction_id, action, request, attempts, next_attempt_at)
  values (t.client_id, s.livemode, t.id, action, private.wallet_request(s, action, fields),
          case when claimed then 1 else 0 end, now() + case when claimed then interval '30 seconds' else interval '0' end)
  returning c.* into call;
  return query select 'wallet_call'::text, private.wallet_call_json(call.id, call.attempts, call.client_id, call.livemode, call.request),
                      null::text;
end;
$$;
revoke execute on function private.queue_wallet_call from public, anon, authenticated, service_role;

-- Where a round transaction stands for a repeat of it: answered (its answer replays), waiting for
-- the operator's wallet, or a bet whose debit failed (and was rolled back).
create function private.round_transaction_state(t public.round_transaction) returns text
language sql stable
set search_path = ''
as $$
  select case
    when t.response_body is not null then 'replayed'
    when exists (select 1 from public.wallet_call c
                 where c.round_transaction_id = t.id and c.action = 'debit' and c.status = 'failed') then 'wallet_failed'
    else 'wallet_pending'
  end;
$$;
revoke execute on function private.round_transaction_state from public, anon, authenticated, service_role;

-- Whether a bet of the round waits for the operator's debit.
create function private.debit_pending(round_id uuid) returns boolean
language sql stable
set search_path = ''
as $$
  select exists (
    select 1 from public.round_transaction t
    join public.wallet_call c on c.round_transaction_id = t.id and c.action = 'debit' and c.status = 'pending'
    where t.round_id = debit_pending.round_id
  );
$$;
revoke execute on function private.debit_pending from public, anon, authenticated, service_role;

-- After an attempt, what the operator answered: `accepted` (with its balance), `refused` (with its
-- code and balance) or `failed` (with why). Locks in the engine's order, the round then the call.
-- Outcomes for the provider call that made the attempt: ok (body: its answer, now replayed to
-- repeats), insufficient_funds or wallet_refused (the debit undone; body: the problem's members),
-- wallet_failed (the bet rolled back), wallet_pending (a credit or rollback to be retried); a stale
-- attempt answers where its transaction stands.
create function private.finish_wallet_call(
  call_id uuid, attempt int, answer text, wallet_balance text default null, wallet_code text default null,
  error text default null
) returns table (outcome text, body json, balance text)
language plpgsql
set search_path = ''
as $$
#variable_conflict use_variable
declare
  call public.wallet_call;
  t public.round_transaction;
  round public.game_round;
  wait interval;
  state text;
  accepted_balance numeric(20, 4) := case when answer = 'accepted' then wallet_balance::numeric end;
begin
  select * into t from public.round_transaction x
  where x.id = (select c.round_transaction_id from public.wallet_call c where c.id = call_id);
  select * into round from public.game_round r where r.id = t.round_id for update;
  select * into call from public.wallet_call c where c.id = call_id for update;
  if call.id is null then
    return query select 'stale', null::json, null::text;
    return;
  end if;
  if call.status <> 'pending' or call.attempts <> attempt then
    select * into t from public.round_transaction x where x.id = t.id;
    state := private.round_transaction_state(t);
    return query select case state when 'replayed' then 'ok' else state end, t.response_body, null::text;
    return;
  end if;

  if answer = 'accepted' then
    update public.wallet_call c set status = 'accepted', balance = accepted_balance, last_error = null, completed_at = now()
    where c.id = call.id;
    -- The bet stands: in its round even if another bet closed the round while this one waited.
    if call.action = 'debit' then
      update public.game_round r
      set total_bet = r.total_bet + t.amount,
          status = case when (call.request->>'round_closed')::boolean then 'closed' else r.status end,
          closed_at = case when (call.request->>'round_closed')::boolean then coalesce(r.closed_at, now()) else r.closed_at end
      where r.id = round.id;
    end if;
    -- A bet's compensating rollback answers nobody, and a released held win was answered when it
    -- was held; every other call is its transaction's answer.
    if t.response_body is null and not (t.kind = 'bet' and call.action = 'rollback') then
      update public.round_transaction x
      set response_body = private.round_answer(t.transaction_id, round.provider_round_id, accepted_balance::text,
                                               call.request->>'currency')
      where x.id = t.id
      returning x.* into t;
    end if;
    return query select 'ok', t.response_body, accepted_balance::text;
    return;
  end if;

  if call.action = 'debit' and answer = 'refused' then
    -- Refused: as if never made, so the same bet later is judged again.
    delete from public.round_transaction x where x.id = t.id;
    perform private.count_loss(call.client_id, call.livemode, call.request->>'player_id', call.request->>'currency', -t.amount, false);
    delete from public.game_round r
    where r.id = round.id and not exists (select 1 from public.round_transaction x where x.round_id = round.id);
    return query select case when wallet_code = 'insufficient_funds' then 'insufficient_funds' else 'wallet_refused' end,
                        json_build_object('balance', wallet_balance, 'currency', call.request->>'currency', 'wallet_code', wallet_code),
                        null::text;
    return;
  end if;

  if call.action = 'debit' then
    update public.wallet_call c set status = 'failed', last_error = left(error, 500), completed_at = now() where c.id = call.id;
    update public.round_transaction x set rolled_back = true where x.id = t.id;
    perform private.count_loss(call.client_id, call.livemode, call.request->>'player_id', call.request->>'currency', -t.amount, false);
    -- Nothing left at stake and nothing won: the round is cancelled.
    update public.game_round r set status = 'cancelled', closed_at = now()
    where r.id = round.id and r.total_win = 0 and r.status = 'open'
      and not exists (select 1 from public.round_transaction x where x.round_id = round.id and x.kind = 'bet' and not x.rolled_back);
    insert into public.wallet_call (client_id, livemode, round_transaction_id, action, request, attempts)
    values (call.client_id, call.livemode, t.id, 'rollback',
            (call.request - 'round_closed') || jsonb_build_object('action', 'rollback', 'transaction_id', 'cgs-undo-' || call.id,
                                                                  'rolled_back_transaction_id', call.request->'transaction_id'),
            0);
    return query select 'wallet_failed', null::json, null::text;
    return;
  end if;

  -- A credit or rollback the operator did not take: again later, until the schedule runs out.
  wait := private.retry_delay(call.attempts);
  update public.wallet_call c
  set last_error = left(coalesce(error, 'refused: ' || wallet_code), 500),
      status = case when wait is null then 'failed' else 'pending' end,
      completed_at = case when wait is null then now() end,
      next_attempt_at = case when wait is null then c.next_attempt_at else now() + wait end
  where c.id = call.id
  returning c.* into call;
  if wait is null then
    perform private.emit_event(call.client_id, call.livemode, 'wallet_call.failed', jsonb_build_object(
      'id', call.id, 'action', call.action, 'transaction_id', call.request->>'transaction_id',
      'round_id', call.request->>'round_id', 'amount', call.request->>'amount', 'attempts', call.attempts,
      'last_error', call.last_error));
  end if;
  return query select 'wallet_pending', null::json, null::text;
end;
$$;
revoke execute on function private.finish_wallet_call from public, anon, authenticated, service_role;

-- The delivery runner's claim of wallet calls (any number of runners at once). Debits their caller
-- never finished (its process died) fail first, so they are compensated; then the due credits and
-- rollbacks are claimed for a lease, as deliveries are.
create function private.claim_wallet_calls(batch int, lease_seconds int)
returns table (call json)
language plpgsql
set search_path = ''
as $$
begin
  perform private.finish_wallet_call(c.id, c.attempts, 'failed', error => 'the call was never finished')
  from (select d.id, d.attempts from public.wallet_call d
        where d.status = 'pending' and d.action = 'debit' and d.next_attempt_at <= now()
        order by d.next_attempt_at
        limit claim_wallet_calls.batch) c;
  return query
  with due as (
    select d.id from public.wallet_call d
    where d.status = 'pending' and d.action <> 'debit' and d.next_attempt_at <= now()
    order by d.next_attempt_at
    limit claim_wallet_calls.batch
    for update skip locked
  ), claimed as (
    update public.wallet_call d
    set attempts = d.attempts + 1, next_attempt_at = now() + make_interval(secs => claim_wallet_calls.lease_seconds)
    from due where d.id = due.id
    returning d.*
  )
  select private.wallet_call_json(c.id, c.attempts, c.client_id, c.livemode, c.request) from claimed c;
end;
$$;
revoke execute on function private.claim_wallet_calls from public, anon, authenticated, service_role;

-- POST /v3/sandbox/wallet-checks: where the caller's seamless wallet is (its key's mode) and the
-- secrets that sign calls to it. `authorized` false for a key that does not authenticate; `target`
-- null when the caller is not in seamless mode.
create function private.wallet_check_target(key_hash text)
returns table (authorized boolean, livemode boolean, target json)
language sql stable
set search_path = ''
as $$
  select a.key_id is not null, a.livemode,
         case when w.mode = 'seamless' then private.wallet_call_json(null, 0, a.client_id, a.livemode, '{}') end
  from (select 1) one
  left join private.authenticate_api_key(wallet_check_target.key_hash) a on true
  left join public.wallet_setting w on w.client_id = a.client_id and w.livemode = a.livemode;
$$;
revoke execute on function private.wallet_check_target from public, anon, authenticated, service_role;

-- ============================================================================================
-- Functions (RPC)
-- ============================================================================================
-- Staff send a failed credit or rollback again, on a fresh schedule.
create function private.retry_wallet_call(call_id uuid) returns public.wallet_call
language plpgsql
-- security definer: staff may not write wallet calls themselves; this is their one change.
security definer
set search_path = ''
as $$
declare
  call public.wallet_call;
begin
  perform private.require_staff('retry wallet calls');
  update public.wallet_call c
  set status = 'pending', attempts = 0, next_attempt_at = now(), completed_at = null
  where c.id = retry_wallet_call.call_id and c.status = 'failed' and c.action <> 'debit'
  returning c.* into call;
  if call.id is null then
    raise exception 'no failed credit or rollback %', retry_wallet_call.call_id using errcode = 'P0002';
  end if;
  return call;
end;
$$;
revoke execute on function private.retry_wallet_call from public, anon, authenticated;
grant execute on function private.retry_wallet_call to staff, service_role;

create function public.retry_wallet_call(call_id uuid) returns public.wallet_call
language sql
set search_path = ''
as $$
  select * from private.retry_wallet_call(retry_wallet_call.call_id);
$$;
comment on function public.retry_wallet_call(uuid) is
  'Staff: sends a seamless credit or rollback that exhausted its retries again, on a fresh schedule.';
revoke execute on function public.retry_wallet_call(uuid) from public, anon;
grant execute on function public.retry_wallet_call(uuid) to authenticated, staff, service_role;

-- ============================================================================================
-- Policies
-- ============================================================================================
create policy "clients read their own wallet calls"
  on public.wallet_call for select to authenticated
  using (client_id = (select private.uid()));

create policy "staff read all wallet calls"
  on public.wallet_call for select to staff
  using (true);
