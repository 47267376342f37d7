-- Wallet modes: how an operator's players' money moves, per client and mode (live or test).
-- `transfer` (the default): the operator's float at the platform funds play (the round engine).
-- `seamless`: the money stays with the operator, and the platform calls its wallet `url` for each
-- bet, win and rollback, signed with the Standard Webhooks scheme and a secret of its own.
--
-- The secret (`whsec_` and 32 random bytes, base64) must be readable by the service to sign, so it
-- lives in private.wallet_secret, which no API role can reach; it is shown once, when made (the
-- first switch to seamless, or a rotation). After a rotation the previous secret signs too, for 24
-- hours, so the operator can move over without a gap. Operators set their own with PUT
-- /v3/wallet-settings; staff with set_wallet_settings. The mode cannot change while a round of the
-- client's in that mode is open: its bets and wins must settle in the same wallet.

-- ============================================================================================
-- Tables
-- ============================================================================================
create table public.wallet_setting (
  client_id uuid not null references auth.users (id) on delete cascade,
  livemode boolean not null,
  mode text not null default 'transfer',
  url text,
  -- The secret's first characters, to recognise it; never the secret.
  secret_prefix text,
  updated_at timestamptz not null default now(),
  -- Transfer mode: { "EUR": "100.0000" }: a movement that takes the float below it is told
  -- (wallet.balance_low, the webhooks migration).
  low_balance_alerts jsonb not null default '{}',
  primary key (client_id, livemode),
  constraint wallet_setting_mode_check check (mode in ('transfer', 'seamless')),
  constraint wallet_setting_url_format check (url ~ '^https?://[^\s/?#]+[^\s]*$' and char_length(url) <= 2048),
  constraint wallet_setting_seamless_needs_url check (mode <> 'seamless' or (url is not null and secret_prefix is not null)),
  constraint wallet_setting_low_balance_alerts_object check (jsonb_typeof(low_balance_alerts) = 'object')
);
comment on table public.wallet_setting is
  'How a client''s players'' money moves, per mode: transfer (its float here) or seamless (its own wallet at url).';

create table private.wallet_secret (
  client_id uuid not null,
  livemode boolean not null,
  secret text not null,
  previous_secret text,
  previous_until timestamptz,
  created_at timestamptz not null default now(),
  primary key (client_id, livemode),
  foreign key (client_id, livemode) references public.wallet_setting (client_id, livemode) on delete cascade,
  constraint wallet_secret_format check (secret ~ '^whsec_[A-Za-z0-9+/]{43}=$')
);
comment on table private.wallet_secret is
  'The secret signing calls to a client''s seamless wallet, and the one before a rotation (until previous_until).';

-- ============================================================================================
-- Row level security
-- ============================================================================================
alter table public.wallet_setting enable row level security;
alter table private.wallet_secret enable row level security;

-- ============================================================================================
-- Grants: read-only for the API roles; writes go through the endpoint (as the owner) or the RPC.
-- ============================================================================================
grant select on public.wallet_setting to authenticated, staff, service_role;

-- ============================================================================================
-- Helper functions
-- ============================================================================================

-- A client's mode in a key mode (transfer until set), read under its lock: shared for a provider
-- call, held to its end so the mode cannot change under a call that opens a round; exclusive for a
-- change, which so waits for the calls in flight and then sees their rounds.
create function private.lock_wallet_mode(client_id uuid, livemode boolean, exclusive boolean) returns text
language plpgsql
set search_path = ''
as $$
declare
  lock_key bigint := hashtextextended(client_id::text || ' wallet mode ' || livemode::text, 0);
begin
  if exclusive then
    perform pg_advisory_xact_lock(lock_key);
  else
    perform pg_advisory_xact_lock_shared(lock_key);
  end if;
  return coalesce((select w.mode from public.wallet_setting w
                   where w.client_id = lock_wallet_mode.client_id and w.livemode = lock_wallet_mode.livemode),
                  'transfer');
end;
$$;
revoke execute on function private.lock_wallet_mode from public, anon, authenticated, service_role;

