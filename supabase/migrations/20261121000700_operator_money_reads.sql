-- The operator API's reads of its own money (GET /v3/wallets, GET /v3/transactions): a client's
-- balances, one per currency, and its ledger, newest first. Each is one call that checks the key
-- too: `authorized` is false (and nothing else is set) for a key that does not authenticate; an
-- authorized call with nothing to list returns no row. Amounts are numeric(20,4) in the database
-- and leave it as text, so every digit arrives (a float would round a balance of 12345678901.2345).
-- Security invoker: the endpoints call them as the database owner.
-- The float is live money: a test key (livemode false) sees no wallet and no movement of it.

-- ============================================================================================
-- Indexes
-- ============================================================================================
-- A client's ledger newest first, in the order it was recorded: the list's keyset.
create index transaction_client_id_ledger_seq_idx on public.transaction (client_id, ledger_seq desc);

-- ============================================================================================
-- Helper functions
-- ============================================================================================
create function private.list_wallets(key_hash text)
returns table (authorized boolean, wallet json)
language plpgsql stable
set search_path = ''
as $$
begin
  return query
  select a.key_id is not null, w.wallet
  from (select 1) one
  left join private.authenticate_api_key(list_wallets.key_hash) a on true
  left join lateral (
    select json_build_object('currency', w.currency_code, 'balance', w.balance::text, 'is_primary', w.is_primary,
                              'updated_at', w.updated_at) as wallet
    from public.wallet w
    where a.livemode and w.client_id = a.client_id
    order by w.is_primary desc, w.currency_code collate "C"
  ) w on true;
end;
$$;
revoke execute on function private.list_wallets from public, anon, authenticated, service_role;

-- Each movement's JSON leaves as text, which the endpoint puts into its response as it is.
-- The ledger is paged by ledger_seq, the order movements were recorded in (created_at is each
-- transaction's start, not its commit): the caller passes the last position of the previous page.
create function private.list_transactions(
  key_hash text,
  currency text,
  type text,
  created_after timestamptz,
  created_before timestamptz,
  before_seq bigint,
  page_size int
) returns table (authorized boolean, seq bigint, transaction text)
language plpgsql stable
set search_path = ''
as $$
begin
  return query
  select a.key_id is not null, t.ledger_seq, t.transaction
  from (select 1) one
  left join private.authenticate_api_key(list_transactions.key_hash) a on true
  left join lateral (
    select t.ledger_seq,
           json_build_object('id', t.id, 'type', t.type, 'currency', t.currency_code, 'amount', t.amount::text,
                              'balance_after', t.balance_after::text, 'reference', t.reference, 'note', t.note,
                              'created_at', t.created_at)::text as transaction
    from public.transaction t
    where a.livemode and t.client_id = a.client_id
      and (list_transactions.currency is null or t.currency_code = list_transactions.currency)
      and (list_transactions.type is null or t.type = list_transactions.type)
      and (list_transactions.created_after is null or t.created_at >= list_transactions.created_after)
      and (list_transactions.created_before is null or t.created_at < list_transactions.created_before)
      and (list_transactions.before_seq is null or t.ledger_seq < list_transactions.before_seq)
    order by t.ledger_seq desc
    limit list_transactions.page_size
  ) t on true;
end;
$$;
revoke execute on function private.list_transactions from public, anon, authenticated, service_role;
