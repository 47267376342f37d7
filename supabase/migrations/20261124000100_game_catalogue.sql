-- The game catalogue: every game a provider offers, what operators list and launch. A game_id is
-- `<provider slug>:<game code>` everywhere. Anyone reads active games (the public list, as providers
-- are); staff read and manage them all. game_provider.games_count becomes the provider's number of
-- active games, kept by the database (it replaces the illustrative counts of the providers' reference
-- data, spec 2.7: a catalogue is imported, not typed in).

-- ============================================================================================
-- Tables
-- ============================================================================================
create table public.game (
  id uuid primary key default gen_random_uuid(),
  -- Restrict: a provider with games is retired by its status, not deleted with its history.
  provider_id uuid not null references public.game_provider (id) on delete restrict,
  code text not null,
  name text not null,
  category text not null,
  status text not null default 'active',
  rtp numeric(5, 2),
  volatility text,
  features text[] not null default '{}',
  platforms text[] not null default '{desktop,mobile}',
  thumbnail_url text,
  released_on date,
  currencies text[] not null default '{}',
  restricted_countries text[] not null default '{}',
  demo boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint game_provider_id_code_key unique (provider_id, code),
  constraint game_code_format check (code ~ '^[A-Za-z0-9][A-Za-z0-9._~-]{0,127}$'),
  constraint game_name_length check (char_length(btrim(name)) between 1 and 200),
  constraint game_category_check check (category in (
    'slots', 'live_casino', 'table_games', 'game_show', 'crash', 'instant', 'scratch', 'bingo', 'jackpot')),
  constraint game_status_check check (status in ('active', 'maintenance', 'inactive')),
  constraint game_rtp_range check (rtp > 0 and rtp <= 100),
  constraint game_volatility_check check (volatility in ('low', 'medium', 'high', 'very_high')),
  constraint game_features_known check (features <@ array[
    'free_spins', 'bonus_buy', 'jackpot', 'megaways', 'cluster_pays', 'multipliers', 'respins',
    'autoplay', 'turbo_spin', 'free_bets']::text[]),
  constraint game_platforms_known check (platforms <@ array['desktop', 'mobile']::text[] and cardinality(platforms) > 0),
  constraint game_thumbnail_url_format check (thumbnail_url ~ '^https://' and char_length(thumbnail_url) <= 2048),
  -- Arrays of codes: ISO 4217 currencies (empty: every active currency) and ISO 3166-1 alpha-2 countries.
  constraint game_currencies_format check (array_to_string(currencies, ',') ~ '^([A-Z]{3}(,[A-Z]{3})*)?$'),
  constraint game_restricted_countries_format
    check (array_to_string(restricted_countries, ',') ~ '^([A-Z]{2}(,[A-Z]{2})*)?$')
);
comment on table public.game is
  'The catalogue: a provider''s games; game_id is <provider slug>:<code>. Anyone reads active games; staff manage them.';
comment on column public.game.currencies is 'Currencies the game plays in; empty means every active currency.';
comment on column public.game.restricted_countries is 'ISO 3166-1 alpha-2 countries where the game may not be offered.';
comment on column public.game.demo is 'Whether the game has a play-for-fun mode.';
-- The operator's list: active games in a stable order, and the `updated_since` sync.
create index game_active_provider_code_idx on public.game (provider_id, code) where status = 'active';
create index game_updated_at_idx on public.game (updated_at);

-- ============================================================================================
-- Row level security
-- ============================================================================================
alter table public.game enable row level security;

-- ============================================================================================
-- Grants
-- ============================================================================================
grant select on public.game to anon, authenticated;
grant select, insert, update, delete on public.game to staff;
grant all on public.game to service_role;

-- ============================================================================================
-- Helper functions
-- ============================================================================================
-- games_count is derived, never written: whatever a write to a provider says, the row counts its
-- active games.
create function private.count_provider_games() returns trigger
language plpgsql
-- security definer: counts every game whoever writes the provider (anon sees active games only, and
-- a provider is written by staff or the recount below).
security definer
set search_path = ''
as $$
begin
  new.games_count := (select count(*) from public.game g where g.provider_id = new.id and g.status = 'active');
  return new;
end;
$$;
revoke execute on function private.count_provider_games() from public, anon, authenticated;

-- After a statement on game, each provider it touched is recounted (once per statement, so an
-- import of thousands of games recounts each provider once). A branch names only the transition
-- tables its statement has: plpgsql plans a statement when it first runs it.
create function private.recount_touched_providers() returns trigger
language plpgsql
-- security definer: staff change games; the recount writes game_provider whatever the caller's rights.
security definer
set search_path = ''
as $$
begin
  if tg_op in ('INSERT', 'UPDATE') then
    update public.game_provider gp set games_count = gp.games_count
    where gp.id in (select provider_id from new_rows);
  end if;
  if tg_op in ('UPDATE', 'DELETE') then
    update public.game_provider gp set games_count = gp.games_count
    where gp.id in (select provider_id from old_rows);
  end if;
  return null;
end;
$$;
revoke execute on function private.recount_touched_providers() from public, anon, authenticated;

-- ============================================================================================
-- Triggers
-- ============================================================================================
create trigger game_set_updated_at
  before update on public.game
  for each row execute function private.set_updated_at();

create trigger game_provider_count_games
  before insert or update on public.game_provider
  for each row execute function private.count_provider_games();

create trigger game_recount_after_insert
  after insert on public.game
  referencing new table as new_rows
  for each statement execute function private.recount_touched_providers();

create trigger game_recount_after_update
  after update on public.game
  referencing new table as new_rows old table as old_rows
  for each statement execute function private.recount_touched_providers();

create trigger game_recount_after_delete
  after delete on public.game
  referencing old table as old_rows
  for each statement execute function private.recount_touched_providers();

-- ============================================================================================
-- Policies
-- ============================================================================================
create policy "anyone reads active games"
  on public.game for select to anon, authenticated
  using (status = 'active');

create policy "staff read all games"
  on public.game for select to staff
  using (true);

create policy "staff create games"
  on public.game for insert to staff
  with check ((select private.is_staff()));

create policy "staff update games"
  on public.game for update to staff
  using ((select private.is_staff()))
  with check ((select private.is_staff()));

create policy "staff delete games"
  on public.game for delete to staff
  using ((select private.is_staff()));

-- ============================================================================================
-- Reference data: each provider's count from the catalogue (empty until one is imported)
-- ============================================================================================
update public.game_provider set games_count = games_count;
