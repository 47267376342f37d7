-- Accounts and roles: user_role, profile, the `staff` database role and the access token hook that
-- gives it to staff, the helpers every later policy and function uses (is_staff, uid, require_staff,
-- check_request), and the rules of spec 2.13 (a profile and the `client` role for every new account).

-- ============================================================================================
-- Private schema: internals the API does not expose (config.toml exposes public only).
-- ============================================================================================
create schema if not exists private;
revoke all on schema private from public;

-- ============================================================================================
-- Roles
-- ============================================================================================
-- Staff sign in as `staff`, clients as `authenticated`: private.custom_access_token_hook puts the
-- role in the access token, PostgREST switches to it, and each role's policies stay plain (see
-- Policies below). Roles belong to the cluster, so another database on it may have made it already.
do $$
begin
  if not exists (select 1 from pg_catalog.pg_roles where rolname = 'staff') then
    create role staff nologin noinherit;
  elsif exists (
    select 1 from pg_catalog.pg_roles
    where rolname = 'staff' and (rolsuper or rolbypassrls or rolcanlogin or rolcreaterole or rolcreatedb or rolreplication)
  ) then
    -- Another database's `staff` with powers of its own would hand them to every staff token here.
    raise exception 'a role "staff" with more than nologin exists in this cluster; this project needs its own';
  end if;
end
$$;
comment on role staff is 'Back-office staff (admin or manager with an active profile), named by their access token.';
grant staff to authenticator;
-- Not a member of authenticated: a member would fall under the clients' policies too, and Postgres
-- would OR them with staff's. So it gets its own usage, and reaches auth.uid() only through
-- private.uid() (a hosted project does not let custom roles use the auth schema).
grant usage on schema public, extensions to staff;

-- Policies call private.is_staff() and private.uid(); every API request runs private.check_request()
-- (anon included); service_role runs private.require_staff() from the functions it calls; Supabase
-- Auth runs the token hook. Nothing in private is executable by public, so usage alone gives none of
-- them anything else.
grant usage on schema private to authenticated;
grant usage on schema private to service_role;
grant usage on schema private to anon, staff, supabase_auth_admin;

-- ============================================================================================
-- Types
-- ============================================================================================
create type public.app_role as enum ('admin', 'manager', 'client');
comment on type public.app_role is 'Kinds of back-office user; admin and manager together are staff.';

-- ============================================================================================
-- Tables
-- ============================================================================================
create table public.user_role (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  role public.app_role not null,
  created_at timestamptz not null default now(),
  constraint user_role_user_id_role_key unique (user_id, role)
);
comment on table public.user_role is
  'Roles held by an account (several allowed). Written by the service only, never by API callers.';

create table public.profile (
  id uuid primary key references auth.users (id) on delete cascade,
  username text,
  display_name text,
  email text,
  messaging_handle text,
  status text not null default 'active',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint profile_username_length check (char_length(username) between 1 and 64),
  constraint profile_display_name_length check (char_length(display_name) between 1 and 128),
  constraint profile_email_length check (char_length(email) <= 320),
  constraint profile_messaging_handle_length check (char_length(messaging_handle) <= 64),
  constraint profile_status_check check (status in ('active', 'suspended', 'closed'))
);
comment on table public.profile is
  'One per account, same id, created by the service on sign-up (spec 2.13). Owners edit only '
  'username, display_name and messaging_handle; status, email, id and timestamps are staff''s.';
-- Unique when present, regardless of case: "Alice" and "alice" are the same name to a person.
create unique index profile_username_key on public.profile (lower(username));

-- ============================================================================================
-- Row level security
-- ============================================================================================
alter table public.user_role enable row level security;
alter table public.profile enable row level security;

-- ============================================================================================
-- Grants (no default grants on public: each table says what the API roles may do)
-- ============================================================================================
grant select on public.user_role to authenticated, staff;
grant all on public.user_role to service_role;
grant select, update on public.profile to authenticated;
grant select, insert, update, delete on public.profile to staff;
grant all on public.profile to service_role;

-- ============================================================================================
-- Helper functions
-- ============================================================================================
-- Who is staff, the one definition: an account holding admin or manager whose profile is active.
-- Staff powers need an active profile: a staff account is retired by closing its profile (it cannot
-- be deleted once it has written to clients), and Supabase Auth knows nothing of profile.status.
-- A view, so each check below inlines it; only the security-definer functions here read it.
create view private.active_staff as
  select ur.user_id
  from public.user_role ur
  join public.profile p on p.id = ur.user_id
  where ur.role in ('admin'::public.app_role, 'manager'::public.app_role)
    and p.status = 'active';
comment on view private.active_staff is 'Accounts with staff powers now: admin or manager, profile active.';
revoke all on private.active_staff from public, anon, authenticated, service_role;

create function private.is_staff() returns boolean
-- plpgsql, not sql: a security-definer SQL function is never inlined and is planned anew on every
-- call, while plpgsql keeps its plan.
language plpgsql stable parallel safe
-- security definer: reads user_role and profile without going through their own policies, which
-- call this, and for callers with no rights on them.
security definer
set search_path = ''
as $$
begin
  return exists (select 1 from private.active_staff s where s.user_id = (select auth.uid()));
