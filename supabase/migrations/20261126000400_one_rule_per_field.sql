-- One rule per field (issue 37, item 6; docs/validation.md): a currency, a country, a player id
-- are held to the same rule by every endpoint that takes them, and the database refuses what the
-- API would, so nothing it refuses is ever stored.
--
-- - Countries: private.country, the ISO 3166-1 alpha-2 codes assigned today (249, from Debian's
--   iso-codes 4.15.0), is the one list. A session's country must be one (foreign key), and so must
--   every code of a game's restricted_countries and a jurisdiction's countries and blocked_countries
--   (a trigger: arrays take no foreign key). The API asks the same list: a well-formed code that is
--   not assigned (`ZZ`, `XK`) is 422 reference_unavailable with the field code unknown_country.
-- - private.reference_problems: the one place the API asks whether a currency or a country exists
--   (unknown_currency, unknown_country) and, where play needs it, whether the currency is active
--   (currency_unavailable). Lists filtered by a currency or country ask it in the same statement.
-- - Player restrictions name currencies the service has: a trigger refuses a limit in any other,
--   and the endpoint says which (unknown_currency) instead of storing it.
--
-- Replaces three rules of earlier migrations:
-- - private.session_compliance (20261121000900_compliance.sql): a session's country that is not an
--   assigned code is unknown_country (before, it was accepted and matched nothing).
-- - private.put_sandbox_player (20261121001500_sandbox.sql): a currency the service has but not
--   active is currency_unavailable, as for a session (before, unknown_currency for both).
-- - private.put_player_restrictions (as 20261125000200_sandbox_reset.sql left it): a limit in a
--   currency the service does not have is refused, outcome unknown_currency with the pointers of
--   the limits naming one (before, stored).

-- ============================================================================================
-- Tables
-- ============================================================================================
create table private.country (
  code text primary key,
  name text not null,
  constraint country_code_format check (code ~ '^[A-Z]{2}$'),
  constraint country_name_length check (char_length(name) between 1 and 100)
);
comment on table private.country is
  'The ISO 3166-1 alpha-2 codes assigned today: the one list a country is checked against.';
-- Reference data no API role reads; the functions and the constraints below read it as the owner.
alter table private.country enable row level security;

