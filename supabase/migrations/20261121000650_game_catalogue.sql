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
  -- Jurisdictions it is certified in; null: its provider's (the compliance migration).
  jurisdictions text[],
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
  -- array_to_string skips NULLs, so they are refused apart: a NULL would make `= any` unknown, and
  -- a currency or country check would pass where it must not.
  constraint game_currencies_format check (
    array_to_string(currencies, ',') ~ '^([A-Z]{3}(,[A-Z]{3})*)?$' and array_position(currencies, null) is null),
  constraint game_restricted_countries_format check (
    array_to_string(restricted_countries, ',') ~ '^([A-Z]{2}(,[A-Z]{2})*)?$'
    and array_position(restricted_countries, null) is null),
  constraint game_jurisdictions_format check (
    array_to_string(jurisdictions, ',') ~ '^([A-Z]{2}(-[A-Z0-9]{1,3})?(,[A-Z]{2}(-[A-Z0-9]{1,3})?)*)?$'
    and array_position(jurisdictions, null) is null)
);
comment on table public.game is
  'The catalogue: a provider''s games; game_id is <provider slug>:<code>. Anyone reads active games; staff manage them.';
comment on column public.game.currencies is 'Currencies the game plays in; empty means every active currency.';
comment on column public.game.restricted_countries is 'ISO 3166-1 alpha-2 countries where the game may not be offered.';
comment on column public.game.demo is 'Whether the game has a play-for-fun mode.';
-- Under the read policy for everyone (status = 'active').
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

create function private.stamp_provider_games() returns trigger
language plpgsql
-- security definer: staff change a provider's status; its games are stamped whatever their rights.
security definer
set search_path = ''
as $$
begin
  update public.game g set updated_at = now() where g.provider_id = new.id;
  return null;
end;
$$;
revoke execute on function private.stamp_provider_games() from public, anon, authenticated;

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
-- Functions (RPC)
-- ============================================================================================
-- How production catalogues arrive: a provider's game list, imported by staff (rpc) or the service's
-- operators (`npm run catalog -- import <file.json>`). Each game is keyed by its game_id and written
-- only when something in it changed, so importing the same file again changes nothing and says so.
-- Each entry is the whole game: a field it leaves out takes its default (status active, no RTP, ...),
-- and a field the catalogue does not know is refused, so a misspelt one cannot pass unnoticed.
-- A game the file does not mention is left as it is (retire one by importing it as inactive). One
-- statement, one transaction: an unknown provider, a game_id twice, or a field the table refuses
-- rejects the whole file, and nothing is written.
-- Security invoker: staff's own policies and grants apply; require_staff turns anyone else away.
create function public.import_games(games jsonb)
returns table (created int, updated int, unchanged int)
language plpgsql
set search_path = ''
as $$
declare
  problem text;