end;
$$;
comment on function private.is_staff() is
  'True when the calling account holds admin or manager and its profile is active.';
revoke execute on function private.is_staff() from public, anon;
grant execute on function private.is_staff() to authenticated, staff, service_role;

-- Read policies name the caller with this, not auth.uid(). Postgres decides whether a query may run
-- in parallel from the labels of the functions its policies call, and auth.uid() carries none, so
-- every signed-in read of a table whose policy called it ran in one process. Clients' write
-- policies keep auth.uid(): Postgres never runs a write in parallel.
create function private.uid() returns uuid
-- plpgsql, not sql: a SQL function with search_path set is never inlined and is planned anew on
-- every call, while plpgsql keeps its plan (as is_staff()).
language plpgsql stable
-- parallel safe: auth.uid() reads request.jwt.claims, a setting Postgres copies to its parallel
-- workers; only its missing label made it unsafe. Policies call this inside (select ...), so it is
-- an InitPlan that runs once per query, in the leader.
parallel safe
-- security definer: the `staff` role has no usage on the auth schema (see Roles), and it names
-- itself with this too (column defaults, triggers, its own write policies).
security definer
set search_path = ''
as $$
begin
  return auth.uid();
end;
$$;
comment on function private.uid() is
  'auth.uid(), labelled parallel safe: the caller''s id in read policies.';
revoke execute on function private.uid() from public, anon;
grant execute on function private.uid() to authenticated, staff, service_role;

-- Who may issue and revoke API keys and record ledger movements, as one rule: staff through the API,
-- and the service itself, with the service key (service_role) or as the role that owns this project's
-- schema and runs its migrations (`npm run key`, the SQL editor). Spec 5 gives these writes to staff;
-- letting the service make them too is our choice: both roles may already write these tables directly,
-- and the functions keep their rules (the ledger's lock and chain, a key shown once).
-- Security invoker, so current_user is the caller. The roles let through are named: any other role
-- (a custom JWT role, one granted authenticated) must be staff. The schema's owner (or a member of it,
-- superusers included) passes only outside an API request: inside a security-definer function that
-- it owns, called for a request, current_user is the owner too, and the caller must still be staff.
create function private.require_staff(action text) returns void
language plpgsql stable
set search_path = ''
as $$
begin
  if current_user <> 'service_role'
     and not (
       coalesce(pg_catalog.current_setting('request.jwt.claims', true), '') = ''
       and coalesce(pg_catalog.pg_has_role(
         current_user, (select n.nspowner from pg_catalog.pg_namespace n where n.nspname = 'private'), 'member'), false))
     and not (select private.is_staff()) then
    raise exception 'only staff may %', action using errcode = '42501';
  end if;
end;
$$;
comment on function private.require_staff(text) is
  'Raises 42501 unless the caller is staff, service_role, or (outside an API request) the owner of this '
  'project''s schema or a member of it.';
revoke execute on function private.require_staff(text) from public, anon;
grant execute on function private.require_staff(text) to authenticated, staff, service_role;

-- PostgREST's pre-request function (db-pre-request, set on authenticator below): it runs in every
-- API request's transaction, after the role and claims are set and before the request's statement.
-- It is the live authority behind the `staff` role: a token says "staff" until it expires, but an
-- account that has since lost admin and manager, or whose profile is no longer active, is refused
-- here on its next request. Anyone else passes at the cost of one comparison.
create function private.check_request() returns void
language plpgsql stable
-- security definer: reads private.active_staff itself rather than calling is_staff(), since this
-- runs in every request and a nested call costs more; so current_user is the owner here, and the
-- request's role is the `role` setting PostgREST made.
security definer
set search_path = ''
as $$
begin
  if current_setting('role') = 'staff'
     and not exists (select 1 from private.active_staff s where s.user_id = (select auth.uid())) then
    raise exception 'this token''s staff role is no longer held: sign in again'
      using errcode = '42501';
  end if;
end;
$$;
comment on function private.check_request() is
  'PostgREST pre-request: refuses a staff token whose account is not staff any more (42501).';
revoke execute on function private.check_request() from public;
grant execute on function private.check_request() to anon, authenticated, staff, service_role;

-- Supabase Auth's custom access token hook (supabase/config.toml): staff's tokens name the `staff`
-- role, everyone else's stay `authenticated`; `user_role` says which of the account's roles counts
-- now (admin, then manager, while the account is staff; then client). Runs at sign-in and at every refresh, so a token is never
-- older than the token lifetime, and check_request() covers what changes within it.
create function private.custom_access_token_hook(event jsonb) returns jsonb
language plpgsql stable
-- security definer: supabase_auth_admin, which runs it, has no rights on user_role or profile.
security definer
set search_path = ''
as $$
declare
  claims jsonb := event -> 'claims';
  account uuid := (event ->> 'user_id')::uuid;
  effective public.app_role;
