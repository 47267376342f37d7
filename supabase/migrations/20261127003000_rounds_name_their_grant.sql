-- Free rounds (issue 34): the operator sees which grant funded a round. GET /v3/rounds, GET
-- /v3/rounds/{id} and the round events (round.closed, round.stuck, round.win_held) name a free
-- round's grant (`free_round_grant_id`, null for a cash round), and each of the round's
-- transactions names the grant that funded it (null for cash), as the engine records them
-- (game_round.free_round_grant_id, round_transaction.free_round_grant_id: the free round play
-- migration). The grant names its campaign (GET /v3/free-rounds/grants/{id}).
--
-- Replaces the view private.round_entry and private.round_detail (both the round engine
-- migration's): the same rows, with the grant added to the JSON.

create or replace view private.round_entry as
  select r.id, r.client_id, r.livemode, r.status, r.player_id, r.session_id, r.opened_at,
         json_build_object(
           'id', r.id, 'round_id', r.provider_round_id, 'provider', gp.slug, 'game_id', gp.slug || ':' || r.game,
           'session_id', r.session_id, 'player_id', r.player_id, 'currency', r.currency_code,
           'wallet_mode', r.wallet_mode, 'status', r.status,
           'total_bet', r.total_bet::text, 'total_win', r.total_win::text,
           'free_round_grant_id', r.free_round_grant_id, 'livemode', r.livemode,
           'opened_at', r.opened_at, 'closed_at', r.closed_at) as round
  from public.game_round r
  join public.game_provider gp on gp.id = r.provider_id;
revoke all on private.round_entry from public, anon, authenticated, service_role;

-- A round with its transactions, as GET /v3/rounds/{id} shows it and the held-win events carry it:
-- each transaction names the grant that funded it (null for cash).
create or replace function private.round_detail(round_id uuid) returns jsonb
language plpgsql stable
set search_path = ''
as $$
begin
  return (
    select r.round::jsonb || jsonb_build_object('transactions', coalesce((
             select jsonb_agg(jsonb_build_object(
                      'transaction_id', t.transaction_id, 'type', t.kind, 'amount', t.amount::text,
                      'related_transaction_id', t.related_transaction_id, 'rolled_back', t.rolled_back,
                      'review', h.status, 'free_round_grant_id', t.free_round_grant_id,
                      'created_at', t.created_at) order by t.created_at, t.transaction_id)
             from public.round_transaction t
             left join public.held_win h on h.round_transaction_id = t.id
             where t.round_id = r.id), '[]'::jsonb))
    from private.round_entry r where r.id = round_detail.round_id);
end;
$$;
revoke execute on function private.round_detail from public, anon, authenticated, service_role;
