import { describeAccessMatrix, everyone, staff, unusedCurrencyCode } from './matrix.ts';

// The currency list is public; staff manage it (spec 1, 5).
describeAccessMatrix({
  table: 'currency',
  key: 'code',
  async seed({ sql }) {
    const code = unusedCurrencyCode();
    await sql`insert into public.currency (code, name, symbol) values (${code}, 'Test currency', 'T')`;
    return code;
  },
  newRow: () => ({ code: unusedCurrencyCode(), name: 'New currency', symbol: 'N' }),
  change: { is_active: false },
  allowed: { select: everyone, insert: staff, update: staff, delete: staff },
});
