-- Game rounds: what a game provider's server reports while a player plays (bets, wins, rollbacks),
-- the keys it authenticates with, and the limits on what a round may win before staff look at it.
-- The round engine that writes them is the round engine migration, once the wallets it moves money
-- in (the wallet modes, seamless wallet and sandbox migrations) exist.
--
-- Provider keys are `cgs_prov_` and 43 base64url characters (256 random bits), one or more per
-- provider, stored as SHA-256 and shown once, issued and revoked by staff (or `npm run key -- issue
-- --provider <slug>`). A revoked key stays revoked.
-- Clients read their own rounds, round transactions and held wins, staff all; nobody writes them
-- through the API. Win limits and provider keys are staff's.

-- ============================================================================================
-- Tables
-- ============================================================================================
create table public.provider_key (
  id uuid primary key default gen_random_uuid(),
  provider_id uuid not null references public.game_provider (id) on delete cascade,
  label text not null default 'Default',
  key_prefix text not null,
  key_hash text not null,
  status text not null default 'active',
  last_used_at timestamptz,
  created_at timestamptz not null default now(),
  revoked_at timestamptz,
  constraint provider_key_key_hash_key unique (key_hash),
  constraint provider_key_key_hash_format check (key_hash ~ '^[0-9a-f]{64}$'),
  constraint provider_key_key_prefix_format check (key_prefix like 'cgs\_prov\_%' and char_length(key_prefix) <= 32),
  constraint provider_key_label_length check (char_length(label) between 1 and 100),
  constraint provider_key_status_check check (status in ('active', 'revoked')),
  constraint provider_key_revoked_at_with_status check ((status = 'revoked') = (revoked_at is not null))
);
comment on table public.provider_key is
  'Game providers'' API keys (cgs_prov_). key_hash is the lowercase hex SHA-256 of the whole key; the key is never stored.';
create index provider_key_provider_id_idx on public.provider_key (provider_id);

create table public.game_round (
  id uuid primary key default gen_random_uuid(),
  provider_id uuid not null references public.game_provider (id),
  -- The provider's id of the round, unique per provider.
  provider_round_id text not null,
  client_id uuid not null references auth.users (id) on delete cascade,
  livemode boolean not null,
  session_id uuid not null references public.game_session (id) on delete cascade,
  player_id text not null,
  game text not null,
  currency_code text not null references public.currency (code),
  -- The wallet the round's money moves in, fixed by its first bet: every later movement of the round
  -- (bets, wins, rollbacks, staff cancels, compensations) settles there, whatever the client's mode
  -- is by then, so a refund always returns to the wallet that was debited.
  wallet_mode text not null default 'transfer',
  status text not null default 'open',
  total_bet numeric(20, 4) not null default 0,
  total_win numeric(20, 4) not null default 0,
  opened_at timestamptz not null default now(),
  closed_at timestamptz,
  -- When it was reported stuck (open too long: round.stuck, the webhooks migration).
  stuck_reported_at timestamptz,
  constraint game_round_provider_round_key unique (provider_id, provider_round_id),
  constraint game_round_provider_round_id_length check (char_length(provider_round_id) between 1 and 128),
  constraint game_round_status_check check (status in ('open', 'closed', 'cancelled')),
  constraint game_round_wallet_mode_check check (wallet_mode in ('transfer', 'seamless')),
  constraint game_round_closed_at_with_status check ((status = 'open') = (closed_at is null)),
  constraint game_round_totals_nonnegative check (total_bet >= 0 and total_win >= 0)
);
comment on table public.game_round is
  'A round of play a provider reported: its bets and wins (totals net of rollbacks); open, closed or cancelled.';
create index game_round_client_id_opened_at_idx on public.game_round (client_id, livemode, opened_at desc);
create index game_round_session_id_idx on public.game_round (session_id);
create index game_round_currency_code_idx on public.game_round (currency_code);
-- Rounds left open: the stuck-round list, and those not yet reported stuck.
create index game_round_open_idx on public.game_round (opened_at) where status = 'open';
create index game_round_unreported_open_idx on public.game_round (opened_at) where status = 'open' and stuck_reported_at is null;

