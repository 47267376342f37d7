// GET /v3/sessions/{id}: where a 201's Location points. The operator's own sessions only (another
// client's is as unknown as a made-up id), a freshly signed launch URL while the session can be
// launched, `expired` without one after its launch window.
import { createLocalJWKSet, jwtVerify } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../helpers/db.ts';
import { ISSUER, newOperator, type Operator, revokedKey, sessionRequest, sessionsHandler, validBody } from '../helpers/api.ts';

const sql = connect();
const createdAt = new Date('2026-11-21T10:00:00.000Z');
let now = createdAt;
let handle: (request: Request) => Promise<Response>;
let alice: Operator;
let eve: Operator;
let created: { id: string; location: string; body: Record<string, unknown> };

const get = (location: string, key: string | undefined, init: RequestInit = {}) =>
  handle(new Request(new URL(location, 'http://api.test'), {
    ...init, headers: key ? { authorization: `Bearer ${key}` } : {},
  }));

beforeAll(async () => {
  ({ handle } = await sessionsHandler({ clock: () => now, config: { sessionTtlSeconds: 300 } }));
  [alice, eve] = await Promise.all([newOperator(sql, 'alice'), newOperator(sql, 'eve')]);
  now = createdAt;
  const response = await handle(sessionRequest(validBody, { key: alice.key }));
  expect(response.status).toBe(201);
  const body = await response.json();
  created = { id: body.id, location: response.headers.get('location')!, body };
});

describe('GET /v3/sessions/{id}', () => {
  it('returns the session the Location of its 201 points to, with the same fields', async () => {
    now = new Date(createdAt.getTime() + 60_000);
    const response = await get(created.location, alice.key);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('cache-control')).toBe('no-store');
    const session = await response.json();
    const { launch_url: _first, ...rest } = created.body;
    expect(session).toEqual({ ...rest, launch_url: expect.stringMatching(/^https:\/\/play\.cgs\.example\/launch\?token=ey/) });
  });

  it('answers on the hosted path /functions/v1/v3/sessions/{id} too', async () => {
    const response = await get(`/functions/v1/v3/sessions/${created.id}`, alice.key);
    expect(response.status).toBe(200);
  });

  it('signs a fresh launch token, issued now and dying with the launch window', async () => {
    now = new Date(createdAt.getTime() + 120_000);
    const session = await (await get(created.location, alice.key)).json();
    const jwks = createLocalJWKSet(await (await handle(new Request('http://api.test/v3/.well-known/jwks.json'))).json());
    const token = new URL(session.launch_url).searchParams.get('token')!;
    const { payload } = await jwtVerify(token, jwks, {
      issuer: ISSUER, audience: 'pragmatic-play', algorithms: ['EdDSA'], currentDate: now,
    });
    expect(payload).toMatchObject({
      jti: created.id, sub: validBody.player_id, game_id: validBody.game_id, currency: 'EUR',
      iat: now.getTime() / 1000, exp: Date.parse(session.expires_at) / 1000,
    });
  });

  it('reports a session past its launch window as expired, without a launch URL', async () => {
    now = new Date(createdAt.getTime() + 300_000);
    const session = await (await get(created.location, alice.key)).json();
    expect(session.status).toBe('expired');
    expect(session).not.toHaveProperty('launch_url');
    now = createdAt;
  });

  it('reports a launched or closed session as it is stored, without a launch URL', async () => {
    const response = await handle(sessionRequest(validBody, { key: alice.key }));
    const { id } = await response.json();
    for (const status of ['active', 'closed']) {
      await sql`update public.game_session set status = ${status} where id = ${id}`;
      const session = await (await get(`/v3/sessions/${id}`, alice.key)).json();
      expect(session.status).toBe(status);
      expect(session).not.toHaveProperty('launch_url');
    }
  });

  it('accepts the id in upper case', async () => {
    expect((await get(`/v3/sessions/${created.id.toUpperCase()}`, alice.key)).status).toBe(200);
  });

  it('answers another client\'s session exactly as an unknown one: 404, same body', async () => {
    const theirs = await get(created.location, eve.key);
    const unknown = await get('/v3/sessions/00000000-0000-4000-8000-000000000000', alice.key);
    expect([theirs.status, unknown.status]).toEqual([404, 404]);
    expect(theirs.headers.get('content-type')).toBe('application/problem+json');
    expect(await theirs.text()).toBe(await unknown.text());
  });

  it.each(['not-a-uuid', '1', '00000000-0000-4000-8000-00000000000g', `${'a'.repeat(300)}`, '%00', "'%20or%201=1--"])(
    'refuses the malformed id %s with 400 invalid_session_id',
    async (id) => {
      const response = await get(`/v3/sessions/${id}`, alice.key);
      expect(response.status).toBe(400);
      expect((await response.json()).code).toBe('invalid_session_id');
    },
  );

  it('authenticates before anything else: no key 401 missing_api_key; an unknown or revoked key 401, malformed id or not', async () => {
    const revoked = await revokedKey(sql, alice.account);
    const unknownKey = `cgs_live_${'Z'.repeat(43)}`;
    expect((await (await get(created.location, undefined)).json()).code).toBe('missing_api_key');
    for (const key of [unknownKey, revoked]) {
      for (const location of [created.location, '/v3/sessions/not-a-uuid']) {
        const response = await get(location, key);
        expect(response.status).toBe(401);
        expect((await response.json()).code).toBe('invalid_api_key');
        expect(response.headers.get('www-authenticate')).toMatch(/^Bearer realm="cgs"/);
      }
    }
  });

  it.each(['POST', 'PUT', 'PATCH', 'DELETE'])('answers %s with 405 and Allow: GET', async (method) => {
    const response = await get(created.location, alice.key, { method });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET');
  });

  it('keeps paths below a session 404', async () => {
    const response = await get(`${created.location}/events`, alice.key);
    expect(response.status).toBe(404);
    expect((await response.json()).code).toBe('not_found');
  });
});
