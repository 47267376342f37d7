// The reports bench's data: a year of play of many operators, written set-based (no engine calls:
// the engine's rules are tested elsewhere, and ten million calls would take hours on two cores).
// Each operator's rounds come in sessions of SESSION_ROUNDS rounds of one player on one game, its
// sessions spread evenly over the year up to `until`; a round is a bet and what settled it, a win
// (zero for a loss) or, one round in a hundred, a rollback. Transfer mode, live: the reports read
// the round rows only (the float's ledger is not written).
//
// Written a slice of the year at a time, all operators together and in time order, as the engine
// writes them: a client's rows lie among everyone's, as in production. Ids are time-ordered (a
// UUIDv7-like layout: the instant, then the operator), so the indexes grow at their right edge.
import type { Sql } from 'postgres';

export const SESSION_ROUNDS = 25;
export const PLAYERS = 1000;
/** Games per provider, over three providers of the fixture catalogue. */
export const GAMES_PER_PROVIDER = 10;
const PROVIDERS = ['pragmatic-play', 'evolution', 'spribe'];
const SLICES = 12;

/** The bench's games in the catalogue (the report looks a round's game up for the sportsbook). */
export async function loadGames(sql: Sql): Promise<void> {
  await sql`
    insert into public.game (provider_id, code, name, category)
    select gp.id, 'report-' || n, 'Report Game ' || n, 'slots'
    from public.game_provider gp, generate_series(1, ${GAMES_PER_PROVIDER}) n
    where gp.slug = any(${PROVIDERS})`;
}

/**
 * `roundsPerOperator` rounds (two round transactions each) for each of `clients`, over the 365
 * days before `until`. `log` hears of each slice.
 */
export async function loadPlay(sql: Sql, clients: string[], roundsPerOperator: number, until: Date,
  log: (line: string) => void): Promise<void> {
  const sessions = Math.ceil(roundsPerOperator / SESSION_ROUNDS);
  // The last session ends before `until`.
  const spanUs = 365 * 86_400_000_000 - SESSION_ROUNDS * 7_000_000;
  const startUs = (until.getTime() - 365 * 86_400_000) * 1000;
  // A uuid of an instant (µs since the epoch), an operator and a kind: time-ordered, unique.
  const id = (us: string, operator: string, kind: number) =>
    `(lpad(to_hex(${us}), 16, '0') || lpad(to_hex(${operator}), 8, '0') || lpad(to_hex(${kind}), 8, '0'))::uuid`;
  for (let slice = 0; slice < SLICES; slice++) {
    const [first, last] = [Math.floor((slice * sessions) / SLICES), Math.floor(((slice + 1) * sessions) / SLICES) - 1];
    const began = Date.now();
    await sql.begin(async (tx) => {
      // A bulk load of rows consistent by construction: no per-row triggers (foreign-key checks,
      // session events), as a restore loads them.
      await tx`set local session_replication_role = replica`;
      await tx.unsafe(`
      with s as (
        select c.client_id, c.o, s.s, gp.id as provider_id,
               (${startUs} + (s.s::float8 + c.o::float8 / ${clients.length + 1}) * ${spanUs / sessions})::bigint as us,
               'player-' || ((s.s * 7919 + c.o * 13) % ${PLAYERS}) as player_id,
               'report-' || (1 + (s.s * 31 + c.o) % ${GAMES_PER_PROVIDER}) as game,
               case when s.s % 5 = 0 then 'USD' else 'EUR' end as currency_code
        from unnest($1::uuid[]) with ordinality c(client_id, o)
        cross join generate_series(${first}, ${last}) s(s)
        join public.game_provider gp on gp.slug = ($2::text[])[1 + (s.s * 7 + c.o) % ${PROVIDERS.length}]
      ), sessions as (
        insert into public.game_session (id, client_id, livemode, player_id, provider_id, game, currency_code, status, created_at,
                                         expires_at)
        select ${id('s.us', 's.o', 0)}, s.client_id, true, s.player_id, s.provider_id, s.game, s.currency_code, 'closed',
               (timestamptz 'epoch' + s.us * interval '1 microsecond'), (timestamptz 'epoch' + s.us * interval '1 microsecond') + interval '1 hour'
        from s
        order by s.us
      ), r as (
        select s.*, ${id('s.us', 's.o', 0)} as session_id, s.us + n * 7000000 as at_us, n, ${id('s.us + n * 7000000', 's.o', 0)} as id,
               (1 + (n * 7 + s.o) % 10)::numeric(20, 4) as bet,
               (case when n % 100 = 99 then 0 when n % 3 = 0 then (1 + (n * 7 + s.o) % 10) * (n % 7) * 0.65 else 0 end)::numeric(20, 4)
                 as win,
               n % 100 = 99 as cancelled
        from s
        cross join generate_series(0, ${SESSION_ROUNDS - 1}) n
      ), rounds as (
        insert into public.game_round (id, provider_id, provider_round_id, client_id, livemode, session_id, player_id, game,
                                       currency_code, status, total_bet, total_win, opened_at, closed_at)
        select r.id, r.provider_id, r.id::text, r.client_id, true, r.session_id, r.player_id, r.game, r.currency_code,
               case when r.cancelled then 'cancelled' else 'closed' end, case when r.cancelled then 0 else r.bet end, r.win,
               (timestamptz 'epoch' + r.at_us * interval '1 microsecond'), (timestamptz 'epoch' + r.at_us * interval '1 microsecond') + interval '2 seconds'
        from r
        order by r.at_us
      )
      insert into public.round_transaction (id, provider_id, transaction_id, kind, client_id, round_id, amount, related_transaction_id,
                                            rolled_back, settled, request_fingerprint, response_body, created_at)
      select ${id('r.at_us + v.after', 'r.o', 1)}, r.provider_id, r.id || '-' || v.k, v.k, r.client_id, r.id,
             case v.k when 'win' then r.win else r.bet end, case when v.k <> 'bet' then r.id || '-bet' end,
             v.k = 'bet' and r.cancelled, v.k = 'bet' and not r.cancelled, repeat('a', 64), '{}'::json,
             timestamptz 'epoch' + (r.at_us + v.after) * interval '1 microsecond'
      from r
      cross join lateral (values ('bet', 0), (case when r.cancelled then 'rollback' else 'win' end, 2000000)) v(k, after)
      order by r.at_us + v.after`, [clients, PROVIDERS] as never[]);
    });
    log(`  slice ${slice + 1}/${SLICES}: ${((Date.now() - began) / 1000).toFixed(1)} s`);
  }
  await sql`analyze public.game_session, public.game_round, public.round_transaction`;
}
