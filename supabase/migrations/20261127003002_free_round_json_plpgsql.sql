-- Free rounds (issue 34): a campaign's grants are told to the operator one event each
-- (free_rounds.grant.created), and each event carries the grant as the API shows it
-- (private.free_round_grant_json). That JSON, and the statuses it reads, were language sql
-- functions with their own search_path: never inlined, so Postgres parsed and planned each body
-- again at every call, for every grant of a campaign and every row of a grants page. A campaign
-- for 1,000 players spent most of its time there (npm run bench -- free-rounds; docs/performance.md).
-- As plpgsql they keep their plans for the connection. Same results.
--
-- Replaces private.free_round_campaign_status, private.free_round_grant_status and
-- private.free_round_campaign_json (the free rounds migration) and private.free_round_grant_json
-- (the free round play migration), each the same expression in plpgsql.

create or replace function private.free_round_campaign_status(c public.free_round_campaign, at timestamptz) returns text
language plpgsql immutable
set search_path = ''
as $$
begin
  return case when c.cancelled_at is not null then 'cancelled'
              when at >= c.valid_until then 'ended'
              when at >= c.valid_from then 'active'
              else 'scheduled' end;
end;
$$;
revoke execute on function private.free_round_campaign_status from public, anon, authenticated, service_role;

-- A grant's status at an instant: one not finished by its expiry is expired, recorded or not. The
-- engine asks this too, so a grant past valid_until takes no free bet whatever the column says.
create or replace function private.free_round_grant_status(status text, expires_at timestamptz, at timestamptz) returns text
language plpgsql immutable
set search_path = ''
as $$
begin
  return case when status in ('pending', 'in_progress') and at >= expires_at then 'expired' else status end;
end;
$$;
revoke execute on function private.free_round_grant_status from public, anon, authenticated, service_role;

-- A campaign as the operator API shows it, with its grants counted by status, the rounds played and
-- what they paid.
create or replace function private.free_round_campaign_json(c public.free_round_campaign, at timestamptz) returns text
language plpgsql stable
set search_path = ''
as $$
begin
  return (
    select json_build_object(
      'id', c.id, 'external_id', c.external_id, 'name', c.name,
      'game_ids', (select json_agg(gp.slug || ':' || g.code order by g.i) from unnest(c.games) with ordinality g (code, i)),
      'currency', c.currency_code, 'bet_amount', c.bet_amount::text, 'rounds', c.rounds,
      'valid_from', c.valid_from, 'valid_until', c.valid_until, 'max_win', c.max_win::text,
      'status', private.free_round_campaign_status(c, at), 'livemode', c.livemode,
      'grants', json_build_object('pending', s.pending, 'in_progress', s.in_progress, 'completed', s.completed,
                                  'expired', s.expired, 'cancelled', s.cancelled),
      'rounds_played', s.rounds_played, 'total_paid', s.total_paid::text,
      'created_at', c.created_at, 'cancelled_at', c.cancelled_at)::text
    from public.game_provider gp,
    lateral (
      select count(*) filter (where t.status = 'pending')::int as pending,
             count(*) filter (where t.status = 'in_progress')::int as in_progress,
             count(*) filter (where t.status = 'completed')::int as completed,
             count(*) filter (where t.status = 'expired')::int as expired,
             count(*) filter (where t.status = 'cancelled')::int as cancelled,
             coalesce(sum(t.rounds_used), 0)::int as rounds_played,
             coalesce(sum(t.total_win), 0)::numeric(20, 4) as total_paid
      from (select private.free_round_grant_status(g.status, g.expires_at, at) as status, g.rounds_used, g.total_win
            from public.free_round_grant g where g.campaign_id = c.id) t
    ) s
    where gp.id = c.provider_id);
end;
$$;
revoke execute on function private.free_round_campaign_json from public, anon, authenticated, service_role;

-- A grant as the operator API shows it: rounds_left is what can still be played (none once it is
-- over, its campaign cancelled or its payout made), game_id the game it is locked to (null until
-- its first round).
create or replace function private.free_round_grant_json(g public.free_round_grant, at timestamptz) returns text
language plpgsql stable
set search_path = ''
as $$
begin
  return (
    select json_build_object(
      'id', g.id, 'campaign_id', g.campaign_id, 'campaign_external_id', c.external_id, 'player_id', g.player_id,
      'game_id', case when g.game is not null then gp.slug || ':' || g.game end,
      'currency', c.currency_code, 'bet_amount', c.bet_amount::text,
      'rounds_total', g.rounds_total, 'rounds_used', g.rounds_used,
      'rounds_left', case when private.free_round_grant_status(g.status, g.expires_at, at) in ('pending', 'in_progress')
                               and c.cancelled_at is null and g.paid_out_at is null
                          then g.rounds_total - g.rounds_used else 0 end,
      'total_win', g.total_win::text, 'status', private.free_round_grant_status(g.status, g.expires_at, at),
      'expires_at', g.expires_at, 'livemode', g.livemode, 'created_at', g.created_at, 'updated_at', g.updated_at)::text
    from public.free_round_campaign c
    join public.game_provider gp on gp.id = c.provider_id
    where c.id = g.campaign_id);
end;
$$;
revoke execute on function private.free_round_grant_json from public, anon, authenticated, service_role;
