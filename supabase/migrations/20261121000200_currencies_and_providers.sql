-- Currencies and game providers: public reference lists (anyone may read them, spec 1), managed
-- by staff, with the production content of spec 2.3 and 2.7.

-- ============================================================================================
-- Tables
-- ============================================================================================
create table public.currency (
  code text primary key,
  name text not null,
  symbol text not null,
  is_active boolean not null default true,
  sort_order int not null default 100,
  constraint currency_code_format check (code ~ '^[A-Z]{3}$'),
  constraint currency_name_length check (char_length(name) between 1 and 64),
  constraint currency_symbol_length check (char_length(symbol) between 1 and 8)
);
comment on table public.currency is 'ISO 4217 currencies the service offers; wallets and transactions refer to them.';

create table public.game_provider (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  slug text not null,
  category text,
  logo_url text,
  games_count int not null default 0,
  status text not null default 'active',
  sort_order int not null default 100,
  created_at timestamptz not null default now(),
  -- Jurisdictions its games are certified in, unless a game says otherwise (the compliance migration).
  jurisdictions text[] not null default '{}',
  -- The sandbox's own provider (the sandbox migration): its games exist for test keys alone, so no
  -- live session, and no real money, ever reaches them.
  test_only boolean not null default false,
  constraint game_provider_slug_key unique (slug),
  constraint game_provider_slug_format check (slug ~ '^[a-z0-9][a-z0-9-]{0,63}$'),
  constraint game_provider_name_length check (char_length(name) between 1 and 100),
  constraint game_provider_category_length check (char_length(category) <= 100),
  constraint game_provider_logo_url_format check (logo_url ~ '^https://' and char_length(logo_url) <= 2048),
  constraint game_provider_games_count_nonnegative check (games_count >= 0),
  constraint game_provider_status_check check (status in ('active', 'maintenance', 'inactive')),
  constraint game_provider_jurisdictions_format check (
    array_to_string(jurisdictions, ',') ~ '^([A-Z]{2}(-[A-Z0-9]{1,3})?(,[A-Z]{2}(-[A-Z0-9]{1,3})?)*)?$'
    and array_position(jurisdictions, null) is null)
);
comment on table public.game_provider is
  'Game studios; the slug is the <provider> part of a game_id (<provider>:<game>).';

-- ============================================================================================
-- Row level security
-- ============================================================================================
alter table public.currency enable row level security;
alter table public.game_provider enable row level security;

-- ============================================================================================
-- Grants
-- ============================================================================================
grant select on public.currency, public.game_provider to anon, authenticated;
grant select, insert, update, delete on public.currency, public.game_provider to staff;
grant all on public.currency, public.game_provider to service_role;

-- ============================================================================================
-- Policies
-- ============================================================================================
create policy "anyone reads the currency list"
  on public.currency for select to anon, authenticated, staff
  using (true);

create policy "staff create currencies"
  on public.currency for insert to staff
  with check ((select private.is_staff()));

create policy "staff update currencies"
  on public.currency for update to staff
  using ((select private.is_staff()))
  with check ((select private.is_staff()));

create policy "staff delete currencies"
  on public.currency for delete to staff
  using ((select private.is_staff()));

create policy "anyone reads the provider list"
  on public.game_provider for select to anon, authenticated, staff
  using (true);

create policy "staff create providers"
  on public.game_provider for insert to staff
  with check ((select private.is_staff()));

create policy "staff update providers"
  on public.game_provider for update to staff
  using ((select private.is_staff()))
  with check ((select private.is_staff()));

create policy "staff delete providers"
  on public.game_provider for delete to staff
  using ((select private.is_staff()));

-- ============================================================================================
-- Reference data (production content: it lives here, not in seed.sql)
-- ============================================================================================
insert into public.currency (code, name, symbol, sort_order) values
  ('USD', 'US Dollar', '$', 1),
  ('EUR', 'Euro', '€', 2),
  ('GBP', 'British Pound', '£', 3),
  ('BDT', 'Bangladeshi Taka', '৳', 4),
  ('INR', 'Indian Rupee', '₹', 5),
  ('SAR', 'Saudi Riyal', '﷼', 6),
  ('AED', 'UAE Dirham', 'د.إ', 7),
  ('MYR', 'Malaysian Ringgit', 'RM', 8),
  ('THB', 'Thai Baht', '฿', 9),
  ('IDR', 'Indonesian Rupiah', 'Rp', 10),
  ('PHP', 'Philippine Peso', '₱', 11),
  ('VND', 'Vietnamese Dong', '₫', 12),
  ('SGD', 'Singapore Dollar', 'S$', 13),
  ('HKD', 'Hong Kong Dollar', 'HK$', 14),
  ('JPY', 'Japanese Yen', '¥', 15),
  ('KRW', 'South Korean Won', '₩', 16),
  ('CNY', 'Chinese Yuan', 'CN¥', 17),
  ('AUD', 'Australian Dollar', 'A$', 18),
  ('CAD', 'Canadian Dollar', 'C$', 19),
  ('CHF', 'Swiss Franc', 'CHF', 20),
  ('NZD', 'New Zealand Dollar', 'NZ$', 21),
  ('ZAR', 'South African Rand', 'R', 22),
  ('BRL', 'Brazilian Real', 'R$', 23),
  ('MXN', 'Mexican Peso', 'MX$', 24),
  ('ARS', 'Argentine Peso', 'AR$', 25),
  ('TRY', 'Turkish Lira', '₺', 26),
  ('RUB', 'Russian Ruble', '₽', 27),
  ('PLN', 'Polish Zloty', 'zł', 28),
  ('NOK', 'Norwegian Krone', 'kr', 29),
  ('SEK', 'Swedish Krona', 'kr', 30),
  ('DKK', 'Danish Krone', 'kr', 31),
  ('PKR', 'Pakistani Rupee', '₨', 32),
  ('LKR', 'Sri Lankan Rupee', 'Rs', 33),
  ('NPR', 'Nepalese Rupee', 'रू', 34),
  ('KWD', 'Kuwaiti Dinar', 'د.ك', 35),
  ('QAR', 'Qatari Riyal', 'ر.ق', 36),
  ('OMR', 'Omani Rial', 'ر.ع.', 37),
  ('BHD', 'Bahraini Dinar', '.د.ب', 38),
  ('EGP', 'Egyptian Pound', 'E£', 39),
  ('NGN', 'Nigerian Naira', '₦', 40),
  ('KES', 'Kenyan Shilling', 'KSh', 41);

insert into public.game_provider (name, slug, category, games_count, sort_order) values
  ('Pragmatic Play', 'pragmatic-play', 'Slots, live casino, bingo', 450, 1),
  ('Evolution', 'evolution', 'Live casino, game shows', 500, 2),
  ('NetEnt', 'netent', 'Slots, table games', 300, 3),
  ('Play''n GO', 'playngo', 'Slots', 350, 4),
  ('Playtech', 'playtech', 'Slots, live casino, table games', 600, 5),
  ('Games Global', 'games-global', 'Slots, progressive jackpots', 900, 6),
  ('Red Tiger', 'red-tiger', 'Slots, daily jackpots', 300, 7),
  ('Hacksaw Gaming', 'hacksaw-gaming', 'Slots, scratch cards', 200, 8),
  ('Nolimit City', 'nolimit-city', 'Slots', 110, 9),
  ('Relax Gaming', 'relax-gaming', 'Slots, table games', 150, 10),
  ('Yggdrasil', 'yggdrasil', 'Slots', 250, 11),
  ('Spribe', 'spribe', 'Crash and instant games', 12, 12);
