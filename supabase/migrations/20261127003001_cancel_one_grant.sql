-- Free rounds (issue 34): DELETE /v3/free-rounds/campaigns/{id}/players/{player_id} cancels one
-- player's grant of a campaign (../shared/design/bonuses-and-sportsbook.md: "remove one whose grant
-- has not started"; a grant in play is cancelled too, as a campaign's cancel stops it).
--
-- - A grant not finished (pending, or in play) ends `cancelled` at once, with its event
--   (free_rounds.grant.cancelled, through the outbox in the same transaction): the engine takes no
--   new free bet of it (free_round_bet refuses a cancelled grant), a rollback no longer gives a
--   round back, and its rounds_left is 0. A round already in play settles as after a campaign's
--   cancel: its win is paid (up to max_win) and added to the grant's total_win, and a lump-sum
--   grant may still take its payout once nothing is open. The grant's status stays what it was set
--   to (private.free_round_release keeps a recorded cancelled).
-- - Idempotent: a cancelled grant (by this call or its campaign's cancel) is answered as it is.
-- - Refused, writing nothing: an unknown campaign (another client's or mode's looks the same) or no
--   grant of it for the player (not_found); a campaign past valid_until, whose unfinished grants
--   are expired by the clock (campaign_ended); a grant completed (grant_completed).
-- - The grant's row lock orders it with the engine's free bets and wins (which lock the round,
--   then the grant) and with a campaign's cancel (the campaign, then its grants): it takes no
--   other lock, so it waits for neither order.
create function private.cancel_free_round_grant(key_hash text, campaign_id uuid, player_id text)
returns table (outcome text, "grant" text)
language plpgsql
set search_path = ''
as $$
declare
  caller record;
  campaign public.free_round_campaign;
  g public.free_round_grant;
  status text;
begin
  select * into caller from private.authenticate_api_key(cancel_free_round_grant.key_hash);
  if caller.key_id is null then
    return query select 'unauthorized', null::text;
    return;
  end if;
  select c.* into campaign from public.free_round_campaign c
  where c.id = cancel_free_round_grant.campaign_id and c.client_id = caller.client_id and c.livemode = caller.livemode;
  if campaign.id is null then
    return query select 'campaign_not_found', null::text;
    return;
  end if;
  select x.* into g from public.free_round_grant x
  where x.campaign_id = campaign.id and x.player_id = cancel_free_round_grant.player_id
  for update;
  if g.id is null then
    return query select 'grant_not_found', null::text;
    return;
  end if;
  status := private.free_round_grant_status(g.status, g.expires_at, now());
  if status = 'cancelled' then
    return query select 'found', private.free_round_grant_json(g, now());
    return;
  end if;
  if status = 'expired' then
    return query select 'campaign_ended', null::text;
    return;
  end if;
  if status = 'completed' then
    return query select 'grant_completed', null::text;
    return;
  end if;
  update public.free_round_grant x set status = 'cancelled' where x.id = g.id returning x.* into g;
  return query select 'found', private.free_round_grant_json(g, now());
end;
$$;
revoke execute on function private.cancel_free_round_grant from public, anon, authenticated, service_role;
