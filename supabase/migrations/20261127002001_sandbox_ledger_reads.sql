-- The sandbox's ledger, read (issue 37, item 3): GET /v3/wallets and GET /v3/transactions answer a
-- test key with its test floats and test ledger (public.sandbox_wallet, public.sandbox_transaction),
-- a live key with the float and ledger, in the same shapes, as Stripe's test mode does: the key's
-- mode chooses the ledger, and neither mode ever sees the other's lines.
--
-- Replaces private.list_wallets and private.list_transactions (the operator money reads migration),
-- where a test key saw no wallet and no movement. Each arm names its mode, and is planned with it:
-- the arm of the other mode is a one-time filter that reads nothing.
-- A test float is never primary (`is_primary` false: there is one per currency its test players
-- hold, made by them); a test line has no `reference` (the engine's lines have none; live ones
-- come from staff's record_transaction).

-- ============================================================================================
-- Helper functions
-- ============================================================================================
create or replace function private.list_wallets(key_hash text)
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
    (select json_build_object('currency', w.currency_code, 'balance', w.balance::text, 'is_primary', w.is_primary,
                               'updated_at', w.updated_at) as wallet
     from public.wallet w
     where a.livemode and w.client_id = a.client_id
     order by w.is_primary desc, w.currency_code collate "C")
    union all
    (select json_build_object('currency', w.currency_code, 'balance', w.balance::text, 'is_primary', false,
                               'updated_at', w.updated_at)
     from public.sandbox_wallet w
     where not a.livemode and w.client_id = a.client_id
     order by w.currency_code collate "C")
  ) w on true;
end;
$$;
revoke execute on function private.list_wallets from public, anon, authenticated, service_role;

-- Each movement's JSON leaves as text, which the endpoint puts into its response as it is.
-- The ledger is paged by ledger_seq, the order movements were recorded in (created_at is each
-- transaction's start, not its commit): the caller passes the last position of the previous page.
-- The test ledger has a sequence of its own: a cursor of one mode finds nothing of the other's.
create or replace function private.list_transactions(
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
    (select t.ledger_seq,
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
     limit list_transactions.page_size)
    union all
    (select t.ledger_seq,
            json_build_object('id', t.id, 'type', t.type, 'currency', t.currency_code, 'amount', t.amount::text,
                               'balance_after', t.balance_after::text, 'reference', null, 'note', t.note,
                               'created_at', t.created_at)::text as transaction
     from public.sandbox_transaction t
     where not a.livemode and t.client_id = a.client_id
       and (list_transactions.currency is null or t.currency_code = list_transactions.currency)
       and (list_transactions.type is null or t.type = list_transactions.type)
       and (list_transactions.created_after is null or t.created_at >= list_transactions.created_after)
       and (list_transactions.created_before is null or t.created_at < list_transactions.created_before)
       and (list_transactions.before_seq is null or t.ledger_seq < list_transactions.before_seq)
     order by t.ledger_seq desc
     limit list_transactions.page_size)
  ) t on true;
end;
$$;
revoke execute on function private.list_transactions from public, anon, authenticated, service_role;
