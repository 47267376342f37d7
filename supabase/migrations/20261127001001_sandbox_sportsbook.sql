-- The sandbox's demo sportsbook (issue 35; ../shared/design/bonuses-and-sportsbook.md, "Sandbox"):
-- the demo provider (cgs-sandbox, test sessions only) has a sportsbook, `cgs-sandbox:sportsbook`,
-- whose launch URL opens a static page (sandbox/sportsbook, reached through the demo game's URL)
-- where a test player places single and accumulator bets on a handful of fictional fixtures
-- through the real provider API with the demo provider's public key. The fixtures are the demo
-- provider's own (the page holds them; a bet's selections name them: `fixture_id`, `pick` home,
-- draw or away, `odds`), and an operator settles, resettles and voids a fixture with its test key
-- (POST /v3/sandbox/sportsbook/fixtures/{fixture_id}/settle, /resettle, /void): the platform then
-- plays the demo provider's part, settling through the real engine (private.sportsbook_settle, with
-- the demo provider's key) every open or settled bet of the caller's test
-- sessions that names the fixture, so the operator sees every state, movement and webhook.
--
-- A bet's legs, each by its fixture's outcome as the caller set it: won (the outcome is the pick),
-- lost (another outcome), void, or pending (no outcome yet). Any leg lost: the bet is lost (pays 0).
-- Else, every leg decided: every leg void, the bet is void (pays its stake); otherwise won, paying
-- its stake times the odds of its won legs (a void leg counts 1), to the ten-thousandth below,
-- never above its potential payout. A leg pending and none lost: the bet waits (an outcome, once
-- given, is only ever changed, so a settled bet never waits again).

insert into public.game (provider_id, code, name, category, features, demo)
select gp.id, 'sportsbook', 'Sandbox Sportsbook', 'sportsbook', '{}', true
from public.game_provider gp
where gp.slug = 'cgs-sandbox';

-- A fixture's outcome as an operator set it in its sandbox: the demo provider's results, one world
-- per client. Written only through private.sandbox_fixture_outcome (the owner); no API role reads it.
create table private.sandbox_fixture_result (
  client_id uuid not null references auth.users (id) on delete cascade,
  fixture_id text not null,
  outcome text not null,
  updated_at timestamptz not null default now(),
  primary key (client_id, fixture_id),
  constraint sandbox_fixture_result_outcome_check check (outcome in ('home', 'draw', 'away', 'void')),
  constraint sandbox_fixture_result_fixture_id_format check (fixture_id ~ '^[a-z0-9][a-z0-9-]{0,63}$')
);
alter table private.sandbox_fixture_result enable row level security;
revoke all on private.sandbox_fixture_result from public, anon, authenticated, service_role;

-- What a bet pays once its legs are decided by the caller's fixture outcomes: (result, payout), or
-- a null result while a leg is pending and none lost.
create function private.sandbox_bet_outcome(bet public.sportsbook_bet, client_id uuid, out result text, out payout numeric)
language plpgsql stable
set search_path = ''
as $$
declare
  leg jsonb;
  said text;
  pending boolean := false;
  voids int := 0;
  legs int := 0;
  odds numeric := 1;
begin
  for leg in select * from jsonb_array_elements(case when jsonb_typeof(bet.selections) = 'array' then bet.selections else '[]' end) loop
    legs := legs + 1;
    select r.outcome into said from private.sandbox_fixture_result r
    where r.client_id = sandbox_bet_outcome.client_id and r.fixture_id = leg->>'fixture_id';
    if said is null then
      pending := true;
    elsif said = 'void' then
      voids := voids + 1;
    elsif said = leg->>'pick' then
      odds := odds * (leg->>'odds')::numeric;
    else
      result := 'lost';
      payout := 0;
      return;
    end if;
  end loop;
  if pending or legs = 0 then
    return;
  elsif voids = legs then
    result := 'void';
    payout := bet.stake;
  else
    result := 'won';
    payout := least(trunc(bet.stake * odds, 4), bet.potential_payout);
  end if;
end;
$$;
revoke execute on function private.sandbox_bet_outcome from public, anon, authenticated, service_role;