begin
  perform private.require_staff('import games');
  if jsonb_typeof(games) is distinct from 'array' then
    raise exception 'games must be a JSON array of games' using errcode = '22023';
  end if;

  select string_agg(distinct coalesce(g ->> 'game_id', '(none)'), ', ') into problem
  from jsonb_array_elements(games) g
  where coalesce(g ->> 'game_id', '') !~ '^[a-z0-9][a-z0-9-]{0,63}:[A-Za-z0-9][A-Za-z0-9._~-]{0,127}$';
  if problem is not null then
    raise exception 'game_id must be <provider slug>:<game code>: %', problem using errcode = '22023';
  end if;
  select string_agg(distinct k, ', ') into problem
  from jsonb_array_elements(games) g, jsonb_object_keys(g) k
  where k not in ('game_id', 'name', 'category', 'status', 'rtp', 'volatility', 'features', 'platforms',
                  'thumbnail_url', 'released_on', 'currencies', 'restricted_countries', 'demo');
  if problem is not null then
    raise exception 'unknown game fields: %', problem using errcode = '22023';
  end if;
  select string_agg(id, ', ') into problem
  from (select g ->> 'game_id' as id from jsonb_array_elements(games) g group by 1 having count(*) > 1) twice;
  if problem is not null then
    raise exception 'each game_id may appear once: %', problem using errcode = '22023';
  end if;
  select string_agg(distinct split_part(g ->> 'game_id', ':', 1), ', ') into problem
  from jsonb_array_elements(games) g
  where not exists (select 1 from public.game_provider gp where gp.slug = split_part(g ->> 'game_id', ':', 1));
  if problem is not null then
    raise exception 'unknown providers: %', problem using errcode = '23503';
  end if;

  return query
  with incoming as (
    select gp.id as provider_id, split_part(r.game_id, ':', 2) as code, r.name, r.category,
           coalesce(r.status, 'active') as status, r.rtp, r.volatility,
           coalesce(r.features, '{}') as features, coalesce(r.platforms, '{desktop,mobile}') as platforms,
           r.thumbnail_url, r.released_on, coalesce(r.currencies, '{}') as currencies,
           coalesce(r.restricted_countries, '{}') as restricted_countries, coalesce(r.demo, true) as demo
    from jsonb_to_recordset(games) as r(
      game_id text, name text, category text, status text, rtp numeric, volatility text, features text[],
      platforms text[], thumbnail_url text, released_on date, currencies text[], restricted_countries text[],
      demo boolean)
    join public.game_provider gp on gp.slug = split_part(r.game_id, ':', 1)
  ), written as (
    insert into public.game as g (provider_id, code, name, category, status, rtp, volatility, features,
                                  platforms, thumbnail_url, released_on, currencies, restricted_countries, demo)
    select * from incoming
    on conflict (provider_id, code) do update
      set name = excluded.name, category = excluded.category, status = excluded.status, rtp = excluded.rtp,
          volatility = excluded.volatility, features = excluded.features, platforms = excluded.platforms,
          thumbnail_url = excluded.thumbnail_url, released_on = excluded.released_on,
          currencies = excluded.currencies, restricted_countries = excluded.restricted_countries,
          demo = excluded.demo
      where (g.name, g.category, g.status, g.rtp, g.volatility, g.features, g.platforms, g.thumbnail_url,
             g.released_on, g.currencies, g.restricted_countries, g.demo)
        is distinct from
            (excluded.name, excluded.category, excluded.status, excluded.rtp, excluded.volatility,
             excluded.features, excluded.platforms, excluded.thumbnail_url, excluded.released_on,
             excluded.currencies, excluded.restricted_countries, excluded.demo)
    -- xmax is 0 on a row this statement inserted, and set on one it updated.
    returning (g.xmax = 0) as inserted
  )
  select (count(*) filter (where w.inserted))::int, (count(*) filter (where not w.inserted))::int,
         ((select count(*) from incoming) - count(*))::int
  from written w;
end;
$$;
comment on function public.import_games(jsonb) is
  'Staff or the service itself: creates or updates catalogue games from a JSON array keyed by game_id; '
  'returns how many were created, updated and unchanged. All or nothing.';
revoke execute on function public.import_games(jsonb) from public, anon;
grant execute on function public.import_games(jsonb) to authenticated, staff, service_role;

-- ============================================================================================
-- Triggers
-- ============================================================================================
create trigger game_set_updated_at
  before update on public.game
  for each row execute function private.set_updated_at();

create trigger game_provider_count_games
  before insert or update on public.game_provider
  for each row execute function private.count_provider_games();

-- A provider's status and slug are part of each of its games as operators see them: a change stamps
-- them all, so their listings are written again and a sync by updated_since hears of it.
create trigger game_provider_status_stamps_games
  after update of status, slug, jurisdictions on public.game_provider
  for each row when ((old.status, old.slug, old.jurisdictions) is distinct from (new.status, new.slug, new.jurisdictions))
  execute function private.stamp_provider_games();

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

