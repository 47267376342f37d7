// Importing a catalogue (public.import_games, and `npm run catalog -- import`): keyed by game_id,
// idempotent, reporting what changed, all or nothing, and for staff and the service only.
import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runScript } from '../helpers/command.ts';
import { as, type Cast, cast, connect, outcome } from '../helpers/db.ts';

const sql = connect();
let people: Cast;
let slug: string;

beforeAll(async () => {
  people = await cast(sql);
  slug = `import-${randomUUID().slice(0, 8)}`;
  await sql`insert into public.game_provider (name, slug) values ('Import Studio', ${slug})`;
});

const game = (code: string, fields: Record<string, unknown> = {}) =>
  ({ game_id: `${slug}:${code}`, name: `Game ${code}`, category: 'slots', ...fields });
const importAs = (who: Parameters<typeof as>[1], games: unknown) =>
  as(sql, who, (tx) => tx`select * from public.import_games(${tx.json(games as never)})`).then((rows) => rows[0]);
const catalogue = () => sql`
  select g.code, g.name, g.status, g.rtp, g.features, g.currencies from public.game g
  join public.game_provider gp on gp.id = g.provider_id where gp.slug = ${slug} order by g.code`;
const count = async () => (await sql`select games_count from public.game_provider where slug = ${slug}`)[0].games_count;

describe('import_games', () => {
  it('creates, then changes nothing on the same file, then updates only what changed', async () => {
    const file = [game('alpha', { rtp: '96.5', features: ['free_spins', 'bonus_buy'] }), game('beta', { currencies: ['EUR'] })];
    expect(await importAs(people.mona, file)).toEqual({ created: 2, updated: 0, unchanged: 0 });
    expect(await importAs(people.adam, file)).toEqual({ created: 0, updated: 0, unchanged: 2 });
    const before = await sql`select updated_at from public.game where code = 'alpha'`;
    expect(await importAs(people.mona, [file[0], { ...file[1], status: 'inactive' }, game('gamma')]))
      .toEqual({ created: 1, updated: 1, unchanged: 1 });
    expect(await catalogue()).toEqual([
      { code: 'alpha', name: 'Game alpha', status: 'active', rtp: '96.50', features: ['free_spins', 'bonus_buy'], currencies: [] },
      { code: 'beta', name: 'Game beta', status: 'inactive', rtp: null, features: [], currencies: ['EUR'] },
      { code: 'gamma', name: 'Game gamma', status: 'active', rtp: null, features: [], currencies: [] },
    ]);
    // An unchanged game is not written at all.
    expect(await sql`select updated_at from public.game where code = 'alpha'`).toEqual(before);
    expect(await count()).toBe(2);
  });

  it.each([
    ['not an array', { game_id: 'x' }, '22023'],
    ['a malformed game_id', [{ game_id: 'no-colon', name: 'X', category: 'slots' }], '22023'],
    ['a game_id twice', 'twice', '22023'],
    ['an unknown provider', [{ game_id: 'no-such-studio:x', name: 'X', category: 'slots' }], '23503'],
    ['a field the table refuses', 'bad-category', '23514'],
    ['a missing name', 'no-name', '23502'],
    ['a field the catalogue does not know (a misspelt one)', 'misspelt', '22023'],
    ['a null among the currencies', 'null-currency', '23514'],
  ])('refuses %s, writing nothing of the file', async (_, input, code) => {
    const games = input === 'twice' ? [game('dup-1'), game('dup-1')]
      : input === 'bad-category' ? [game('ok-1'), game('bad-1', { category: 'roulette-ish' })]
        : input === 'no-name' ? [game('ok-2'), { game_id: `${slug}:no-name`, category: 'slots' }]
          : input === 'misspelt' ? [game('ok-3', { restrictedCountries: ['US'] })]
            : input === 'null-currency' ? [game('ok-4', { currencies: ['EUR', null] })]
              : input;
    const before = await catalogue();
    expect(await outcome(() => importAs(people.mona, games))).toBe(code);
    expect(await catalogue()).toEqual(before);
  });

  it('is refused to clients (42501) and to anonymous callers (no execute)', async () => {
    expect(await outcome(() => importAs(people.alice, [game('by-client')]))).toBe('42501');
    expect(await outcome(() => importAs('anon', [game('by-anon')]))).toBe('42501');
    expect((await catalogue()).map((g) => g.code)).not.toContain('by-client');
  });
});

const catalog = (...args: string[]) => runScript('scripts/catalog.ts', ...args);

describe('npm run catalog -- import', () => {
  it('imports a file and reports what changed; again, nothing; a bad file exits 1 saying why', async () => {
    const file = join(tmpdir(), `cgs-catalog-${randomUUID()}.json`);
    await writeFile(file, JSON.stringify([game('cli-1'), game('cli-2', { status: 'maintenance' })]));
    expect(await catalog('import', file)).toEqual({ code: 0, out: `imported ${file}: 2 created, 0 updated, 0 unchanged\n` });
    expect(await catalog('import', file)).toEqual({ code: 0, out: `imported ${file}: 0 created, 0 updated, 2 unchanged\n` });
    await writeFile(file, JSON.stringify([game('cli-3', { game_id: 'nobody:cli-3' })]));
    const refused = await catalog('import', file);
    expect(refused.code).toBe(1);
    expect(refused.out).toMatch(/unknown providers: nobody/);
    expect((await catalog('import')).out).toMatch(/usage: npm run catalog -- import <file.json>/);
  }, 30_000);
});