-- POST /v3/sandbox/sportsbook/fixtures/{fixture_id}/settle (`action` settle: the fixture's first
-- outcome), /resettle (another outcome for a settled fixture) and /void (`outcome` void, settled or
-- not): the outcome is set for the caller's sandbox, and each of the caller's open or settled test
-- bets of the demo provider that names the fixture is settled or resettled as its legs now say, each a call of the demo provider's to the engine (its transaction_id
-- `sandbox-<fixture_id>-<uuid>`). One row per bet changed (its id, and the engine's outcome and
-- body: `wallet_call` for a seamless call the caller makes), or one row with no bet; `outcome`
-- ok, unauthorized, live_key, fixture_settled or fixture_not_settled.
create function private.sandbox_fixture_outcome(key_hash text, fixture_id text, action text, fixture_outcome text)
returns table (outcome text, bet_round_id uuid, engine_outcome text, engine_body json)
language plpgsql
set search_path = ''
as $$
#variable_conflict use_variable
declare
  caller record;
  demo_key text := '512feeb33cd512f1ab0c5e01f07fe24b9ceb36d955de038bf7d1f746c26ba501';
  found record;
  bet public.sportsbook_bet;
  decided record;
  tx text;
  applied record;
  touched int := 0;
begin
  select * into caller from private.authenticate_api_key(key_hash);
  if caller.key_id is null then
    return query select 'unauthorized'::text, null::uuid, null::text, null::json;
    return;
  end if;
  if caller.livemode then
    return query select 'live_key'::text, null::uuid, null::text, null::json;
    return;
  end if;
  perform pg_advisory_xact_lock(hashtextextended(caller.client_id::text || ' sandbox fixture ' || fixture_id, 0));
  if action = 'settle' and exists (select 1 from private.sandbox_fixture_result r
                                   where r.client_id = caller.client_id and r.fixture_id = sandbox_fixture_outcome.fixture_id) then
    return query select 'fixture_settled'::text, null::uuid, null::text, null::json;
    return;
  end if;
  if action = 'resettle' and not exists (select 1 from private.sandbox_fixture_result r
                                         where r.client_id = caller.client_id and r.fixture_id = sandbox_fixture_outcome.fixture_id) then
    return query select 'fixture_not_settled'::text, null::uuid, null::text, null::json;
    return;
  end if;
  insert into private.sandbox_fixture_result as r (client_id, fixture_id, outcome)
  values (caller.client_id, fixture_id, fixture_outcome)
  on conflict on constraint sandbox_fixture_result_pkey do update set outcome = excluded.outcome, updated_at = now();

  for found in
    select b.round_id, r.provider_round_id from public.sportsbook_bet b
    join public.game_round r on r.id = b.round_id
    join public.game_provider gp on gp.id = r.provider_id and gp.slug = 'cgs-sandbox'
    where b.client_id = caller.client_id and not b.livemode and b.status in ('open', 'settled')
      and b.selections @> jsonb_build_array(jsonb_build_object('fixture_id', fixture_id))
    order by b.placed_at, b.round_id
  loop
    select * into bet from public.sportsbook_bet b where b.round_id = found.round_id;
    select * into decided from private.sandbox_bet_outcome(bet, caller.client_id);
    continue when decided.result is null;
    continue when decided.result is not null and bet.status = 'settled'
                  and decided.result = bet.result and decided.payout = bet.payout;
    tx := 'sandbox-' || fixture_id || '-' || gen_random_uuid();
    select * into applied from private.sportsbook_settle(demo_key, found.provider_round_id, tx, decided.result, decided.payout,
                                                         encode(extensions.digest(tx, 'sha256'), 'hex'));
    touched := touched + 1;
    return query select 'ok'::text, bet.round_id, applied.outcome, applied.body;
  end loop;
  if touched = 0 then
    return query select 'ok'::text, null::uuid, null::text, null::json;
  end if;
end;
$$;
revoke execute on function private.sandbox_fixture_outcome from public, anon, authenticated, service_role;

-- The bets the answer shows, as the bets API shows them (the caller's, in test mode).
-- plpgsql, as every function of a request (tests/data/function-language.test.ts).
create function private.sandbox_fixture_bets(key_hash text, round_ids uuid[])
returns table (bet text)
language plpgsql stable
set search_path = ''
as $$
begin
  return query
  select private.sportsbook_bet_json(b.round_id)::text
  from private.authenticate_api_key(sandbox_fixture_bets.key_hash) a
  join public.sportsbook_bet b on b.client_id = a.client_id and b.livemode = a.livemode and b.round_id = any (sandbox_fixture_bets.round_ids)
  order by b.placed_at, b.round_id;
end;
$$;
revoke execute on function private.sandbox_fixture_bets from public, anon, authenticated, service_role;
