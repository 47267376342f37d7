import type { Sql } from 'postgres';
import { describeAccessMatrix, everyone, newId, ownerAndStaff, staff } from './matrix.ts';

/** A game of the catalogue with no free-round terms yet, made for one cell. */
async function newGame(sql: Sql, status = 'active'): Promise<string> {
  const [game] = await sql`
    insert into public.game (provider_id, code, name, category, status)
    select id, ${`fr-${newId()}`}, 'Free Spins Test', 'slots', ${status} from public.game_provider where slug = 'pragmatic-play'
    returning id`;
  return game.id;
}

const termsOf = (gameId: string) => ({
  game_id: gameId, payout_mode: 'per_round', max_rounds: 50, max_validity_days: 30, stakes: { EUR: [0.1, 0.2] },
});

// The catalogue's free-round terms are staff's, and public for active games as the games are.
describeAccessMatrix({
  table: 'game_free_rounds',
  key: 'game_id',
  async seed({ sql }) {
    const [row] = await sql`insert into public.game_free_rounds ${sql(termsOf(await newGame(sql)))} returning game_id`;
    return row.game_id;
  },
  newRow: async ({ sql }) => termsOf(await newGame(sql)),
  change: { max_rounds: 20 },
  allowed: { select: everyone, insert: staff, update: staff, delete: staff },
});

// Those of a game taken out of the catalogue are staff's alone, as the game is.
describeAccessMatrix({
  table: 'game_free_rounds',
  rows: 'of an inactive game',
  key: 'game_id',
  async seed({ sql }) {
    const [row] = await sql`insert into public.game_free_rounds ${sql(termsOf(await newGame(sql, 'inactive')))} returning game_id`;
    return row.game_id;
  },
  newRow: async ({ sql }) => termsOf(await newGame(sql, 'inactive')),
  change: { max_rounds: 20 },
  allowed: { select: staff, insert: staff, update: staff, delete: staff },
});

const campaignOf = async (sql: Sql, clientId: string) => {
  const [provider] = await sql`select id from public.game_provider where slug = 'pragmatic-play'`;
  return {
    client_id: clientId, livemode: true, external_id: `c-${newId()}`, name: 'Welcome spins', provider_id: provider.id,
    games: ['vs20olympgate'], currency_code: 'EUR', bet_amount: '0.2000', rounds: 10,
    valid_from: new Date(), valid_until: new Date(Date.now() + 7 * 86_400_000), request_fingerprint: 'a'.repeat(64),
  };
};

// Campaigns and grants are written by the API's functions alone (as the service); clients read
// their own, staff all.
describeAccessMatrix({
  table: 'free_round_campaign',
  async seed({ sql, owner }) {
    const [row] = await sql`insert into public.free_round_campaign ${sql(await campaignOf(sql, owner.id))} returning id`;
    return row.id;
  },
  newRow: async ({ sql, owner }) => ({ id: newId(), ...(await campaignOf(sql, owner.id)) }),
  change: { cancelled_at: new Date() },
  allowed: { select: ownerAndStaff, insert: [], update: [], delete: [] },
});

const grantOf = async (sql: Sql, clientId: string) => {
  const [campaign] = await sql`insert into public.free_round_campaign ${sql(await campaignOf(sql, clientId))} returning id, valid_until`;
  return { campaign_id: campaign.id, client_id: clientId, livemode: true, player_id: 'player-1', rounds_total: 10,
    expires_at: campaign.valid_until };
};

describeAccessMatrix({
  table: 'free_round_grant',
  async seed({ sql, owner }) {
    const [row] = await sql`insert into public.free_round_grant ${sql(await grantOf(sql, owner.id))} returning id`;
    return row.id;
  },
  newRow: async ({ sql, owner }) => ({ id: newId(), ...(await grantOf(sql, owner.id)) }),
  change: { rounds_used: 10, status: 'completed' },
  allowed: { select: ownerAndStaff, insert: [], update: [], delete: [] },
});