create table public.round_transaction (
  id uuid primary key default gen_random_uuid(),
  provider_id uuid not null references public.game_provider (id),
  -- The provider's id of this transaction: it applies once, forever.
  transaction_id text not null,
  kind text not null,
  client_id uuid not null references auth.users (id) on delete cascade,
  -- Null for a tombstone: a rollback of a transaction nobody had seen.
  round_id uuid references public.game_round (id) on delete cascade,
  amount numeric(20, 4) not null,
  -- The bet a win names or a rollback reverses, as the provider named it, and that bet when known.
  related_transaction_id text,
  related_id uuid references public.round_transaction (id),
  -- Bets: reversed by a rollback, or settled by a win that named them.
  rolled_back boolean not null default false,
  settled boolean not null default false,
  -- The float's movement, when money moved.
  ledger_transaction_id uuid references public.transaction (id),
  -- What the request meant (a repeat must mean the same) and the answer given, replayed verbatim;
  -- null while the operator's seamless wallet has not accepted it.
  request_fingerprint text not null,
  response_body json,
  created_at timestamptz not null default now(),
  constraint round_transaction_provider_transaction_key unique (provider_id, transaction_id),
  constraint round_transaction_transaction_id_length check (char_length(transaction_id) between 1 and 128),
  constraint round_transaction_kind_check check (kind in ('bet', 'win', 'rollback')),
  constraint round_transaction_amount_check check (amount >= 0 and (kind <> 'bet' or amount > 0)),
  constraint round_transaction_round_unless_tombstone check (round_id is not null or kind = 'rollback'),
  constraint round_transaction_fingerprint_format check (request_fingerprint ~ '^[0-9a-f]{64}$')
);
comment on table public.round_transaction is
  'Each bet, win and rollback a provider reported, applied once: the answer given is replayed to a repeat.';
create index round_transaction_round_id_idx on public.round_transaction (round_id);
create index round_transaction_client_id_idx on public.round_transaction (client_id);
create index round_transaction_related_id_idx on public.round_transaction (related_id);
create index round_transaction_ledger_transaction_id_idx on public.round_transaction (ledger_transaction_id);
-- A bet's tombstone: a rollback that named it before it arrived.
create index round_transaction_rollback_target_idx
  on public.round_transaction (provider_id, related_transaction_id) where kind = 'rollback';

-- A limit applies to every provider (provider_id null), to one provider, or to one of its games;
-- it caps what a round wins at a multiple of what it bet, or at an amount in one currency. Every
-- limit that applies holds, so the strictest decides.
create table public.win_limit (
  id uuid primary key default gen_random_uuid(),
  provider_id uuid references public.game_provider (id) on delete cascade,
  -- A game code of the provider; null: all its games.
  game text,
  -- The currency of max_amount.
  currency_code text references public.currency (code),
  max_multiple numeric(12, 2),
  max_amount numeric(20, 4),
  created_at timestamptz not null default now(),
  constraint win_limit_game_of_provider check (game is null or provider_id is not null),
  constraint win_limit_has_a_cap check (max_multiple is not null or max_amount is not null),
  constraint win_limit_amount_in_currency check ((max_amount is null) = (currency_code is null)),
  constraint win_limit_positive check (max_multiple > 0 and max_amount > 0),
  constraint win_limit_scope_key unique nulls not distinct (provider_id, game, currency_code)
);
comment on table public.win_limit is
  'Staff''s limits on what a round may win before review: a multiple of its bets, or an amount in a currency.';
create index win_limit_provider_id_idx on public.win_limit (provider_id);
create index win_limit_currency_code_idx on public.win_limit (currency_code);