begin
  -- The role that counts now: admin, then manager, if the account is staff now; else client.
  select ur.role into effective
  from public.user_role ur
  where ur.user_id = account
    and (ur.role = 'client' or exists (select 1 from private.active_staff s where s.user_id = account))
  order by ur.role
  limit 1;
  if effective is not null then
    claims := jsonb_set(claims, '{user_role}', to_jsonb(effective::text));
  end if;
  if claims ->> 'role' = 'authenticated' and effective in ('admin', 'manager') then
    claims := jsonb_set(claims, '{role}', '"staff"');
  end if;
  return jsonb_build_object('claims', claims);
end;
$$;
comment on function private.custom_access_token_hook(jsonb) is
  'Supabase Auth access token hook: role staff for active admins and managers, and the user_role claim.';
revoke execute on function private.custom_access_token_hook(jsonb) from public, anon, authenticated, service_role;
grant execute on function private.custom_access_token_hook(jsonb) to supabase_auth_admin;

-- PostgREST reads its settings from the authenticator role, in this database only (another database
-- on the cluster has no such function); the notify makes a running one reload.
do $$
begin
  execute format('alter role authenticator in database %I set pgrst.db_pre_request = %L',
                 current_database(), 'private.check_request');
end
$$;
notify pgrst, 'reload config';

create function private.set_updated_at() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.updated_at := now();
  return new;
end;
$$;
revoke execute on function private.set_updated_at() from public, anon, authenticated;

-- Spec 2.13. Supabase Auth inserts accounts as supabase_auth_admin (search_path auth), which has
-- no rights on public: hence security definer, and nothing here depends on the search_path.
create function private.handle_new_account() returns trigger
language plpgsql
-- security definer: runs for supabase_auth_admin, which may not write public.profile/user_role.
security definer
set search_path = ''
as $$
declare
  local_part text := nullif(split_part(coalesce(new.email, ''), '@', 1), '');
  wanted text;
  candidate text;
  display text;
  attempt int := 0;
begin
  display := left(coalesce(nullif(btrim(new.raw_user_meta_data ->> 'display_name'), ''), local_part), 128);
  wanted := left(coalesce(nullif(btrim(new.raw_user_meta_data ->> 'username'), ''), local_part), 64);
  candidate := wanted;
  -- Sign-up must never fail on the profile: a taken username gets a suffix from the account id,
  -- and after a few tries (concurrent sign-ups racing for one name) the profile has none.
  loop
    begin
      insert into public.profile (id, email, display_name, username)
      values (new.id, left(new.email, 320), display, candidate)
      on conflict (id) do nothing;
      exit;
    exception when unique_violation then
      attempt := attempt + 1;
      candidate := case
        when attempt <= 3 then left(wanted, 55) || '-' || substr(md5(new.id::text || attempt::text), 1, 8)
        else null
      end;
    end;
  end loop;

  insert into public.user_role (user_id, role)
  values (new.id, 'client')
  on conflict (user_id, role) do nothing;
  return new;
end;
$$;
revoke execute on function private.handle_new_account() from public, anon, authenticated;

-- Owners (not staff) may edit presentational fields only. RLS cannot compare old and new rows.
create function private.guard_own_profile_update() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if old.id = (select private.uid()) and not (select private.is_staff()) and (
       new.id is distinct from old.id
    or new.email is distinct from old.email
    or new.status is distinct from old.status
    or new.created_at is distinct from old.created_at
  ) then
    raise exception 'only staff may change a profile''s id, email, status or created_at'
      using errcode = '42501';
  end if;
  return new;
end;
$$;
revoke execute on function private.guard_own_profile_update() from public, anon;

-- ============================================================================================
-- Triggers
-- ============================================================================================
create trigger on_auth_account_created
  after insert on auth.users
  for each row execute function private.handle_new_account();

create trigger profile_guard_own_update
  before update on public.profile
  for each row execute function private.guard_own_profile_update();

create trigger profile_set_updated_at
  before update on public.profile
  for each row execute function private.set_updated_at();

-- ============================================================================================
-- Policies
-- ============================================================================================
-- The pattern every table follows: one policy per role and action, each plain. A client's read is
-- one condition on the owner column, which Postgres turns into an index condition even when the
-- caller sends no filter of its own. Staff's reads grant every row with no condition at all, since
-- a request reaches them as `staff` only when private.check_request() has just found its caller to
-- be staff. Staff's writes check private.is_staff() again, which costs nothing on a single row.
create policy "accounts read their own roles"
  on public.user_role for select to authenticated
  using (user_id = (select private.uid()));

create policy "staff read all roles"
  on public.user_role for select to staff
  using (true);

create policy "accounts read their own profile"
  on public.profile for select to authenticated
  using (id = (select private.uid()));

create policy "accounts update their own profile"
  on public.profile for update to authenticated
  using (id = (select auth.uid()))
  with check (id = (select auth.uid()));

create policy "staff read all profiles"
  on public.profile for select to staff
  using (true);

create policy "staff create profiles"
  on public.profile for insert to staff
  with check ((select private.is_staff()));

create policy "staff update profiles"
  on public.profile for update to staff
  using ((select private.is_staff()))
  with check ((select private.is_staff()));

create policy "staff delete profiles"
  on public.profile for delete to staff
  using ((select private.is_staff()));
