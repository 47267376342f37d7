// The operator's catalogue reads, in-process against the test database: GET /v3/games (filters,
// cursor pages that neither repeat nor skip, ETag and 304), GET /v3/games/{game_id}, GET
// /v3/providers, GET /v3/currencies; active rows only; bad parameters a 400 naming each; 401 first.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../helpers/db.ts';
import { newOperator, type Operator, sessionsHandler } from '../helpers/api.ts';

const sql = connect();
const { handle } = await sessionsHandler();
let alice: Operator;
const slug = `read-${randomUUID().slice(0, 8)}`;

beforeAll(async () => {
  alice = await newOperator(sql, 'alice');
  await sql`insert into public.game_provider (name, slug, sort_order) values ('Read Studio', ${slug}, 50)`;
  const games = Array.from({ length: 7 }, (_, i) => ({
    game_id: `${slug}:game-${i}`, name: `Game ${i}`, category: i % 2 ? 'slots' : 'crash', rtp: '96.5',
    currencies: i === 3 ? ['GBP'] : [], restricted_countries: i === 4 ? ['FR'] : [],
    status: i === 6 ? 'inactive' : 'active',
  }));
  await sql`select * from public.import_games(${sql.json(games)})`;
});

const get = (path: string, headers: Record<string, string> = {}, key: string | null = alice.key) =>
  handle(new Request(`http://api.test/v3${path}`, { headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers } }));
const codes = (body: { data: { code: string }[] }) => body.data.map((g) => g.code);

