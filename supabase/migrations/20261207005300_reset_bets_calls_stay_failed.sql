-- A call a sandbox reset wrote back is never sent again (issue 35, with
-- 20261207004900_sandbox_reset_unsent_calls.sql): the reset takes off a seamless test bet what its
-- payout and clawback calls the wallet never took would have moved, failed ones included, so staff
-- sending one of them again (private.retry_wallet_call) would move money the bet no longer shows,
-- to the client's test wallet of now and a new test player of the same id. Such a call is refused
-- as a call that is not failed is: `no failed credit or rollback` (P0002), nothing changed.
--
-- Replaces private.retry_wallet_call (the seamless wallet migration); the rest is unchanged.

create or replace function private.retry_wallet_call(call_id uuid) returns public.wallet_call
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
    -- Not a call of a bet a sandbox reset ended: it wrote the call's money back.
    and not exists (select 1 from public.round_transaction t join public.sportsbook_bet b on b.round_id = t.round_id
                    where t.id = c.round_transaction_id and b.settlements @> '[{"type": "sandbox_reset"}]')
  returning c.* into call;
  if call.id is null then
    raise exception 'no failed credit or rollback %', retry_wallet_call.call_id using errcode = 'P0002';
  end if;
  return call;
end;
$$;
revoke execute on function private.retry_wallet_call from public, anon, authenticated;
grant execute on function private.retry_wallet_call to staff, service_role;
