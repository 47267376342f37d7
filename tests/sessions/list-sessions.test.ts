// GET /v3/sessions: the caller's sessions newest first (never another client's), filtered by player
// and status (expired as the API shows it), paged by cursor without repeats or gaps.
import { beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../helpers/db.ts';
import { newOperator, type Operator, sessionRequest, sessionsHandler, validBody } from '../helpers/api.ts';

const sql = connect();
const { handle } = await sessionsHandler();
let alice: Operator;
let eve: Operator;
const created: string[] = [];

beforeAll(async () => {
  [alice, eve] = await Promise.all([newOperator(sql, 'alice'), newOperator(sql, 'eve')]);
  for (const player of ['p1', 'p2', 'p1', 'p3', 'p1']) {
    const response = await handle(sessionRequest({ ...validBody, player_id: player }, { key: alice.key }));
    created.unshift((await response.json()).id);
  }
  await handle(sessionRequest(validBody, { key: eve.key }));
  // Minutes apart, so the order does not hang on two requests falling in one millisecond.
  for (const [i, id] of created.entries()) {
    await sql`update public.game_session set created_at = now() - ${`${i} minutes`}::interval where id = ${id}`;
  }
  // One closed and one whose launch window has passed.
  await sql`update public.game_session set status = 'closed' where id = ${created[4]}`;
  await sql`update public.game_session set created_at = now() - interval '2 hours', expires_at = now() - interval '1 hour'
            where id = ${created[3]}`;
});

const list = (query = '', who: Operator | null = alice) =>
  handle(new Request(`http://api.test/v3/sessions${query}`, { headers: who ? { authorization: `Bearer ${who.key}` } : {} }));
const ids = async (query = '') => ((await (await list(query)).json()).data as { id: string }[]).map((s) => s.id);

describe('GET /v3/sessions', () => {
  it('lists the caller\'s sessions newest first, with fresh launch URLs while they can be launched', async () => {
    const response = await list();
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.data.map((s: { id: string }) => s.id)).toEqual([created[0], created[1], created[2], created[4], created[3]]);
    expect(body.data[0]).toMatchObject({ status: 'created', launch_url: expect.stringContaining('token=') });
    expect(body.data.find((s: { id: string }) => s.id === created[3])).toMatchObject({ status: 'expired' });
    expect(body.data.find((s: { id: string }) => s.id === created[3]).launch_url).toBeUndefined();
    expect(await ids('?limit=100')).not.toContain((await (await list('', eve)).json()).data[0].id);
  });

  it('filters by player_id and by status, expired included', async () => {
    expect(await ids('?player_id=p1')).toEqual([created[0], created[2], created[4]]);
    expect(await ids('?status=closed')).toEqual([created[4]]);
    expect(await ids('?status=expired')).toEqual([created[3]]);
    expect(await ids('?status=created')).toEqual([created[0], created[1], created[2]]);
    expect(await ids('?status=active')).toEqual([]);
  });

  it('pages by cursor: each session once, in order', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const body = await (await list(`?limit=2${cursor ? `&cursor=${cursor}` : ''}`)).json();
      seen.push(...body.data.map((s: { id: string }) => s.id));
      cursor = body.next_cursor;
    } while (cursor);
    expect(seen).toEqual([created[0], created[1], created[2], created[4], created[3]]);
  });

  it('refuses bad filters with 400 after the key, and other methods with 405 (Allow: GET, POST)', async () => {
    const response = await list('?status=lost&cursor=abc');
    expect(response.status).toBe(400);
    expect((await response.json()).errors.map((e: { parameter: string }) => e.parameter).sort()).toEqual(['cursor', 'status']);
    // A cursor shaped like ours but holding a date the database would refuse, and a NUL in a filter.
    const forged = Buffer.from(JSON.stringify(['2026-02-30T00:00:00.000000Z', created[0]])).toString('base64url');
    for (const query of [`?cursor=${forged}`, '?player_id=p%001']) expect((await list(query)).status, query).toBe(400);
    expect((await list('?status=lost', null)).status).toBe(401);
    const put = await handle(new Request('http://api.test/v3/sessions', { method: 'PUT', headers: { authorization: `Bearer ${alice.key}` } }));
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, POST');
  });
});
