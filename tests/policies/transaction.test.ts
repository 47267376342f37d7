import { describeAccessMatrix, newId, ownerAndStaff, staff } from './matrix.ts';

// Clients read their own transactions and write none; staff do anything.
describeAccessMatrix({
  table: 'transaction',
  async seed({ sql, owner }) {
    const [row] = await sql`
      insert into public.transaction (client_id, type, currency_code, amount) values (${owner.id}, 'deposit', 'USD', 50)
      returning id`;
    return row.id;
  },
  newRow: ({ owner }) => ({ id: newId(), client_id: owner.id, type: 'deposit', currency_code: 'USD', amount: 10 }),
  change: { note: 'checked' },
  allowed: { select: ownerAndStaff, insert: staff, update: staff, delete: staff },
});