create function private.wallet_setting_json(setting public.wallet_setting) returns text
language sql immutable
set search_path = ''
as $$
  select json_build_object('mode', setting.mode, 'url', setting.url, 'secret_prefix', setting.secret_prefix,
                           'low_balance_alerts', setting.low_balance_alerts, 'livemode', setting.livemode,
                           'updated_at', setting.updated_at)::text;
$$;
revoke execute on function private.wallet_setting_json from public, anon, authenticated, service_role;

-- The one way settings change. Outcomes: updated (with `secret` when one was made), rounds_open,
-- url_required. A seamless wallet's first secret is made with the switch; `rotate` makes a new one
-- and keeps the old one signing for 24 hours. `alerts` (null: unchanged) replaces the low-balance
-- alerts, amounts with four places.
create function private.change_wallet_settings(
  client_id uuid, livemode boolean, mode text, url text, rotate boolean, alerts jsonb default null
) returns table (outcome text, settings text, secret text)
language plpgsql
set search_path = ''
as $$
#variable_conflict use_variable
declare
  current public.wallet_setting;
  new_secret text;
  new_url text;
begin
  perform private.lock_wallet_mode(client_id, livemode, true);
  insert into public.wallet_setting as w (client_id, livemode) values (client_id, livemode)
  on conflict on constraint wallet_setting_pkey do nothing;
  select * into current from public.wallet_setting w
  where w.client_id = change_wallet_settings.client_id and w.livemode = change_wallet_settings.livemode
  for update;
  new_url := coalesce(url, current.url);
  if mode = 'seamless' and new_url is null then
    return query select 'url_required', null::text, null::text;
    return;
  end if;
  if mode <> current.mode and exists (
    select 1 from public.game_round r
    where r.client_id = current.client_id and r.livemode = current.livemode and r.status = 'open'
  ) then
    return query select 'rounds_open', null::text, null::text;
    return;
  end if;
  if (mode = 'seamless' and current.secret_prefix is null) or rotate then
    new_secret := private.new_signing_secret();
    insert into private.wallet_secret as s (client_id, livemode, secret)
    values (current.client_id, current.livemode, new_secret)
    on conflict on constraint wallet_secret_pkey do update
      set previous_secret = s.secret, previous_until = now() + interval '24 hours', secret = excluded.secret,
          created_at = now();
  end if;
  update public.wallet_setting w
  set mode = change_wallet_settings.mode, url = new_url,
      secret_prefix = coalesce(left(new_secret, 12), w.secret_prefix), updated_at = now(),
      low_balance_alerts = case when alerts is null then w.low_balance_alerts else (
        select coalesce(jsonb_object_agg(a.key, to_jsonb((a.value #>> '{}')::numeric(20, 4)::text)), '{}') from jsonb_each(alerts) a) end
  where w.client_id = current.client_id and w.livemode = current.livemode
  returning w.* into current;
  return query select 'updated', private.wallet_setting_json(current), new_secret;
end;
$$;
revoke execute on function private.change_wallet_settings from public, anon, authenticated, service_role;

-- GET /v3/wallet-settings: the caller's settings in its key's mode (transfer until set).
create function private.read_wallet_settings(key_hash text)
returns table (authorized boolean, settings text)
language plpgsql stable
set search_path = ''
as $$
begin
  return query
  select a.key_id is not null,
         case when a.key_id is not null then private.wallet_setting_json(coalesce(
           w, row(a.client_id, a.livemode, 'transfer', null, null, null, '{}')::public.wallet_setting)) end
  from (select 1) one
  left join private.authenticate_api_key(read_wallet_settings.key_hash) a on true
  left join public.wallet_setting w on w.client_id = a.client_id and w.livemode = a.livemode;
end;
$$;
revoke execute on function private.read_wallet_settings from public, anon, authenticated, service_role;

-- PUT /v3/wallet-settings: the key check and the change in one call.
create function private.put_wallet_settings(key_hash text, mode text, url text, rotate boolean, alerts jsonb default null)
returns table (outcome text, settings text, secret text)
language plpgsql
set search_path = ''
as $$
declare
  caller record;
begin
  select * into caller from private.authenticate_api_key(put_wallet_settings.key_hash);
  if caller.key_id is null then
    return query select 'unauthorized', null::text, null::text;
    return;
  end if;
  return query select * from private.change_wallet_settings(caller.client_id, caller.livemode, mode, url, rotate, alerts);
end;
$$;
revoke execute on function private.put_wallet_settings from public, anon, authenticated, service_role;

-- ============================================================================================
-- Functions (RPC)
-- ============================================================================================
-- Staff set a client's settings (live mode unless told otherwise); the secret comes back once.
create function private.set_wallet_settings(
  client_id uuid, mode text, url text default null, rotate boolean default false, livemode boolean default true
) returns table (outcome text, settings text, secret text)
language plpgsql
-- security definer: staff may not write wallet settings or secrets themselves; this is their way.
security definer
set search_path = ''
as $$
begin
  perform private.require_staff('set wallet settings');
  if mode is null or mode not in ('transfer', 'seamless') then
    raise exception 'mode must be transfer or seamless' using errcode = '22023';
  end if;
  if not exists (select 1 from public.user_role ur where ur.user_id = set_wallet_settings.client_id and ur.role = 'client') then
    raise exception 'no client account %', set_wallet_settings.client_id using errcode = '23503';
  end if;
  return query
    select * from private.change_wallet_settings(client_id, livemode, mode, url, coalesce(rotate, false));
end;
$$;
revoke execute on function private.set_wallet_settings from public, anon, authenticated;
grant execute on function private.set_wallet_settings to staff, service_role;

create function public.set_wallet_settings(
  client_id uuid, mode text, url text default null, rotate boolean default false, livemode boolean default true
) returns table (outcome text, settings json, secret text)
language sql
set search_path = ''
as $$
  select s.outcome, s.settings::json, s.secret
  from private.set_wallet_settings(set_wallet_settings.client_id, set_wallet_settings.mode, set_wallet_settings.url,
                                   set_wallet_settings.rotate, set_wallet_settings.livemode) s;
$$;
comment on function public.set_wallet_settings(uuid, text, text, boolean, boolean) is
  'Staff: sets a client''s wallet mode (transfer or seamless, with its url); a new signing secret is returned once.';
revoke execute on function public.set_wallet_settings(uuid, text, text, boolean, boolean) from public, anon;
grant execute on function public.set_wallet_settings(uuid, text, text, boolean, boolean) to authenticated, staff, service_role;

-- ============================================================================================
-- Events: a movement of the float, and a low balance
-- ============================================================================================
-- The float is live money: its movements are live events.
create function private.event_for_transaction() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  threshold numeric;
begin
  perform private.emit_event(new.client_id, true, 'transaction.created', jsonb_build_object(
    'id', new.id, 'type', new.type, 'currency', new.currency_code, 'amount', new.amount::text,
    'balance_after', new.balance_after::text, 'reference', new.reference, 'note', new.note,
    'created_at', new.created_at));
  -- A movement down across the client's alert for this currency: wallet.balance_low, once per crossing.
  if new.amount < 0 then
    select (w.low_balance_alerts->>new.currency_code)::numeric into threshold
    from public.wallet_setting w where w.client_id = new.client_id and w.livemode;
    if new.balance_after < threshold and new.balance_after - new.amount >= threshold then
      perform private.emit_event(new.client_id, true, 'wallet.balance_low', jsonb_build_object(
        'currency', new.currency_code, 'balance', new.balance_after::text, 'threshold', threshold::numeric(20, 4)::text,
        'transaction_id', new.id));
    end if;
  end if;
  return null;
end;
$$;
revoke execute on function private.event_for_transaction() from public, anon, authenticated, service_role;

create trigger transaction_event
  after insert on public.transaction
  for each row execute function private.event_for_transaction();

-- ============================================================================================
-- Policies
-- ============================================================================================
create policy "clients read their own wallet settings"
  on public.wallet_setting for select to authenticated
  using (client_id = (select private.uid()));

create policy "staff read all wallet settings"
  on public.wallet_setting for select to staff
  using (true);
