-- Compliance, first part: jurisdictions, the licences clients hold, and where games are certified.
--
-- A jurisdiction is a regulator's regime: whether players must be KYC-verified before play, where
-- its licence lets an operator take players, and the game features it forbids or requires (autoplay,
-- turbo or quick spin, bonus buy, a minimum round duration, showing the net position and the session
-- time, a maximum stake, a reality-check interval). The rows below are illustrative of well-known
-- regimes, not legal advice: staff keep them true to the operator's licences.
-- Each client holds licences for one or more jurisdictions (staff set them); providers, and games
-- where they differ, list the jurisdictions they are certified in. POST /v3/sessions enforces them
-- (the sessions migration's create_game_session): a client holding a licence must name the
-- jurisdiction of each session, one it holds, whose rules then travel in the launch token.
-- Signed-in callers read jurisdictions; clients read their own licences; staff manage both.

-- ============================================================================================
-- Tables
-- ============================================================================================
create table public.jurisdiction (
  code text primary key,
  name text not null,
  regulator text not null,
  kyc_required boolean not null default true,
  -- ISO 3166-1 alpha-2: where its licence lets an operator take players (empty: anywhere not
  -- blocked), and where never.
  countries text[] not null default '{}',
  blocked_countries text[] not null default '{}',
  autoplay_allowed boolean not null default true,
  turbo_allowed boolean not null default true,
  bonus_buy_allowed boolean not null default true,
  min_round_ms int,
  show_net_position boolean not null default false,
  show_session_time boolean not null default false,
  max_stake numeric(20, 4),
  max_stake_currency text references public.currency (code),
  reality_check_minutes int,
  updated_at timestamptz not null default now(),
  constraint jurisdiction_code_format check (code ~ '^[A-Z]{2}(-[A-Z0-9]{1,3})?$'),
  constraint jurisdiction_name_length check (char_length(btrim(name)) between 1 and 100),
  constraint jurisdiction_regulator_length check (char_length(btrim(regulator)) between 1 and 200),
  constraint jurisdiction_countries_format check (
    array_to_string(countries, ',') ~ '^([A-Z]{2}(,[A-Z]{2})*)?$' and array_position(countries, null) is null),
  constraint jurisdiction_blocked_countries_format check (
    array_to_string(blocked_countries, ',') ~ '^([A-Z]{2}(,[A-Z]{2})*)?$' and array_position(blocked_countries, null) is null),
  constraint jurisdiction_min_round_ms_range check (min_round_ms between 1 and 60000),
  constraint jurisdiction_max_stake_positive check (max_stake > 0),
  constraint jurisdiction_max_stake_with_currency check ((max_stake is null) = (max_stake_currency is null)),
  constraint jurisdiction_reality_check_range check (reality_check_minutes between 1 and 1440)
);
comment on table public.jurisdiction is
  'Regulatory regimes: KYC before play, where players may be, and the game features each forbids or requires. Illustrative rows, not legal advice.';
create index jurisdiction_max_stake_currency_idx on public.jurisdiction (max_stake_currency);

create table public.client_jurisdiction (
  client_id uuid not null references auth.users (id) on delete cascade,
  jurisdiction_code text not null references public.jurisdiction (code) on update cascade,
  created_at timestamptz not null default now(),
  primary key (client_id, jurisdiction_code)
);
comment on table public.client_jurisdiction is 'The jurisdictions whose licence each client holds; staff set them.';
create index client_jurisdiction_jurisdiction_code_idx on public.client_jurisdiction (jurisdiction_code);

-- Where games are certified: game_provider.jurisdictions, and game.jurisdictions where a game differs
-- (their own migrations' columns, shown and filtered by GET /v3/games).

-- ============================================================================================
-- Row level security
-- ============================================================================================
alter table public.jurisdiction enable row level security;
alter table public.client_jurisdiction enable row level security;

-- ============================================================================================
-- Grants
-- ============================================================================================
grant select on public.jurisdiction, public.client_jurisdiction to authenticated;
grant select, insert, update, delete on public.jurisdiction, public.client_jurisdiction to staff;
grant all on public.jurisdiction, public.client_jurisdiction to service_role;

-- ============================================================================================
-- Helper functions
-- ============================================================================================
-- A jurisdiction as the API shows it, and as the launch token carries its rules.
create function private.jurisdiction_json(j public.jurisdiction) returns json
language sql immutable
set search_path = ''
as $$
  select json_build_object(
    'code', j.code, 'name', j.name, 'regulator', j.regulator, 'kyc_required', j.kyc_required,
    'countries', to_json(j.countries), 'blocked_countries', to_json(j.blocked_countries),
    'rules', json_build_object(
      'autoplay_allowed', j.autoplay_allowed, 'turbo_allowed', j.turbo_allowed, 'bonus_buy_allowed', j.bonus_buy_allowed,
      'min_round_ms', j.min_round_ms, 'show_net_position', j.show_net_position, 'show_session_time', j.show_session_time,
      'max_stake', j.max_stake::text, 'max_stake_currency', j.max_stake_currency,
      'reality_check_minutes', j.reality_check_minutes),
    'updated_at', j.updated_at);
$$;
revoke execute on function private.jurisdiction_json from public, anon, authenticated, service_role;

-- What a new session breaks of its client's licences (private.create_game_session asks): a client
-- holding any licence must name the session's jurisdiction, one it holds; the game must be
-- certified there (`certified`: the game's list, else its provider's; null when the game is not
-- known, already refused); the player's country must be one the licence covers and not blocked;
-- `kyc_required` (a 403, not a 422) when the jurisdiction wants verified players and this one is not.
-- A client holding none plays under no jurisdiction.
create function private.session_compliance(
  client_id uuid, certified text[], jurisdiction text, country text, kyc_status text
) returns text[]
language plpgsql stable
set search_path = ''
as $$
declare
  j public.jurisdiction;
  problems text[] := '{}';
begin
  if jurisdiction is null then
    if exists (select 1 from public.client_jurisdiction cj where cj.client_id = session_compliance.client_id) then
      return array['jurisdiction_required'];
    end if;
    return problems;
  end if;
  select jj.* into j from public.jurisdiction jj
  join public.client_jurisdiction cj on cj.jurisdiction_code = jj.code and cj.client_id = session_compliance.client_id
  where jj.code = session_compliance.jurisdiction;
  if j.code is null then
    return array['jurisdiction_not_held'];
  end if;
  if certified is not null and not (j.code = any (certified)) then
    problems := problems || 'game_not_certified'::text;
  end if;
  if country is null and cardinality(j.countries) > 0 then
    problems := problems || 'country_required'::text;
  elsif country = any (j.blocked_countries) or (cardinality(j.countries) > 0 and not (country = any (j.countries))) then
    problems := problems || 'country_restricted'::text;
  end if;
  if j.kyc_required and kyc_status is distinct from 'verified' then
    problems := problems || 'kyc_required'::text;
  end if;
  return problems;
end;
$$;
revoke execute on function private.session_compliance from public, anon, authenticated, service_role;

-- The rules of every jurisdiction, as launch tokens carry them: the function reads them once a
-- minute, not per session.
create function private.jurisdiction_rules()
returns table (code text, rules json)
language sql stable
set search_path = ''
as $$
  select j.code, private.jurisdiction_json(j)->'rules' from public.jurisdiction j;
$$;
revoke execute on function private.jurisdiction_rules from public, anon, authenticated, service_role;

-- GET /v3/jurisdictions (code null) and /v3/jurisdictions/{code}: the key check and the read, each
-- with whether the caller holds its licence. `authorized` false (nothing else set) for a key that
-- does not authenticate; one row with no jurisdiction for an unknown code.
create function private.list_jurisdictions(key_hash text, code text default null)
returns table (authorized boolean, jurisdiction jsonb)
language sql stable
set search_path = ''
as $$
  select a.key_id is not null,
         case when j.code is not null then private.jurisdiction_json(j)::jsonb
           || jsonb_build_object('licensed', exists (select 1 from public.client_jurisdiction cj
                                                     where cj.client_id = a.client_id and cj.jurisdiction_code = j.code)) end
  from (select 1) one
  left join private.authenticate_api_key(list_jurisdictions.key_hash) a on true
  left join public.jurisdiction j on a.key_id is not null and (list_jurisdictions.code is null or j.code = list_jurisdictions.code)
  order by j.code;
$$;
revoke execute on function private.list_jurisdictions from public, anon, authenticated, service_role;

-- ============================================================================================
-- Policies
-- ============================================================================================
create policy "signed-in callers read jurisdictions"
  on public.jurisdiction for select to authenticated, staff
  using (true);

create policy "staff create jurisdictions"
  on public.jurisdiction for insert to staff
  with check ((select private.is_staff()));

create policy "staff update jurisdictions"
  on public.jurisdiction for update to staff
  using ((select private.is_staff()))
  with check ((select private.is_staff()));

create policy "staff delete jurisdictions"
  on public.jurisdiction for delete to staff
  using ((select private.is_staff()));

create policy "clients read their own licences"
  on public.client_jurisdiction for select to authenticated
  using (client_id = (select private.uid()));

create policy "staff read all licences"
  on public.client_jurisdiction for select to staff
  using (true);

create policy "staff grant licences"
  on public.client_jurisdiction for insert to staff
  with check ((select private.is_staff()));

create policy "staff change licences"
  on public.client_jurisdiction for update to staff
  using ((select private.is_staff()))
  with check ((select private.is_staff()));

create policy "staff withdraw licences"
  on public.client_jurisdiction for delete to staff
  using ((select private.is_staff()));

-- ============================================================================================
-- Reference data: illustrative regimes (not legal advice), as regulators published them in 2025
-- ============================================================================================
insert into public.jurisdiction
  (code, name, regulator, kyc_required, countries, blocked_countries, autoplay_allowed, turbo_allowed, bonus_buy_allowed,
   min_round_ms, show_net_position, show_session_time, max_stake, max_stake_currency, reality_check_minutes)
values
  ('MT', 'Malta', 'Malta Gaming Authority', true, '{}', '{US,FR,ES,NL,GB,SE,DK}', true, true, true,
   null, false, false, null, null, 60),
  ('GB', 'Great Britain', 'UK Gambling Commission', true, '{GB}', '{}', false, false, false,
   2500, true, true, 5, 'GBP', 60),
  ('SE', 'Sweden', 'Spelinspektionen', true, '{SE}', '{}', true, false, true,
   null, false, true, null, null, 60),
  ('ON', 'Ontario', 'Alcohol and Gaming Commission of Ontario (iGaming Ontario)', true, '{CA}', '{}', false, false, false,
   2500, true, true, null, null, 60),
  ('CW', 'Curaçao', 'Curaçao Gaming Authority', false, '{}', '{US,NL,GB,FR,ES,AU}', true, true, true,
   null, false, false, null, null, null);