insert into private.country (code, name) values
  ('AD', 'Andorra'),
  ('AE', 'United Arab Emirates'),
  ('AF', 'Afghanistan'),
  ('AG', 'Antigua and Barbuda'),
  ('AI', 'Anguilla'),
  ('AL', 'Albania'),
  ('AM', 'Armenia'),
  ('AO', 'Angola'),
  ('AQ', 'Antarctica'),
  ('AR', 'Argentina'),
  ('AS', 'American Samoa'),
  ('AT', 'Austria'),
  ('AU', 'Australia'),
  ('AW', 'Aruba'),
  ('AX', 'Åland Islands'),
  ('AZ', 'Azerbaijan'),
  ('BA', 'Bosnia and Herzegovina'),
  ('BB', 'Barbados'),
  ('BD', 'Bangladesh'),
  ('BE', 'Belgium'),
  ('BF', 'Burkina Faso'),
  ('BG', 'Bulgaria'),
  ('BH', 'Bahrain'),
  ('BI', 'Burundi'),
  ('BJ', 'Benin'),
  ('BL', 'Saint Barthélemy'),
  ('BM', 'Bermuda'),
  ('BN', 'Brunei Darussalam'),
  ('BO', 'Bolivia'),
  ('BQ', 'Bonaire, Sint Eustatius and Saba'),
  ('BR', 'Brazil'),
  ('BS', 'Bahamas'),
  ('BT', 'Bhutan'),
  ('BV', 'Bouvet Island'),
  ('BW', 'Botswana'),
  ('BY', 'Belarus'),
  ('BZ', 'Belize'),
  ('CA', 'Canada'),
  ('CC', 'Cocos (Keeling) Islands'),
  ('CD', 'Congo, The Democratic Republic of the'),
  ('CF', 'Central African Republic'),
  ('CG', 'Congo'),
  ('CH', 'Switzerland'),
  ('CI', 'Côte d''Ivoire'),
  ('CK', 'Cook Islands'),
  ('CL', 'Chile'),
  ('CM', 'Cameroon'),
  ('CN', 'China'),
  ('CO', 'Colombia'),
  ('CR', 'Costa Rica'),
  ('CU', 'Cuba'),
  ('CV', 'Cabo Verde'),
  ('CW', 'Curaçao'),
  ('CX', 'Christmas Island'),
  ('CY', 'Cyprus'),
  ('CZ', 'Czechia'),
  ('DE', 'Germany'),
  ('DJ', 'Djibouti'),
  ('DK', 'Denmark'),
  ('DM', 'Dominica'),
  ('DO', 'Dominican Republic'),
  ('DZ', 'Algeria'),
  ('EC', 'Ecuador'),
  ('EE', 'Estonia'),
  ('EG', 'Egypt'),
  ('EH', 'Western Sahara'),
  ('ER', 'Eritrea'),
  ('ES', 'Spain'),
  ('ET', 'Ethiopia'),
  ('FI', 'Finland'),
  ('FJ', 'Fiji'),
  ('FK', 'Falkland Islands (Malvinas)'),
  ('FM', 'Micronesia, Federated States of'),
  ('FO', 'Faroe Islands'),
  ('FR', 'France'),
  ('GA', 'Gabon'),
  ('GB', 'United Kingdom'),
  ('GD', 'Grenada'),
  ('GE', 'Georgia'),
  ('GF', 'French Guiana'),
  ('GG', 'Guernsey'),
  ('GH', 'Ghana'),
  ('GI', 'Gibraltar'),
  ('GL', 'Greenland'),
  ('GM', 'Gambia'),
  ('GN', 'Guinea'),
  ('GP', 'Guadeloupe'),
  ('GQ', 'Equatorial Guinea'),
  ('GR', 'Greece'),
  ('GS', 'South Georgia and the South Sandwich Islands'),
  ('GT', 'Guatemala'),
  ('GU', 'Guam'),
  ('GW', 'Guinea-Bissau'),
  ('GY', 'Guyana'),
  ('HK', 'Hong Kong'),
  ('HM', 'Heard Island and McDonald Islands'),
  ('HN', 'Honduras'),
  ('HR', 'Croatia'),
  ('HT', 'Haiti'),
  ('HU', 'Hungary'),
  ('ID', 'Indonesia'),
  ('IE', 'Ireland'),
  ('IL', 'Israel'),
  ('IM', 'Isle of Man'),
  ('IN', 'India'),
  ('IO', 'British Indian Ocean Territory'),
  ('IQ', 'Iraq'),
  ('IR', 'Iran'),
  ('IS', 'Iceland'),
  ('IT', 'Italy'),
  ('JE', 'Jersey'),
  ('JM', 'Jamaica'),
  ('JO', 'Jordan'),
  ('JP', 'Japan'),
  ('KE', 'Kenya'),
  ('KG', 'Kyrgyzstan'),
  ('KH', 'Cambodia'),
  ('KI', 'Kiribati'),
  ('KM', 'Comoros'),
  ('KN', 'Saint Kitts and Nevis'),
  ('KP', 'North Korea'),
  ('KR', 'South Korea'),
  ('KW', 'Kuwait'),
  ('KY', 'Cayman Islands'),
  ('KZ', 'Kazakhstan'),
  ('LA', 'Laos'),
  ('LB', 'Lebanon'),
  ('LC', 'Saint Lucia'),
  ('LI', 'Liechtenstein'),
  ('LK', 'Sri Lanka'),
  ('LR', 'Liberia'),
  ('LS', 'Lesotho'),
  ('LT', 'Lithuania'),
  ('LU', 'Luxembourg'),
  ('LV', 'Latvia'),
  ('LY', 'Libya'),
  ('MA', 'Morocco'),
  ('MC', 'Monaco'),
  ('MD', 'Moldova'),
  ('ME', 'Montenegro'),
  ('MF', 'Saint Martin (French part)'),
  ('MG', 'Madagascar'),
  ('MH', 'Marshall Islands'),
  ('MK', 'North Macedonia'),
  ('ML', 'Mali'),
  ('MM', 'Myanmar'),
  ('MN', 'Mongolia'),
  ('MO', 'Macao'),
  ('MP', 'Northern Mariana Islands'),
  ('MQ', 'Martinique'),
  ('MR', 'Mauritania'),
  ('MS', 'Montserrat'),
  ('MT', 'Malta'),
  ('MU', 'Mauritius'),
  ('MV', 'Maldives'),
  ('MW', 'Malawi'),
  ('MX', 'Mexico'),
  ('MY', 'Malaysia'),
  ('MZ', 'Mozambique'),
  ('NA', 'Namibia'),
  ('NC', 'New Caledonia'),
  ('NE', 'Niger'),
  ('NF', 'Norfolk Island'),
  ('NG', 'Nigeria'),
  ('NI', 'Nicaragua'),
  ('NL', 'Netherlands'),
  ('NO', 'Norway'),
  ('NP', 'Nepal'),
  ('NR', 'Nauru'),
  ('NU', 'Niue'),
  ('NZ', 'New Zealand'),
  ('OM', 'Oman'),
  ('PA', 'Panama'),
  ('PE', 'Peru'),
  ('PF', 'French Polynesia'),
  ('PG', 'Papua New Guinea'),
  ('PH', 'Philippines'),
  ('PK', 'Pakistan'),
  ('PL', 'Poland'),
  ('PM', 'Saint Pierre and Miquelon'),
  ('PN', 'Pitcairn'),
  ('PR', 'Puerto Rico'),
  ('PS', 'Palestine, State of'),
  ('PT', 'Portugal'),
  ('PW', 'Palau'),
  ('PY', 'Paraguay'),
  ('QA', 'Qatar'),
  ('RE', 'Réunion'),
  ('RO', 'Romania'),
  ('RS', 'Serbia'),
  ('RU', 'Russian Federation'),
  ('RW', 'Rwanda'),
  ('SA', 'Saudi Arabia'),
  ('SB', 'Solomon Islands'),
  ('SC', 'Seychelles'),
  ('SD', 'Sudan'),
  ('SE', 'Sweden'),
  ('SG', 'Singapore'),
  ('SH', 'Saint Helena, Ascension and Tristan da Cunha'),
  ('SI', 'Slovenia'),
  ('SJ', 'Svalbard and Jan Mayen'),
  ('SK', 'Slovakia'),
  ('SL', 'Sierra Leone'),
  ('SM', 'San Marino'),
  ('SN', 'Senegal'),
  ('SO', 'Somalia'),
  ('SR', 'Suriname'),
  ('SS', 'South Sudan'),
  ('ST', 'Sao Tome and Principe'),
  ('SV', 'El Salvador'),
  ('SX', 'Sint Maarten (Dutch part)'),
  ('SY', 'Syria'),
  ('SZ', 'Eswatini'),
  ('TC', 'Turks and Caicos Islands'),
  ('TD', 'Chad'),
  ('TF', 'French Southern Territories'),
  ('TG', 'Togo'),
  ('TH', 'Thailand'),
  ('TJ', 'Tajikistan'),
  ('TK', 'Tokelau'),
  ('TL', 'Timor-Leste'),
  ('TM', 'Turkmenistan'),
  ('TN', 'Tunisia'),
  ('TO', 'Tonga'),
  ('TR', 'Türkiye'),
  ('TT', 'Trinidad and Tobago'),
  ('TV', 'Tuvalu'),
  ('TW', 'Taiwan'),
  ('TZ', 'Tanzania'),
  ('UA', 'Ukraine'),
  ('UG', 'Uganda'),
  ('UM', 'United States Minor Outlying Islands'),
  ('US', 'United States'),
  ('UY', 'Uruguay'),
  ('UZ', 'Uzbekistan'),
  ('VA', 'Holy See (Vatican City State)'),
  ('VC', 'Saint Vincent and the Grenadines'),
  ('VE', 'Venezuela'),
  ('VG', 'Virgin Islands, British'),
  ('VI', 'Virgin Islands, U.S.'),
  ('VN', 'Vietnam'),
  ('VU', 'Vanuatu'),
  ('WF', 'Wallis and Futuna'),
  ('WS', 'Samoa'),
  ('YE', 'Yemen'),
  ('YT', 'Mayotte'),
  ('ZA', 'South Africa'),
  ('ZM', 'Zambia'),
  ('ZW', 'Zimbabwe');

