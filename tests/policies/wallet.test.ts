import { describeAccessMatrix, newId, ownerAndStaff, staff } from './matrix.ts';

// Clients read their own wallets and cannot write them, not even their own; staff do anything.
describeAccessMatrix({
  table: 'wallet',
  async seed({ sql, owner }) {
    const [row] = await sql`insert into public.wallet (client_id, currency_code, balance) values (${owner.id}, 'USD', 100) returning id`;
    return row.id;
  },
  newRow: ({ owner }) => ({ id: newId(), client_id: owner.id, currency_code: 'EUR' }),
  change: { is_primary: true },
  allowed: { select: ownerAndStaff, insert: staff, update: staff, delete: staff },
});
