import { describeAccessMatrix, newId, ownerAndStaff } from './matrix.ts';

// Clients read their own wallet mode; it changes only through PUT /v3/wallet-settings or the staff
// RPC (the secret is never in this table).
describeAccessMatrix({
  table: 'wallet_setting',
  key: 'client_id',
  async seed({ sql, owner }) {
    await sql`insert into public.wallet_setting (client_id, livemode) values (${owner.id}, true)`;
    return owner.id;
  },
  // Another client's first row, so the one found after a refused insert can only be the insert's.
  newRow: ({ other }) => ({ client_id: other.id, livemode: true, mode: 'seamless', url: `https://${newId()}.test/` }),
  change: { mode: 'seamless', url: 'https://evil.test/' },
  allowed: { select: ownerAndStaff, insert: [], update: [], delete: [] },
});
