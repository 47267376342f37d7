-- Free rounds (issue 34): the last of the campaign path's language sql functions with their own
-- search_path, planned again at every call (a campaign's creation calls private.free_round_games
-- six times, once per check, and the fingerprint once), are plpgsql, as the grant's JSON is
-- (20261127003002). Same results.
--
-- Replaces private.free_round_games and private.free_round_campaign_fingerprint (the free rounds
-- migration), each the same query in plpgsql.

-- The games a campaign names, in its order, each with what judging it needs: null id for a game
-- the catalogue does not have (or a test-only provider's, for a live key).
create or replace function private.free_round_games(game_ids text[], currency text, livemode boolean)
returns table (i int, game_id text, pointer text, id uuid, code text, status text, currencies text[], provider_id uuid,
               provider_status text, supported boolean, max_rounds int, max_validity_days int, stakes jsonb)
language plpgsql stable
set search_path = ''
as $$
#variable_conflict use_column
begin
  return query
  select n.i::int, n.game_id, '#/game_ids/' || (n.i - 1), g.id, g.code, g.status, g.currencies, gp.id, gp.status,
         f.game_id is not null, f.max_rounds, f.max_validity_days, f.stakes -> free_round_games.currency
  from unnest(free_round_games.game_ids) with ordinality n (game_id, i)
  left join public.game_provider gp on gp.slug = split_part(n.game_id, ':', 1)
    and (not free_round_games.livemode or not gp.test_only)
  left join public.game g on g.provider_id = gp.id and g.code = split_part(n.game_id, ':', 2)
  left join public.game_free_rounds f on f.game_id = g.id;
end;
$$;
revoke execute on function private.free_round_games from public, anon, authenticated, service_role;

-- What a campaign's creating request means, whatever its spelling ("10.5" or "10.50", any offset,
-- players in any order or repeated): the same request again replays, another is a conflict. An
-- absent valid_from is part of the meaning (it is "now" each time).
create or replace function private.free_round_campaign_fingerprint(
  name text, game_ids text[], currency text, bet_amount numeric, rounds int, valid_from timestamptz,
  valid_until timestamptz, max_win numeric, player_ids text[]
) returns text
language plpgsql stable
set search_path = ''
as $$
begin
  return encode(extensions.digest(jsonb_build_object(
    'name', name, 'game_ids', to_jsonb(game_ids), 'currency', currency, 'bet_amount', trim_scale(bet_amount),
    'rounds', rounds, 'valid_from', extract(epoch from valid_from), 'valid_until', extract(epoch from valid_until),
    'max_win', trim_scale(max_win),
    'player_ids', (select coalesce(jsonb_agg(distinct p order by p), '[]'::jsonb) from unnest(player_ids) p))::text, 'sha256'), 'hex');
end;
$$;
revoke execute on function private.free_round_campaign_fingerprint from public, anon, authenticated, service_role;