create table public.held_win (
  round_transaction_id uuid primary key references public.round_transaction (id) on delete cascade,
  client_id uuid not null references auth.users (id) on delete cascade,
  livemode boolean not null,
  round_id uuid not null references public.game_round (id) on delete cascade,
  amount numeric(20, 4) not null,
  currency_code text not null references public.currency (code),
  -- The limit it passed (null once that limit is deleted).
  win_limit_id uuid references public.win_limit (id) on delete set null,
  status text not null default 'held',
  held_at timestamptz not null default now(),
  decided_at timestamptz,
  decided_by uuid references auth.users (id) on delete set null,
  reason text,
  constraint held_win_status_check check (status in ('held', 'released', 'rejected')),
  constraint held_win_decided_at_with_status check ((status = 'held') = (decided_at is null)),
  constraint held_win_amount_positive check (amount > 0),
  constraint held_win_reason_length check (char_length(reason) <= 500)
);
comment on table public.held_win is
  'Wins past a win limit, recorded but not paid until staff release them (or never, rejected).';
create index held_win_client_id_idx on public.held_win (client_id, held_at desc);
create index held_win_round_id_idx on public.held_win (round_id);
create index held_win_win_limit_id_idx on public.held_win (win_limit_id);
create index held_win_decided_by_idx on public.held_win (decided_by);
create index held_win_currency_code_idx on public.held_win (currency_code);
-- Staff's queue: the wins waiting for a decision.
create index held_win_waiting_idx on public.held_win (held_at) where status = 'held';

-- ============================================================================================
-- Row level security
-- ============================================================================================
alter table public.provider_key enable row level security;
alter table public.game_round enable row level security;
alter table public.round_transaction enable row level security;
alter table public.win_limit enable row level security;
alter table public.held_win enable row level security;

-- ============================================================================================
-- Grants: clients read their own rounds; staff read all and manage provider keys; the engine
-- writes as the owner.
-- ============================================================================================
grant select, insert, update, delete on public.provider_key to staff;
grant all on public.provider_key to service_role;
grant select on public.game_round, public.round_transaction to authenticated, staff, service_role;
grant select, insert, update, delete on public.win_limit to staff;
grant all on public.win_limit to service_role;
grant select on public.held_win to authenticated, staff, service_role;

-- ============================================================================================
-- Reference data: the platform's default win limit, for every provider and game: a round may win
-- up to 10,000 times what it bet before staff look at it. Staff add stricter ones per provider or
-- game, and amounts per currency.
-- ============================================================================================
insert into public.win_limit (max_multiple) values (10000);

-- ============================================================================================
-- Helper functions
-- ============================================================================================
create function private.keep_provider_key_revoked() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if old.status = 'revoked' and (new.status, new.revoked_at, new.key_hash, new.provider_id)
     is distinct from (old.status, old.revoked_at, old.key_hash, old.provider_id) then
    raise exception 'a revoked provider key stays revoked: only its label may change' using errcode = '23514';
  end if;
  return new;
end;
$$;
revoke execute on function private.keep_provider_key_revoked() from public, anon, authenticated;

-- The key (by SHA-256) and its provider when the key is active; no row otherwise. A provider in
-- maintenance still settles what its players played.
create function private.authenticate_provider_key(key_hash text)
returns table (key_id uuid, provider_id uuid, provider_slug text)
language plpgsql stable
rows 1
set search_path = ''
as $$
begin
  return query
    select k.id, k.provider_id, gp.slug
    from public.provider_key k
    join public.game_provider gp on gp.id = k.provider_id
    where k.key_hash = authenticate_provider_key.key_hash and k.status = 'active';
end;
$$;
revoke execute on function private.authenticate_provider_key from public, anon, authenticated, service_role;

-- The answer to a successful call, as stored and replayed.
create function private.round_answer(
  transaction_id text, round_id text, balance text, currency text
) returns json
language sql immutable
set search_path = ''
as $$
  select json_build_object('transaction_id', transaction_id, 'round_id', round_id, 'balance', balance,
                           'currency', currency);
$$;
revoke execute on function private.round_answer from public, anon, authenticated, service_role;

-- ============================================================================================
-- Triggers
-- ============================================================================================
create trigger provider_key_keep_revoked
  before update on public.provider_key
  for each row execute function private.keep_provider_key_revoked();

