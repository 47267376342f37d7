-- The reference check of a request's currency and country, planned once per connection.
--
-- Replaces private.reference_problems (the one rule per field migration), a `language sql` function
-- with its own search_path: Postgres plans such a function again at every call (it cannot be inlined
-- and keeps no plan), and the games list and every endpoint that takes a currency call it once per
-- request. As plpgsql its statement's plan is kept. Same answer: the problems of the currency
-- (`unknown_currency`, or `currency_unavailable` when `active` asks for an active one) and of the
-- country (`unknown_country`), none for what is not given.
create or replace function private.reference_problems(currency text, country text default null, active boolean default false)
returns text[]
language plpgsql stable
set search_path = ''
as $$
begin
  return (
    select array_remove(array[
      case when reference_problems.currency is null then null
           when c.code is null then 'unknown_currency'
           when reference_problems.active and not c.is_active then 'currency_unavailable' end,
      case when reference_problems.country is not null
                and not exists (select 1 from private.country k where k.code = reference_problems.country)
           then 'unknown_country' end], null)
    from (select 1) one
    left join public.currency c on c.code = reference_problems.currency);
end;
$$;
revoke execute on function private.reference_problems from public, anon, authenticated, service_role;