describe('GET /v3/games', () => {
  it('lists the active games of a provider in code order, every field as documented, money-like RTP as a string', async () => {
    const response = await get(`/games?provider=${slug}`);
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(codes(body)).toEqual(['game-0', 'game-1', 'game-2', 'game-3', 'game-4', 'game-5']);
    expect(body).toMatchObject({ next_cursor: null, has_more: false });
    expect(body.data[0]).toEqual({
      game_id: `${slug}:game-0`, provider: slug, code: 'game-0', name: 'Game 0', category: 'crash', status: 'active', rtp: '96.50',
      volatility: null, features: [], platforms: ['desktop', 'mobile'], thumbnail_url: null, released_on: null,
      currencies: [], restricted_countries: [], jurisdictions: [], demo: true, updated_at: expect.any(String),
    });
  });

  it('shows and filters where each game is certified: its own list, else its provider\'s', async () => {
    const certified = `cert-${randomUUID().slice(0, 8)}`;
    await sql`insert into public.game_provider (name, slug, sort_order, jurisdictions) values ('Cert Studio', ${certified}, 51, '{MT,SE}')`;
    await sql`select * from public.import_games(${sql.json(['a', 'b'].map((c) => ({ game_id: `${certified}:${c}`, name: c, category: 'slots' })))})`;
    await sql`update public.game set jurisdictions = '{GB}' where code = 'b' and provider_id = (select id from public.game_provider where slug = ${certified})`;
    const list = async (query: string) => (await (await get(`/games?provider=${certified}${query}`)).json());
    expect((await list('')).data.map((g: { jurisdictions: string[] }) => g.jurisdictions)).toEqual([['MT', 'SE'], ['GB']]);
    expect(codes(await list('&jurisdiction=GB'))).toEqual(['b']);
    expect(codes(await list('&jurisdiction=SE'))).toEqual(['a']);
    // The provider's certification moves its games' listing with it.
    await sql`update public.game_provider set jurisdictions = '{SE,GB}' where slug = ${certified}`;
    expect(codes(await list('&jurisdiction=GB'))).toEqual(['a', 'b']);
    expect((await get(`/games?jurisdiction=gb`)).status).toBe(400);
  });

  it('pages by cursor: every game once, in order, whatever the page size', async () => {
    for (const limit of [1, 2, 5]) {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const body = await (await get(`/games?provider=${slug}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`)).json();
        expect(body.data.length).toBeLessThanOrEqual(limit);
        seen.push(...codes(body));
        cursor = body.next_cursor;
        expect(body.has_more).toBe(cursor !== null);
      } while (cursor);
      expect(seen).toEqual(['game-0', 'game-1', 'game-2', 'game-3', 'game-4', 'game-5']);
    }
  });

  it('filters by category, currency (an empty list plays in all), country and updated_since', async () => {
    const list = async (query: string) => codes(await (await get(`/games?provider=${slug}&${query}`)).json());
    expect(await list('category=slots')).toEqual(['game-1', 'game-3', 'game-5']);
    expect(await list('currency=EUR')).toEqual(['game-0', 'game-1', 'game-2', 'game-4', 'game-5']);
    expect(await list('currency=GBP')).toEqual(['game-0', 'game-1', 'game-2', 'game-3', 'game-4', 'game-5']);
    expect(await list('country=FR')).toEqual(['game-0', 'game-1', 'game-2', 'game-3', 'game-5']);
    expect(await list('updated_since=2999-01-01T00:00:00Z')).toEqual([]);
    // A sync hears of every change, the game made inactive included, with its status.
    const synced = await (await get(`/games?provider=${slug}&updated_since=2000-01-01T00:00:00%2B02:00`)).json();
    expect(codes(synced)).toEqual(['game-0', 'game-1', 'game-2', 'game-3', 'game-4', 'game-5', 'game-6']);
    expect(synced.data[6]).toMatchObject({ code: 'game-6', status: 'inactive' });
  });

  it('answers with an ETag, and 304 to a request that already has it', async () => {
    const first = await get(`/games?provider=${slug}`);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    const again = await get(`/games?provider=${slug}`, { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    // A 304 carries no representation headers (RFC 9110 15.4.5): no Content-Type for a body it lacks.
    expect([...again.headers.keys()].sort()).toEqual(['cache-control', 'etag']);
    expect(again.headers.get('etag')).toBe(etag);
    expect((await get(`/games?provider=${slug}&limit=2`, { 'if-none-match': etag })).status).toBe(200);
  });

  it('refuses bad parameters with 400 invalid_parameters naming each, after the key', async () => {
    const response = await get('/games?limit=0&category=poker&currency=eur&country=FRA&updated_since=yesterday&cursor=nope&colour=red&provider=A');
    expect(response.status).toBe(400);
    const problem = await response.json();
    expect(problem.code).toBe('invalid_parameters');
    expect(problem.errors.map((e: { parameter: string; code: string }) => `${e.parameter} ${e.code}`).sort()).toEqual([
      'category invalid_format', 'colour unknown_parameter', 'country invalid_format', 'currency invalid_format',
      'cursor invalid_cursor', 'limit invalid_format', 'provider invalid_format', 'updated_since invalid_format',
    ]);
    expect((await get('/games?limit=101')).status).toBe(400);
    expect((await get('/games?limit=2&limit=3')).status).toBe(400);
    // Without a working key, 401 whatever is wrong with the query.
    expect((await get('/games?limit=0', {}, null)).status).toBe(401);
    expect((await get('/games?limit=0', {}, `cgs_live_${'x'.repeat(43)}`)).status).toBe(401);
  });
});

describe('GET /v3/games/{game_id}', () => {
  it('reads an active game; an inactive, unknown or malformed one is 404', async () => {
    const found = await get(`/games/${slug}:game-2`);
    expect(found.status).toBe(200);
    expect(await found.json()).toMatchObject({ game_id: `${slug}:game-2`, name: 'Game 2' });
    for (const id of [`${slug}:game-6`, `${slug}:nope`, 'no-colon', 'UPPER:x']) {
      const response = await get(`/games/${id}`);
      expect(response.status, id).toBe(404);
      expect((await response.json()).code).toBe('not_found');
    }
    expect((await get(`/games/${slug}:game-2`, {}, null)).status).toBe(401);
  });
});

describe('GET /v3/providers and GET /v3/currencies', () => {
  it('list the active providers with their counts of active games, and the active currencies, in their order', async () => {
    const providers = await (await get('/providers')).json();
    expect(providers.data.find((p: { slug: string }) => p.slug === slug)).toEqual({
      slug, name: 'Read Studio', category: null, logo_url: null, games_count: 6,
    });
    expect(providers.data[0].slug).toBe('pragmatic-play');
    const currencies = await (await get('/currencies?limit=100')).json();
    expect(currencies.data[0]).toEqual({ code: 'USD', name: 'US Dollar', symbol: '$' });
    expect(currencies.data.length).toBeGreaterThanOrEqual(41);
  });

  it('page like every list', async () => {
    const first = await (await get('/currencies?limit=2')).json();
    expect(first.data.map((c: { code: string }) => c.code)).toEqual(['USD', 'EUR']);
    expect(first.has_more).toBe(true);
    const second = await (await get(`/currencies?limit=2&cursor=${first.next_cursor}`)).json();
    expect(second.data.map((c: { code: string }) => c.code)).toEqual(['GBP', 'BDT']);
    // A cursor naming nothing in the list is refused, not a silent start from the top.
    const stale = Buffer.from(JSON.stringify(['ZZZ'])).toString('base64url');
    const refused = await get(`/currencies?cursor=${stale}`);
    expect(refused.status).toBe(400);
    expect((await refused.json()).errors).toEqual([expect.objectContaining({ parameter: 'cursor', code: 'invalid_cursor' })]);
  });

  it('answer other methods with 405 and Allow: GET', async () => {
    const response = await handle(new Request('http://api.test/v3/providers', { method: 'POST', headers: { authorization: `Bearer ${alice.key}` } }));
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET');
  });
});

describe('a provider going out of service', () => {
  it('takes its games off the list, and a sync hears of each of them with the provider\'s status', async () => {
    const [{ now }] = await sql`select now() as now`;
    await sql`update public.game_provider set status = 'maintenance' where slug = ${slug}`;
    expect(codes(await (await get(`/games?provider=${slug}`)).json())).toEqual([]);
    const since = encodeURIComponent(new Date(now.getTime() - 1000).toISOString());
    const synced = await (await get(`/games?provider=${slug}&updated_since=${since}`)).json();
    expect(synced.data.map((g: { status: string }) => g.status)).toEqual(['maintenance', 'maintenance', 'maintenance', 'maintenance',
      'maintenance', 'maintenance', 'inactive']);
    expect((await get(`/games/${slug}:game-0`)).status).toBe(404);
  });
});