-- ============================================================================================
-- Functions (RPC: security invoker, so provider_key's own policies apply to the caller too)
-- ============================================================================================
-- Staff, or the service itself; everyone else: 42501.
create function public.issue_provider_key(provider_slug text, label text default 'Default')
returns table (id uuid, key text, key_prefix text)
language plpgsql
set search_path = ''
as $$
#variable_conflict use_column
declare
  new_key text := 'cgs_prov_' || translate(rtrim(encode(extensions.gen_random_bytes(32), 'base64'), '='), '+/', '-_');
  provider uuid;
  new_id uuid;
begin
  perform private.require_staff('manage provider keys');
  select gp.id into provider from public.game_provider gp where gp.slug = issue_provider_key.provider_slug;
  if provider is null then
    raise exception 'no provider %', issue_provider_key.provider_slug using errcode = '23503';
  end if;
  insert into public.provider_key (provider_id, label, key_prefix, key_hash)
  values (provider, coalesce(issue_provider_key.label, 'Default'), left(new_key, 16),
          encode(extensions.digest(new_key, 'sha256'), 'hex'))
  returning provider_key.id into new_id;
  return query select new_id, new_key, left(new_key, 16);
end;
$$;
comment on function public.issue_provider_key(text, text) is
  'Staff or the service itself: creates a key for a game provider and returns it; the key is not stored and '
  'cannot be shown again.';
revoke execute on function public.issue_provider_key(text, text) from public, anon;
grant execute on function public.issue_provider_key(text, text) to authenticated, staff, service_role;

create function public.revoke_provider_key(id uuid)
returns table (key_prefix text, status text, revoked_at timestamptz)
language plpgsql
set search_path = ''
as $$
#variable_conflict use_column
begin
  perform private.require_staff('manage provider keys');
  return query
    update public.provider_key k
    set status = 'revoked', revoked_at = coalesce(k.revoked_at, now())
    where k.id = revoke_provider_key.id
    returning k.key_prefix, k.status, k.revoked_at;
  if not found then
    raise exception 'no provider key %', revoke_provider_key.id using errcode = 'P0002';
  end if;
end;
$$;
comment on function public.revoke_provider_key(uuid) is
  'Staff or the service itself: revokes a provider key for good; calls with it are refused from the next one on.';
revoke execute on function public.revoke_provider_key(uuid) from public, anon;
grant execute on function public.revoke_provider_key(uuid) to authenticated, staff, service_role;

-- ============================================================================================
-- Policies
-- ============================================================================================
create policy "staff read provider keys"
  on public.provider_key for select to staff
  using (true);

create policy "staff create provider keys"
  on public.provider_key for insert to staff
  with check ((select private.is_staff()));

create policy "staff update provider keys"
  on public.provider_key for update to staff
  using ((select private.is_staff()))
  with check ((select private.is_staff()));

create policy "staff delete provider keys"
  on public.provider_key for delete to staff
  using ((select private.is_staff()));

create policy "clients read their own rounds"
  on public.game_round for select to authenticated
  using (client_id = (select private.uid()));

create policy "staff read all rounds"
  on public.game_round for select to staff
  using (true);

create policy "clients read their own round transactions"
  on public.round_transaction for select to authenticated
  using (client_id = (select private.uid()));

create policy "staff read all round transactions"
  on public.round_transaction for select to staff
  using (true);

create policy "staff read win limits"
  on public.win_limit for select to staff
  using (true);

create policy "staff create win limits"
  on public.win_limit for insert to staff
  with check ((select private.is_staff()));

create policy "staff update win limits"
  on public.win_limit for update to staff
  using ((select private.is_staff()))
  with check ((select private.is_staff()));

create policy "staff delete win limits"
  on public.win_limit for delete to staff
  using ((select private.is_staff()));

create policy "clients read their own held wins"
  on public.held_win for select to authenticated
  using (client_id = (select private.uid()));

create policy "staff read all held wins"
  on public.held_win for select to staff
  using (true);
