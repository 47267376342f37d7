import { randomUUID } from 'node:crypto';
import type { Sql } from 'postgres';
import { describeAccessMatrix, newId, ownerAndStaff } from './matrix.ts';

/** A test player of the client's in a currency, which makes its test float (and an opening line). */
async function testPlayer(sql: Sql, clientId: string, currency: string): Promise<void> {
  await sql`insert into public.sandbox_player (client_id, player_id, currency_code, balance) values (${clientId}, ${`t-${randomUUID()}`}, ${currency}, 10)`;
}

// The test float and the test ledger, as the float and the ledger (wallet.test.ts, transaction.test.ts)
// but written by the engine and the sandbox endpoints alone (as the owner): no caller writes them,
// not even staff; clients read their own, staff all.
describeAccessMatrix({
  table: 'sandbox_wallet',
  key: 'client_id',
  async seed({ sql, owner }) {
    await testPlayer(sql, owner.id, 'EUR');
    return owner.id;
  },
  // Of the shared other client, who has no test float: the seeded row would answer for the owner's.
  newRow: ({ other }) => ({ client_id: other.id, currency_code: 'USD', balance: 5 }),
  change: { balance: 1_000_000 },
  allowed: { select: ownerAndStaff, insert: [], update: [], delete: [] },
});

describeAccessMatrix({
  table: 'sandbox_transaction',
  async seed({ sql, owner }) {
    await testPlayer(sql, owner.id, 'EUR');
    const [line] = await sql`select id from public.sandbox_transaction where client_id = ${owner.id}`;
    return line.id;
  },
  newRow: async ({ sql, owner }) => {
    await testPlayer(sql, owner.id, 'USD');
    return { id: newId(), client_id: owner.id, type: 'deposit', currency_code: 'USD', amount: 10, balance_after: 20 };
  },
  change: { note: 'forged' },
  allowed: { select: ownerAndStaff, insert: [], update: [], delete: [] },
});