-- A session's country: an assigned code. Sessions made before keep theirs (not valid); a new one
-- is checked.
alter table public.game_session
  add constraint game_session_country_fkey foreign key (country) references private.country (code) not valid;

-- ============================================================================================
-- Helper functions
-- ============================================================================================
-- What the API asks of a currency and a country it was given (either may be null: not given):
-- unknown_currency (the service has no such currency), currency_unavailable (it has it, not
-- active; asked only when `active` is true, where play needs the currency), unknown_country (not
-- an assigned ISO 3166-1 alpha-2 code). Empty when all is well.
create function private.reference_problems(currency text, country text default null, active boolean default false)
returns text[]
language sql stable
set search_path = ''
as $$
  select array_remove(array[
    case when reference_problems.currency is null then null
         when c.code is null then 'unknown_currency'
         when reference_problems.active and not c.is_active then 'currency_unavailable' end,
    case when reference_problems.country is not null
              and not exists (select 1 from private.country k where k.code = reference_problems.country)
         then 'unknown_country' end], null)
  from (select 1) one
  left join public.currency c on c.code = reference_problems.currency;
$$;
revoke execute on function private.reference_problems from public, anon, authenticated, service_role;

-- The codes of `countries` that are not assigned ISO 3166-1 alpha-2 codes.
create function private.unassigned_countries(countries text[]) returns text[]
language sql stable
set search_path = ''
as $$
  select coalesce(array_agg(c order by c), '{}') from unnest(countries) c
  where not exists (select 1 from private.country k where k.code = c);
