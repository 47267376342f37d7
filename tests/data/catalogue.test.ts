// The game catalogue's own rules: a game is <provider>:<code> once, its fields are bounded, and a
// provider's games_count is its number of active games whatever is written, kept by the database.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { connect, outcome } from '../helpers/db.ts';

const sql = connect();

async function newProvider(): Promise<string> {
  const id = randomUUID();
  await sql`insert into public.game_provider (id, name, slug) values (${id}, 'Count Studio', ${`count-${id}`})`;
  return id;
}
const countOf = async (provider: string) =>
  (await sql`select games_count from public.game_provider where id = ${provider}`)[0].games_count;

describe('game_provider.games_count', () => {
  it('counts the active games through inserts, status changes, moves and deletes, however many at once', async () => {
    const [a, b] = [await newProvider(), await newProvider()];
    await sql`insert into public.game (provider_id, code, name, category, status)
              select ${a}, 'g' || n, 'Game ' || n, 'slots', case when n % 4 = 0 then 'inactive' else 'active' end
              from generate_series(1, 40) n`;
    expect(await countOf(a)).toBe(30);
    await sql`update public.game set status = 'maintenance' where provider_id = ${a} and code in ('g1', 'g2')`;
    expect(await countOf(a)).toBe(28);
    await sql`update public.game set provider_id = ${b} where provider_id = ${a} and code in ('g3', 'g5', 'g8')`;
    expect([await countOf(a), await countOf(b)]).toEqual([26, 2]);
    await sql`delete from public.game where provider_id = ${a}`;
    expect([await countOf(a), await countOf(b)]).toEqual([0, 2]);
    await sql`delete from public.game where provider_id = ${b}`;
  });

  it('cannot be written by hand: a provider\'s row always says what its games say', async () => {
    const a = await newProvider();
    await sql`insert into public.game (provider_id, code, name, category) values (${a}, 'only', 'Only Game', 'slots')`;
    await sql`update public.game_provider set games_count = 999 where id = ${a}`;
    expect(await countOf(a)).toBe(1);
    await sql`delete from public.game where provider_id = ${a}`;
  });
});

describe('a game', () => {
  const insert = (provider: string, fields: Record<string, unknown>) =>
    outcome(() => sql`insert into public.game ${sql({ provider_id: provider, code: `c-${randomUUID()}`, name: 'A Game', category: 'slots', ...fields } as never)}`);

  it('is unique per provider and code, and a provider with games is not deleted', async () => {
    const a = await newProvider();
    expect(await insert(a, { code: 'twice' })).toBe('ok');
    expect(await insert(a, { code: 'twice' })).toBe('23505');
    expect(await outcome(() => sql`delete from public.game_provider where id = ${a}`)).toBe('23503');
    await sql`delete from public.game where provider_id = ${a}`;
  });

  it.each([
    ['a code outside the game_id alphabet', { code: 'has space' }],
    ['an empty name', { name: ' ' }],
    ['an unknown category', { category: 'roulette-ish' }],
    ['an unknown status', { status: 'paused' }],
    ['an RTP above 100', { rtp: '100.01' }],
    ['an unknown volatility', { volatility: 'extreme' }],
    ['an unknown feature', { features: ['free_spins', 'teleport'] }],
    ['no platform', { platforms: [] }],
    ['a thumbnail over plain http', { thumbnail_url: 'http://cdn.example/x.png' }],
    ['a lowercase currency', { currencies: ['eur'] }],
    ['a three-letter country', { restricted_countries: ['GBR'] }],
  ])('refuses %s (23514)', async (_, fields) => {
    const a = await newProvider();
    expect(await insert(a, fields)).toBe('23514');
    expect(await countOf(a)).toBe(0);
  });
});
