import type { Sql } from 'postgres';
import { describeAccessMatrix, newId, ownerAndStaff, staff } from './matrix.ts';

/** A sportsbook bet's round, of a live session of the client's. */
async function roundOf(sql: Sql, clientId: string): Promise<string> {
  const [round] = await sql`
    with s as (
      insert into public.game_session (client_id, livemode, player_id, provider_id, game, currency_code, expires_at)
      select ${clientId}, true, 'p1', id, 'sportsbook', 'EUR', now() + interval '15 minutes'
      from public.game_provider where slug = 'pragmatic-play'
      returning id, provider_id
    )
    insert into public.game_round (provider_id, provider_round_id, client_id, livemode, session_id, player_id, game, currency_code,
                                   total_bet, status, closed_at)
    select s.provider_id, ${`bet-${newId()}`}, ${clientId}, true, s.id, 'p1', 'sportsbook', 'EUR', 10, 'closed', now() from s
    returning id`;
  return round.id;
}

const betOf = async (sql: Sql, clientId: string) => ({
  round_id: await roundOf(sql, clientId), client_id: clientId, livemode: true, player_id: 'p1', currency_code: 'EUR',
  status: 'open', stake: '10.0000', odds: '2.5', potential_payout: '25.0000', selections: [{ pick: 'home' }],
});

// Sportsbook bets are written by the engine alone (as the service); clients read their own, staff all.
describeAccessMatrix({
  table: 'sportsbook_bet',
  key: 'round_id',
  async seed({ sql, owner }) {
    const [row] = await sql`insert into public.sportsbook_bet ${sql(await betOf(sql, owner.id))} returning round_id`;
    return row.round_id;
  },
  newRow: async ({ sql, owner }) => betOf(sql, owner.id),
  change: { payout: '25.0000', paid: '25.0000', status: 'settled', result: 'won', settlement_transaction_id: 'tx-1' },
  allowed: { select: ownerAndStaff, insert: [], update: [], delete: [] },
});

// A discard or unsettle of a bet nobody has seen, made with the provider's key alone, is of no client
// anyone knows yet: staff read it, no client does.
describeAccessMatrix({
  table: 'round_transaction',
  rows: 'sportsbook tombstones of no known client',
  async seed({ sql }) {
    const [row] = await sql`
      insert into public.round_transaction (provider_id, transaction_id, kind, client_id, amount, related_transaction_id,
                                            request_fingerprint, response_body)
      select id, ${`t-${newId()}`}, 'sportsbook_discard', null, 0, ${`bet-${newId()}`}, ${'0'.repeat(64)}, '{}'
      from public.game_provider where slug = 'pragmatic-play'
      returning id`;
    return row.id;
  },
  newRow: async ({ sql }) => {
    const [provider] = await sql`select id from public.game_provider where slug = 'pragmatic-play'`;
    return {
      id: newId(), provider_id: provider.id, transaction_id: `t-${newId()}`, kind: 'sportsbook_unsettle', client_id: null,
      amount: 0, related_transaction_id: `t-${newId()}`, request_fingerprint: '0'.repeat(64), response_body: {},
    };
  },
  change: { amount: 1 },
  allowed: { select: staff, insert: [], update: [], delete: [] },
});