-- ============================================================================================
-- The operator API's reads (GET /v3/games, /v3/games/{game_id}, /v3/providers, /v3/currencies)
-- ============================================================================================
-- A game as the operator API shows it: game_id, its status as launchable (its own, unless its
-- provider's makes it unavailable), RTP as a decimal string, the rest as stored. A view, so the reads
-- below inline it and build each game's JSON in the query, once per row they return. The JSON leaves
-- as text: the endpoint puts it into its response as it is, rather than parsing and writing it again.
create view private.catalogue_entry as
  select g.provider_id, g.code, g.status, g.category, g.currencies, g.restricted_countries, g.updated_at,
         gp.slug as provider_slug, gp.status as provider_status,
         coalesce(g.jurisdictions, gp.jurisdictions) as jurisdictions,
         json_build_object(
           'game_id', gp.slug || ':' || g.code,
           'provider', gp.slug,
           'code', g.code,
           'name', g.name,
           'category', g.category,
           'status', case when g.status <> 'active' then g.status else gp.status end,
           'rtp', g.rtp::text,
           'volatility', g.volatility,
           'features', to_json(g.features),
           'platforms', to_json(g.platforms),
           'thumbnail_url', g.thumbnail_url,
           'released_on', g.released_on,
           'currencies', to_json(g.currencies),
           'restricted_countries', to_json(g.restricted_countries),
           'jurisdictions', to_json(coalesce(g.jurisdictions, gp.jurisdictions)),
           'demo', g.demo,
           'updated_at', g.updated_at)::text as game
  from public.game g
  join public.game_provider gp on gp.id = g.provider_id;
comment on view private.catalogue_entry is 'Each game with its provider, and its JSON as the operator API shows it.';
revoke all on private.catalogue_entry from public, anon, authenticated, service_role;

-- What the operator reads are served from: each game's catalogue_entry, its JSON written once when
-- the game or its provider changes rather than on every read (operators read the catalogue far more
-- often than it changes). Kept by the triggers below; nobody reaches it through the API.
create table private.game_listing (
  provider_id uuid not null,
  code text not null,
  -- The game and its provider are active: what the list shows, and what can be launched.
  listed boolean not null,
  category text not null,
  currencies text[] not null,
  restricted_countries text[] not null,
  jurisdictions text[] not null,
  updated_at timestamptz not null,
  provider_slug text not null,
  game text not null,
  primary key (provider_id, code)
);
comment on table private.game_listing is
  'private.catalogue_entry stored: the operator API''s catalogue reads, kept by triggers on game and game_provider.';
alter table private.game_listing enable row level security;
-- The list, in its stable order; the same order within a category, the filter operators use most (a
-- provider's games often share one, as a live casino studio's do, so walking the first for it could
-- cross whole providers); and the `updated_since` sync.
create index game_listing_listed_idx on private.game_listing (provider_id, code) where listed;
create index game_listing_listed_category_idx on private.game_listing (category, provider_id, code) where listed;
create index game_listing_updated_at_idx on private.game_listing (updated_at);
create unique index game_listing_provider_slug_code_idx on private.game_listing (provider_slug, code);

-- After a statement on game, its games' listings are written again from catalogue_entry (once per
-- statement, so an import of thousands of games is one insert here). A provider's status change
-- reaches its games' listings through the stamp it puts on them.
create function private.refresh_game_listing() returns trigger
language plpgsql
-- security definer: staff write games, and the listing whatever their rights.
security definer
set search_path = ''
as $$
begin
  if tg_op in ('UPDATE', 'DELETE') then
    delete from private.game_listing l using old_rows o where l.provider_id = o.provider_id and l.code = o.code;
  end if;
  if tg_op in ('INSERT', 'UPDATE') then
    insert into private.game_listing
      (provider_id, code, listed, category, currencies, restricted_countries, jurisdictions, updated_at, provider_slug, game)
    select e.provider_id, e.code, e.status = 'active' and e.provider_status = 'active', e.category, e.currencies,
           e.restricted_countries, e.jurisdictions, e.updated_at, e.provider_slug, e.game
    from private.catalogue_entry e
    join new_rows n on n.provider_id = e.provider_id and n.code = e.code;
  end if;
  return null;
end;
$$;
revoke execute on function private.refresh_game_listing() from public, anon, authenticated;

create trigger game_listing_after_insert
  after insert on public.game
  referencing new table as new_rows
  for each statement execute function private.refresh_game_listing();

create trigger game_listing_after_update
  after update on public.game
  referencing new table as new_rows old table as old_rows
  for each statement execute function private.refresh_game_listing();

create trigger game_listing_after_delete
  after delete on public.game
  referencing old table as old_rows
  for each statement execute function private.refresh_game_listing();

