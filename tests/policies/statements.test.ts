import type { Sql } from 'postgres';
import { signUp } from '../helpers/db.ts';
import { describeAccessMatrix, ownerAndStaff, staff } from './matrix.ts';

// A client's contract is set by staff; the client reads its own, staff all.
describeAccessMatrix({
  table: 'client_contract',
  key: 'client_id',
  async seed({ sql, owner }) {
    const [row] = await sql`insert into public.client_contract (client_id, fee_rate) values (${owner.id}, 0.15) returning client_id`;
    return row.client_id;
  },
  // Another client's: the owner has one already (one contract per client).
  newRow: async ({ sql }) => ({ client_id: (await signUp(sql, 'contracted')).id, fee_rate: '0.120000' }),
  change: { fee_rate: '0.200000' },
  allowed: { select: ownerAndStaff, insert: staff, update: staff, delete: staff },
});

const lineOf = async (sql: Sql, clientId: string, month: string) => {
  const [provider] = await sql`select id from public.game_provider where slug = 'pragmatic-play'`;
  return {
    client_id: clientId, month, provider_id: provider.id, currency_code: 'EUR', bets: '100.0000', wins: '90.0000', free_round_wins: '0.0000',
    rolled_back: '0.0000',
    voided: '0.0000', ggr: '10.0000', fee_rate: '0.150000', amount_due: '1.5000',
  };
};
let months = 0;
/** A month of its own for each row, so no two collide on the key. */
const nextMonth = () => `20${String(10 + Math.floor(months / 12)).padStart(2, '0')}-${String((months++ % 12) + 1).padStart(2, '0')}-01`;

// Issued statements are written by the issuing function alone; the client reads its own, staff all.
describeAccessMatrix({
  table: 'monthly_statement',
  key: 'month',
  async seed({ sql, owner }) {
    const [row] = await sql`insert into public.monthly_statement ${sql(await lineOf(sql, owner.id, nextMonth()))} returning month::text`;
    return row.month;
  },
  newRow: async ({ sql, owner }) => lineOf(sql, owner.id, nextMonth()),
  identify: (row) => ['month', row.month],
  change: { amount_due: '0.0000' },
  allowed: { select: ownerAndStaff, insert: [], update: [], delete: [] },
});