$$;
revoke execute on function private.unassigned_countries from public, anon, authenticated, service_role;

-- Arrays of countries (a game's restricted_countries, a jurisdiction's countries and
-- blocked_countries) hold assigned codes only, as a foreign key would hold one. Security definer, as
-- a foreign key's check is: staff write these tables and may not read private.country.
create function private.check_countries() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  unassigned text[];
begin
  if tg_table_name = 'game' then
    unassigned := private.unassigned_countries(new.restricted_countries);
  else
    unassigned := private.unassigned_countries(new.countries || new.blocked_countries);
  end if;
  if cardinality(unassigned) > 0 then
    raise exception 'not assigned ISO 3166-1 alpha-2 codes in %: %', tg_table_name, array_to_string(unassigned, ', ')
      using errcode = 'check_violation';
  end if;
  return new;
end;
$$;
revoke execute on function private.check_countries from public, anon, authenticated, service_role;

create trigger game_countries_assigned
before insert or update of restricted_countries on public.game
for each row execute function private.check_countries();
create trigger jurisdiction_countries_assigned
before insert or update of countries, blocked_countries on public.jurisdiction
for each row execute function private.check_countries();

-- A player's limits are in currencies the service has: a limit in any other could never apply.
create function private.check_limit_currencies() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  unknown text[];
begin
  select coalesce(array_agg(distinct k order by k), '{}') into unknown
  from (select jsonb_object_keys(new.loss_limits) k union all select jsonb_object_keys(new.stake_limits)) keys
  where not exists (select 1 from public.currency c where c.code = keys.k);
  if cardinality(unknown) > 0 then
    raise exception 'limits in currencies the service does not have: %', array_to_string(unknown, ', ')
      using errcode = 'check_violation';
  end if;
  return new;
