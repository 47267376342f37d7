import { describeAccessMatrix, everyone, newId, staff, type World } from './matrix.ts';

// The catalogue is public like the provider list, but only its active games; staff manage it all.
async function provider(sql: World['sql']): Promise<string> {
  const id = newId();
  await sql`insert into public.game_provider (id, name, slug) values (${id}, 'Test Studio', ${`test-${id}`})`;
  return id;
}

describeAccessMatrix({
  table: 'game',
  rows: 'active games',
  async seed({ sql }) {
    const id = newId();
    await sql`insert into public.game (id, provider_id, code, name, category)
              values (${id}, ${await provider(sql)}, ${`game-${id}`}, 'Test Game', 'slots')`;
    return id;
  },
  async newRow({ sql }) {
    const id = newId();
    return { id, provider_id: await provider(sql), code: `new-${id}`, name: 'New Game', category: 'slots' };
  },
  change: { name: 'Renamed Game' },
  allowed: { select: everyone, insert: staff, update: staff, delete: staff },
});

// An inactive game is the staff's alone.
describeAccessMatrix({
  table: 'game',
  rows: 'inactive games',
  async seed({ sql }) {
    const id = newId();
    await sql`insert into public.game (id, provider_id, code, name, category, status)
              values (${id}, ${await provider(sql)}, ${`off-${id}`}, 'Retired Game', 'slots', 'inactive')`;
    return id;
  },
  async newRow({ sql }) {
    const id = newId();
    return { id, provider_id: await provider(sql), code: `new-${id}`, name: 'New Game', category: 'slots', status: 'inactive' };
  },
  change: { name: 'Renamed Game' },
  allowed: { select: staff, insert: staff, update: staff, delete: staff },
});
