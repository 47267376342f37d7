import { describeAccessMatrix, newId, staff } from './matrix.ts';

// Settings are staff's alone (spec 5).
describeAccessMatrix({
  table: 'app_setting',
  key: 'key',
  async seed({ sql }) {
    const key = `test.${newId()}`;
    await sql`insert into public.app_setting (key, value) values (${key}, ${sql.json({ on: true })})`;
    return key;
  },
  newRow: () => ({ key: `new.${newId()}`, value: { on: false } }),
  change: { updated_at: new Date('2030-01-01T00:00:00Z') },
  allowed: { select: staff, insert: staff, update: staff, delete: staff },
});