end;
$$;
revoke execute on function private.check_limit_currencies from public, anon, authenticated, service_role;

create trigger player_restriction_limit_currencies
before insert or update of loss_limits, stake_limits on public.player_restriction
for each row execute function private.check_limit_currencies();

-- What a new session breaks of its client's licences (private.create_game_session asks), as
-- 20261121000900_compliance.sql had it, and first whether its country is an assigned code:
-- unknown_country, and no other country problem then (a code that names no country is in no
-- licence's list).
create or replace function private.session_compliance(
  client_id uuid, certified text[], jurisdiction text, country text, kyc_status text
) returns text[]
language plpgsql stable
set search_path = ''
as $$
declare
  j public.jurisdiction;
  problems text[] := private.reference_problems(null, country);
  known_country boolean := cardinality(problems) = 0;
begin
  if jurisdiction is null then
    if exists (select 1 from public.client_jurisdiction cj where cj.client_id = session_compliance.client_id) then
      return problems || 'jurisdiction_required'::text;
    end if;
    return problems;
  end if;
  select jj.* into j from public.jurisdiction jj
  join public.client_jurisdiction cj on cj.jurisdiction_code = jj.code and cj.client_id = session_compliance.client_id
  where jj.code = session_compliance.jurisdiction;
  if j.code is null then
    return problems || 'jurisdiction_not_held'::text;
  end if;
  if certified is not null and not (j.code = any (certified)) then
    problems := problems || 'game_not_certified'::text;
  end if;
  if country is null and cardinality(j.countries) > 0 then
    problems := problems || 'country_required'::text;
  elsif known_country
        and (country = any (j.blocked_countries) or (cardinality(j.countries) > 0 and not (country = any (j.countries)))) then
    problems := problems || 'country_restricted'::text;
  end if;
  if j.kyc_required and kyc_status is distinct from 'verified' then
    problems := problems || 'kyc_required'::text;
  end if;
  return problems;
end;
$$;
revoke execute on function private.session_compliance from public, anon, authenticated, service_role;

-- POST /v3/sandbox/players, as 20261121001500_sandbox.sql had it, but a currency the service has
-- and has not made active is currency_unavailable, not unknown_currency: the codes a session gets.
-- Outcomes: created, unauthorized, live_key, unknown_currency, currency_unavailable.
create or replace function private.put_sandbox_player(key_hash text, player_id text, currency text, balance numeric, behaviour text)
returns table (outcome text, player text)
language plpgsql
set search_path = ''
as $$
#variable_conflict use_variable
declare
  caller record;
  made public.sandbox_player;
  problems text[];
begin
  select * into caller from private.authenticate_api_key(key_hash);
  if caller.key_id is null then
    return query select 'unauthorized', null::text;
    return;
  end if;
  if caller.livemode then
    return query select 'live_key', null::text;
    return;
  end if;
  problems := private.reference_problems(currency, null, true);
  if cardinality(problems) > 0 then
    return query select problems[1], null::text;
    return;
  end if;
  insert into public.sandbox_player as p (client_id, player_id, currency_code, balance, behaviour)
  values (caller.client_id, player_id, currency, balance, behaviour)
  on conflict on constraint sandbox_player_pkey do update set balance = excluded.balance, behaviour = excluded.behaviour
  returning p.* into made;
  return query select 'created', private.sandbox_player_json(made)::text;
end;
$$;
revoke execute on function private.put_sandbox_player from public, anon, authenticated, service_role;

-- PUT /v3/players/{player_id}/restrictions: as 20261125000200_sandbox_reset.sql had it, and a
-- limit in a currency the service does not have is refused before anything is read or written:
-- outcome unknown_currency, the body a JSON array of the pointers to those limits.
-- Outcomes: updated, unauthorized, unknown_currency, exclusion_active.
create or replace function private.put_player_restrictions(key_hash text, player_id text, restrictions jsonb)
returns table (outcome text, body text)
language plpgsql
set search_path = ''
as $$
#variable_conflict use_variable
declare
  caller record;
  current public.player_restriction;
  wanted public.player_restriction;
  shown text;
  unknown text;
begin
  select * into caller from private.authenticate_api_key(key_hash);
  if caller.key_id is null then
    return query select 'unauthorized', null::text;
    return;
  end if;
  select json_agg('#/' || l.kind || '/' || replace(replace(l.code, '~', '~0'), '/', '~1') order by l.kind, l.code)::text
  into unknown
  from (select 'loss_limits' kind, jsonb_object_keys(coalesce(restrictions->'loss_limits', '{}')) code
        union all
        select 'stake_limits', jsonb_object_keys(coalesce(restrictions->'stake_limits', '{}'))) l
  where cardinality(private.reference_problems(l.code)) > 0;
  if unknown is not null then
    return query select 'unknown_currency', unknown;
    return;
  end if;
  -- One change at a time per player: the check below and the write see one state.
  perform pg_advisory_xact_lock(hashtextextended(caller.client_id::text || ' player ' || caller.livemode::text || ' ' || player_id, 0));
  select * into current from public.player_restriction r
  where r.client_id = caller.client_id and r.livemode = caller.livemode and r.player_id = put_player_restrictions.player_id;
  -- Amounts as stored everywhere: four places ("50" is "50.0000").
  wanted := row(caller.client_id, caller.livemode, player_id,
    (restrictions->>'self_excluded_until')::timestamptz, coalesce((restrictions->>'self_excluded_indefinitely')::boolean, false),
    (restrictions->>'cool_off_until')::timestamptz,
    coalesce((select jsonb_object_agg(c.key, (
               select coalesce(jsonb_object_agg(p.key, to_jsonb((p.value #>> '{}')::numeric(20, 4)::text)), '{}')
               from jsonb_each(c.value) p where jsonb_typeof(p.value) <> 'null'))
             from jsonb_each(restrictions->'loss_limits') c), '{}'),
    coalesce((select jsonb_object_agg(c.key, to_jsonb((c.value #>> '{}')::numeric(20, 4)::text))
             from jsonb_each(restrictions->'stake_limits') c), '{}'),
    (restrictions->>'session_time_limit_minutes')::int, now())::public.player_restriction;
  if caller.livemode and ((current.self_excluded_indefinitely and not wanted.self_excluded_indefinitely)
     or (current.self_excluded_until > now() and not wanted.self_excluded_indefinitely
         and coalesce(wanted.self_excluded_until, '-infinity') < current.self_excluded_until)
     or (current.cool_off_until > now() and coalesce(wanted.cool_off_until, '-infinity') < current.cool_off_until)) then
    return query select 'exclusion_active', null::text;
    return;
  end if;
  insert into public.player_restriction as r values (wanted.*)
  on conflict on constraint player_restriction_pkey do update
    set self_excluded_until = excluded.self_excluded_until, self_excluded_indefinitely = excluded.self_excluded_indefinitely,
        cool_off_until = excluded.cool_off_until, loss_limits = excluded.loss_limits, stake_limits = excluded.stake_limits,
        session_time_limit_minutes = excluded.session_time_limit_minutes, updated_at = excluded.updated_at;
  shown := private.player_restriction_json(wanted);
  insert into public.player_restriction_audit (client_id, livemode, player_id, action, detail)
  values (caller.client_id, caller.livemode, player_id, 'restrictions_changed', shown::jsonb);
  perform private.emit_event(caller.client_id, caller.livemode, 'player.restrictions_updated', shown::jsonb);
  return query select 'updated', shown;
end;
$$;
revoke execute on function private.put_player_restrictions from public, anon, authenticated, service_role;