-- Each is one call: the key check and the read. `authorized` is false (and nothing else is set)
-- for a key that does not authenticate; an authorized call with nothing to list returns no row.
-- Games are listed from private.game_listing in a stable order, by provider then code, which its
-- indexes serve: a page reads only its own rows, however large the catalogue, and is paged by keyset (the
-- caller passes the last position of the previous page), so a page costs the same however deep it
-- is. The endpoint asks for one row more than the page, to know if more follow.
-- Security invoker: the endpoint calls them as the database owner.
create function private.list_games(
  key_hash text,
  provider text,
  category text,
  currency text,
  country text,
  updated_since timestamptz,
  after_provider uuid,
  after_code text,
  page_size int,
  -- Certified there (the compliance migration).
  jurisdiction text default null
) returns table (authorized boolean, provider_id uuid, code text, game text)
language plpgsql stable
set search_path = ''
as $$
begin
  return query
  select a.key_id is not null, g.provider_id, g.code, g.game
  from (select 1) one
  left join private.authenticate_api_key(list_games.key_hash) a on true
  left join lateral (
    select g.provider_id, g.code, g.game
    from private.game_listing g
    where a.key_id is not null
      -- A sync (updated_since) also hears of games that stopped being active, to take them away.
      and (g.listed or list_games.updated_since is not null)
      -- By id, so the list's own order (provider_id, code) serves a provider's page too.
      and (list_games.provider is null
           or g.provider_id = (select gp.id from public.game_provider gp where gp.slug = list_games.provider))
      and (list_games.category is null or g.category = list_games.category)
      and (list_games.currency is null or cardinality(g.currencies) = 0 or list_games.currency = any (g.currencies))
      and (list_games.country is null or not (list_games.country = any (g.restricted_countries)))
      and (list_games.jurisdiction is null or list_games.jurisdiction = any (g.jurisdictions))
      and (list_games.updated_since is null or g.updated_at >= list_games.updated_since)
      -- A test-only provider's games are listed to test keys alone.
      and (not a.livemode or g.provider_id not in (select gp.id from public.game_provider gp where gp.test_only))
      and (list_games.after_provider is null or (g.provider_id, g.code) > (list_games.after_provider, list_games.after_code))
    order by g.provider_id, g.code
    limit list_games.page_size
  ) g on true;
end;
$$;
revoke execute on function private.list_games from public, anon, authenticated, service_role;

-- One game by game_id: found, not_found (unknown, or not active: the catalogue lists active games
-- of active providers only) or unauthorized.
create function private.read_game(key_hash text, provider text, code text)
returns table (outcome text, game text)
language sql stable
set search_path = ''
as $$
  select case when a.key_id is null then 'unauthorized' when g.game is null then 'not_found' else 'found' end, g.game
  from (select 1) one
  left join private.authenticate_api_key(read_game.key_hash) a on true
  left join lateral (
    select g.game
    from private.game_listing g
    where a.key_id is not null and g.provider_slug = read_game.provider and g.code = read_game.code and g.listed
      and (not a.livemode or not exists (
        select from public.game_provider gp where gp.id = g.provider_id and gp.test_only))
  ) g on true;
$$;
revoke execute on function private.read_game from public, anon, authenticated, service_role;

-- The active providers and currencies, in their sort order: short reference lists, one page each.
create function private.list_providers(key_hash text)
returns table (authorized boolean, provider json)
language sql stable
set search_path = ''
as $$
  select a.key_id is not null, p.provider
  from (select 1) one
  left join private.authenticate_api_key(list_providers.key_hash) a on true
  left join lateral (
    select json_build_object('slug', gp.slug, 'name', gp.name, 'category', gp.category, 'logo_url', gp.logo_url,
                              'games_count', gp.games_count) as provider
    from public.game_provider gp
    where a.key_id is not null and gp.status = 'active' and (not a.livemode or not gp.test_only)
    order by gp.sort_order, gp.slug collate "C"
  ) p on true;
$$;
revoke execute on function private.list_providers from public, anon, authenticated, service_role;

create function private.list_currencies(key_hash text)
returns table (authorized boolean, currency json)
language sql stable
set search_path = ''
as $$
  select a.key_id is not null, c.currency
  from (select 1) one
  left join private.authenticate_api_key(list_currencies.key_hash) a on true
  left join lateral (
    select json_build_object('code', c.code, 'name', c.name, 'symbol', c.symbol) as currency
    from public.currency c
    where a.key_id is not null and c.is_active
    order by c.sort_order, c.code collate "C"
  ) c on true;
$$;
revoke execute on function private.list_currencies from public, anon, authenticated, service_role;
