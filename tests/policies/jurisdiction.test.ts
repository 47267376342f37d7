import { randomInt } from 'node:crypto';
import type { Sql } from 'postgres';
import { describeAccessMatrix, everyone, ownerAndStaff, staff } from './matrix.ts';

/**
 * A jurisdiction code none of the shipped ones uses: `ZZ-` and three letters or digits, counted from
 * a random start so that this file's codes never repeat (random draws from 46,656 met each other
 * across a full run's rows).
 */
let nextCode = randomInt(36 ** 3);
const unusedCode = () => `ZZ-${(nextCode++ % 36 ** 3).toString(36).toUpperCase().padStart(3, '0')}`;
const jurisdictionOf = (code: string) => ({ code, name: 'Test regime', regulator: 'Test regulator' });
/** A new jurisdiction; a code another file's test holds is passed over. */
async function newJurisdiction(sql: Sql): Promise<string> {
  for (;;) {
    const code = unusedCode();
    const made = await sql`insert into public.jurisdiction ${sql(jurisdictionOf(code))} on conflict (code) do nothing returning code`;
    if (made.length) return code;
  }
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

// Players' restrictions and their audit: written by the API and the engine alone (as the owner);
// clients read their own, staff all; nobody changes or removes an audit row.
describeAccessMatrix({
  table: 'player_restriction',
  key: 'player_id',
  async seed({ sql, owner }) {
    const player = `p-${randomInt(1e9)}`;
    await sql`insert into public.player_restriction (client_id, livemode, player_id) values (${owner.id}, true, ${player})`;
    return player;
  },
  newRow: ({ owner }) => ({ client_id: owner.id, livemode: true, player_id: `p-${randomInt(1e9)}` }),
  change: { session_time_limit_minutes: 30 },
  allowed: { select: ownerAndStaff, insert: [], update: [], delete: [] },
});

describeAccessMatrix({
  table: 'player_restriction_audit',
  async seed({ sql, owner }) {
    const [row] = await sql`
      insert into public.player_restriction_audit (client_id, livemode, player_id, action, detail)
      values (${owner.id}, true, 'p-1', 'bet_refused', '{}') returning id`;
    return row.id;
  },
  newRow: ({ owner }) => ({
    id: crypto.randomUUID(), client_id: owner.id, livemode: true, player_id: 'p-1', action: 'session_refused', detail: {},
  }),
  change: { detail: { forged: true } },
  allowed: { select: ownerAndStaff, insert: [], update: [], delete: [] },
});

// Test players: made by the sandbox endpoint alone (as the owner); clients read their own, staff all.
describeAccessMatrix({
  table: 'sandbox_player',
  key: 'player_id',
  async seed({ sql, owner }) {
    const player = `t-${randomInt(1e9)}`;
    await sql`insert into public.sandbox_player (client_id, player_id, currency_code, balance) values (${owner.id}, ${player}, 'EUR', 10)`;
    return player;
  },
  newRow: ({ owner }) => ({ client_id: owner.id, player_id: `t-${randomInt(1e9)}`, currency_code: 'EUR', balance: 5 }),
  change: { balance: 1_000_000 },
  allowed: { select: ownerAndStaff, insert: [], update: [], delete: [] },
});
