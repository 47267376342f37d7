import { randomInt } from 'node:crypto';
import type { Sql } from 'postgres';
import { describeAccessMatrix, everyone, ownerAndStaff, staff } from './matrix.ts';

/** A jurisdiction code none of the shipped ones uses: `ZZ-` and three letters or digits. */
const unusedCode = () => `ZZ-${randomInt(36 ** 3).toString(36).toUpperCase().padStart(3, '0')}`;
const jurisdictionOf = (code: string) => ({ code, name: 'Test regime', regulator: 'Test regulator' });
async function newJurisdiction(sql: Sql): Promise<string> {
  const code = unusedCode();
  await sql`insert into public.jurisdiction ${sql(jurisdictionOf(code))}`;
  return code;
}

// Every signed-in caller reads the jurisdictions (what a session must follow); staff manage them.
describeAccessMatrix({
  table: 'jurisdiction',
  key: 'code',
  seed: ({ sql }) => newJurisdiction(sql),
  newRow: () => jurisdictionOf(unusedCode()),
  change: { kyc_required: false },
  allowed: { select: everyone.filter((who) => who !== 'anon'), insert: staff, update: staff, delete: staff },
});

// Clients read the licences they hold; staff grant and withdraw them.
describeAccessMatrix({
  table: 'client_jurisdiction',
  key: 'jurisdiction_code',
  async seed({ sql, owner }) {
    const code = await newJurisdiction(sql);
    await sql`insert into public.client_jurisdiction (client_id, jurisdiction_code) values (${owner.id}, ${code})`;
    return code;
  },
  newRow: async ({ sql, owner }) => ({ client_id: owner.id, jurisdiction_code: await newJurisdiction(sql) }),
  change: { created_at: new Date('2030-01-01T00:00:00Z') },
  allowed: { select: ownerAndStaff, insert: staff, update: staff, delete: staff },
});
