-- A due wallet call whose client has no wallet to call any more: claimed all the same.
--
-- Replaces private.claim_wallet_calls (20261121001400_seamless_wallet.sql), whose rule was: each
-- claimed call comes as private.wallet_call_json makes it, which joins the client's wallet settings
-- and signing secret, and so is null for a client that has lost either since the call was queued.
-- The delivery runner serves every client in one run, and a null call ended the run for all of them
-- (a TypeError), every run, while that call was due. Now such a call comes with its id, attempt and
-- request, no url and no secret: the runner records a failed attempt that says why (wallet-call.ts),
-- and the call is retried on the schedule like any other failure, so settings set again in time
-- still deliver it, and otherwise it fails and the client is told (wallet_call.failed).
create or replace function private.claim_wallet_calls(batch int, lease_seconds int)
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
  select coalesce(private.wallet_call_json(c.id, c.attempts, c.client_id, c.livemode, c.request),
                  json_build_object('call_id', c.id, 'attempt', c.attempts, 'url', null, 'secrets', json_build_array(),
                                    'request', c.request))
  from claimed c;
end;
$$;
revoke execute on function private.claim_wallet_calls from public, anon, authenticated, service_role;
