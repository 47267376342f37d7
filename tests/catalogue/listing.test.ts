// The operator API reads the catalogue from private.game_listing, each game's JSON stored when it
// changes: after any write to a game or its provider, the listing is exactly what
// private.catalogue_entry computes from the tables, row for row.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { as, type Cast, cast, connect, outcome } from '../helpers/db.ts';

const sql = connect();
let people: Cast;
let slug: string;
let providerId: string;

beforeAll(async () => {
  people = await cast(sql);
  slug = `listing-${randomUUID().slice(0, 8)}`;
  [{ id: providerId }] = await sql`insert into public.game_provider (name, slug) values ('Listing Studio', ${slug}) returning id`;
});

/** The provider's listing rows next to what the view computes now; equal when the listing is current. */
async function listingAndTruth() {
  const listing = await sql`
    select code, listed, category, currencies, restricted_countries, updated_at, provider_slug, game
    from private.game_listing where provider_id = ${providerId} order by code`;
  const truth = await sql`
    select code, status = 'active' and provider_status = 'active' as listed, category, currencies, restricted_countries,
           updated_at, provider_slug, game
    from private.catalogue_entry where provider_id = ${providerId} order by code`;
  return { listing, truth };
}

async function expectCurrent(count: number) {
  const { listing, truth } = await listingAndTruth();
  expect(listing).toEqual(truth);
  expect(listing).toHaveLength(count);
}

describe('private.game_listing', () => {
  it('follows inserts, updates, renames and deletes of games, one statement or many rows', async () => {
    await sql`insert into public.game (provider_id, code, name, category)
      select ${providerId}, 'g-' || n, 'Game ' || n, 'slots' from generate_series(1, 5) n`;
    await expectCurrent(5);
    await sql`update public.game set name = 'Renamed', rtp = 95.5, currencies = '{EUR}' where provider_id = ${providerId} and code = 'g-1'`;
    await sql`update public.game set code = 'g-1b' where provider_id = ${providerId} and code = 'g-1'`;
    await sql`update public.game set status = 'maintenance' where provider_id = ${providerId} and code = 'g-2'`;
    await sql`delete from public.game where provider_id = ${providerId} and code = 'g-3'`;
    await expectCurrent(4);
    const [row] = await sql`select game from private.game_listing where provider_id = ${providerId} and code = 'g-1b'`;
    expect(JSON.parse(row.game)).toMatchObject({ game_id: `${slug}:g-1b`, name: 'Renamed', rtp: '95.50', currencies: ['EUR'] });
  });

  it('follows its provider: a status change unlists every game, a new slug renames every game_id', async () => {
    await sql`update public.game_provider set status = 'maintenance' where id = ${providerId}`;
    await expectCurrent(4);
    expect((await sql`select count(*)::int as n from private.game_listing where provider_id = ${providerId} and listed`)[0].n).toBe(0);
    await sql`update public.game_provider set status = 'active' where id = ${providerId}`;
    slug = `${slug}-new`;
    await sql`update public.game_provider set slug = ${slug} where id = ${providerId}`;
    await expectCurrent(4);
    const ids = await sql`select game::json->>'game_id' as id from private.game_listing where provider_id = ${providerId} and listed`;
    expect(ids.map((r) => r.id).sort()).toEqual([`${slug}:g-1b`, `${slug}:g-4`, `${slug}:g-5`]);
  });

  it('follows staff writes, and is out of every API caller\'s reach', async () => {
    await as(sql, people.adam, (tx) => tx`update public.game set name = 'By staff' where provider_id = ${providerId} and code = 'g-4'`);
    await expectCurrent(4);
    for (const caller of [people.alice, people.adam, 'anon'] as const) {
      expect(await outcome(() => as(sql, caller, (tx) => tx`select * from private.game_listing`))).toBe('42501');
    }
  });
});
