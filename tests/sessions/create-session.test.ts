// POST /v3/sessions, one rule per test: every status the endpoint answers with, the problem+json
// shape of every error, and no write for any rejected request.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { freePort } from '../../scripts/lib/embedded-postgres.ts';
import { connectDatabase } from '../../supabase/functions/_shared/database.ts';
import { maxSessionTtlSeconds, sessionsConfigFromEnv } from '../../supabase/functions/v3/context.ts';
import { connect } from '../helpers/db.ts';
import {
  isolatedDatabase, newOperator, type Operator, revokedKey as revokedKeyOf, sessionRequest, sessionsHandler, SESSIONS_URL, validBody, writesBy,
} from '../helpers/api.ts';

const sql = connect();
let handle: (request: Request) => Promise<Response>;
let alice: Operator;

beforeAll(async () => {
  ({ handle } = await sessionsHandler());
  alice = await newOperator(sql, 'alice');
});

async function problemOf(response: Response) {
  expect(response.headers.get('content-type')).toBe('application/problem+json');
  const body = await response.json();
  expect(body).toMatchObject({ status: response.status, type: expect.stringContaining(body.code), title: expect.any(String) });
  expect(typeof body.detail).toBe('string');
  return body;
}

/** Sends `request` as alice and asserts it was rejected with `status` and wrote nothing. */
async function rejected(request: Request, status: number) {
  const before = await writesBy(sql, alice.account);
  const response = await handle(request);
  expect(response.status).toBe(status);
  expect(await writesBy(sql, alice.account)).toEqual(before);
  return { response, problem: await problemOf(response) };
}

describe('201 Created', () => {
  it('creates a session, answers with Location and the session, and records who asked for what', async () => {
    const response = await handle(sessionRequest(validBody, { key: alice.key }));
    expect(response.status).toBe(201);
    const session = await response.json();
    // The path callers use through the gateway: hosted, the function itself sees /v3/sessions.
    expect(response.headers.get('location')).toBe(`/functions/v1/v3/sessions/${session.id}`);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(session).toMatchObject({ ...validBody, status: 'created', launch_url: expect.stringMatching(/\?token=ey/) });
    expect(Date.parse(session.expires_at) - Date.parse(session.created_at)).toBe(15 * 60 * 1000);

    const [row] = await sql`
      select s.client_id, s.api_key_id, s.player_id, p.slug, s.game, s.currency_code, s.status, s.created_at, s.expires_at
      from public.game_session s join public.game_provider p on p.id = s.provider_id where s.id = ${session.id}`;
    expect(row).toMatchObject({
      client_id: alice.account.id, api_key_id: alice.keyId, player_id: 'player-42', slug: 'pragmatic-play',
      game: 'vs20olympgate', currency_code: 'EUR', status: 'created',
    });
    expect(row.created_at.toISOString()).toBe(session.created_at);
    expect(row.expires_at.toISOString()).toBe(session.expires_at);
  });

  it('puts the token into the configured launch URL, keeping its own query and fragment', async () => {
    const base = 'https://games.example/start?lang=de&token=stale#play';
    const { handle: custom } = await sessionsHandler({ config: { launchBaseUrl: base } });
    const session = await (await custom(sessionRequest(validBody, { key: alice.key }))).json();
    const url = new URL(session.launch_url);
    expect(`${url.origin}${url.pathname}`).toBe('https://games.example/start');
    expect(url.hash).toBe('#play');
    expect(url.searchParams.get('lang')).toBe('de');
    expect(url.searchParams.getAll('token')).toEqual([expect.stringMatching(/^ey[\w-]+\.[\w-]+\.[\w-]+$/)]);
  });

  it.each(['play.example/launch', 'javascript:alert(1)', 'data:text/html,<p>hi'])(
    'refuses the launch base URL %j when the handler is created, not on every request',
    async (launchBaseUrl) => {
      await expect(sessionsHandler({ config: { launchBaseUrl } }))
        .rejects.toThrow(`LAUNCH_BASE_URL must be an absolute http(s) URL, not "${launchBaseUrl}"`);
    },
  );

  it('routes on the path alone: a query string is ignored, a trailing slash allowed, anything longer is 404', async () => {
    for (const url of [`${SESSIONS_URL}?utm=x`, `${SESSIONS_URL}/`]) {
      expect((await handle(sessionRequest({ ...validBody, player_id: `p-${url.length}` }, { key: alice.key, url }))).status).toBe(201);
    }
    await rejected(sessionRequest(validBody, { key: alice.key, url: `${SESSIONS_URL}/x/y` }), 404);
    await rejected(sessionRequest(validBody, { key: alice.key, url: 'http://api.test/v3/sessionsx' }), 404);
  });

  it('answers on the gateway path /functions/v1/v3/sessions too, with the same Location', async () => {
    const response = await handle(sessionRequest(validBody, { key: alice.key, url: 'http://api.test/functions/v1/v3/sessions' }));
    expect(response.status).toBe(201);
    expect(response.headers.get('location')).toMatch(/^\/functions\/v1\/v3\/sessions\/[0-9a-f-]{36}$/);
  });

  it('accepts player ids up to 128 characters, counted as characters, not bytes', async () => {
    const response = await handle(sessionRequest({ ...validBody, player_id: 'ü'.repeat(128) }, { key: alice.key }));
    expect(response.status).toBe(201);
  });

  it('marks the key as used', async () => {
    const [key] = await sql`select last_used_at from public.api_key where id = ${alice.keyId}`;
    expect(key.last_used_at).toBeInstanceOf(Date);
  });
});

describe('400 Bad Request', () => {
  it('rejects malformed JSON as malformed_json', async () => {
    const { problem } = await rejected(sessionRequest('{"player_id": ', { key: alice.key }), 400);
    expect(problem.code).toBe('malformed_json');
  });

  it('rejects a body that is not UTF-8 as malformed_json', async () => {
    const request = new Request(SESSIONS_URL, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${alice.key}` },
      body: new Uint8Array([0x7b, 0xff, 0x7d]),
    });
    expect((await rejected(request, 400)).problem.code).toBe('malformed_json');
  });

  it('lists every failing field at once, with a JSON pointer and a code for each', async () => {
    const { problem } = await rejected(
      sessionRequest({ player_id: '', game_id: 'no-colon', currency: 'eur', extra: 1 }, { key: alice.key }),
      400,
    );
    expect(problem.code).toBe('validation_failed');
    expect(problem.errors).toEqual([
      expect.objectContaining({ pointer: '#/player_id', code: 'invalid_format' }),
      expect.objectContaining({ pointer: '#/game_id', code: 'invalid_format' }),
      expect.objectContaining({ pointer: '#/currency', code: 'invalid_format' }),
      expect.objectContaining({ pointer: '#/extra', code: 'unknown_field' }),
    ]);
  });

  it.each([
    ['missing fields', {}, ['required', 'required', 'required']],
    ['fields of the wrong type', { player_id: 7, game_id: null, currency: ['EUR'] }, ['invalid_type', 'invalid_type', 'invalid_type']],
    ['a player id over 128 characters', { ...validBody, player_id: 'p'.repeat(129) }, ['invalid_format']],
    ['a player id of spaces', { ...validBody, player_id: '   ' }, ['invalid_format']],
    ['a player id with a NUL character', { ...validBody, player_id: 'a\u0000b' }, ['invalid_format']],
    ['a player id with a lone surrogate', { ...validBody, player_id: 'a\ud800' }, ['invalid_format']],
    ['a game id without a game', { ...validBody, game_id: 'evolution:' }, ['invalid_format']],
    ['a game id with an upper-case provider', { ...validBody, game_id: 'Evolution:lightning' }, ['invalid_format']],
    ['a two-letter currency', { ...validBody, currency: 'EU' }, ['invalid_format']],
  ])('rejects %s', async (_name, body, codes) => {
    const { problem } = await rejected(sessionRequest(body, { key: alice.key }), 400);
    expect(problem.errors.map((e: { code: string }) => e.code)).toEqual(codes);
  });

  it.each([['an array', '[]'], ['a string', '"x"'], ['null', 'null']])('rejects a body that is %s', async (_name, body) => {
    const { problem } = await rejected(sessionRequest(body, { key: alice.key }), 400);
    expect(problem.errors).toEqual([expect.objectContaining({ pointer: '#', code: 'invalid_type' })]);
  });

  it('rejects an Idempotency-Key over 255 characters', async () => {
    const { problem } = await rejected(
      sessionRequest(validBody, { key: alice.key, headers: { 'idempotency-key': 'k'.repeat(256) } }),
      400,
    );
    expect(problem.code).toBe('invalid_idempotency_key');
  });
});

describe('401 Unauthorized', () => {
  it.each([
    ['no Authorization header', undefined, 'missing_api_key'],
    ['another scheme', 'Basic YWxpY2U6c2VjcmV0', 'missing_api_key'],
    ['a token that is not an API key', 'Bearer eyJhbGciOiJIUzI1NiJ9.e30.x', 'invalid_api_key'],
    ['an unknown key of the right shape', `Bearer cgs_live_${'A'.repeat(43)}`, 'invalid_api_key'],
  ])('refuses %s, with a Bearer challenge', async (_name, authorization, code) => {
    const { response, problem } = await rejected(
      sessionRequest(validBody, { headers: authorization ? { authorization } : {} }),
      401,
    );
    expect(problem.code).toBe(code);
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer realm="cgs"/);
  });
});

describe('401 before 400: a caller without a working key learns nothing about validation', () => {
  let revokedKey: string;
  beforeAll(async () => {
    revokedKey = await revokedKeyOf(sql, alice.account);
  });

  const invalidRequests = (key: string): [string, Request][] => [
    ['malformed JSON', sessionRequest('{"player_id": ', { key })],
    ['invalid fields', sessionRequest({ player_id: '', game_id: 'x', currency: 'eur' }, { key })],
    ['an invalid Idempotency-Key', sessionRequest(validBody, { key, headers: { 'idempotency-key': 'k'.repeat(256) } })],
    ['a body that is not JSON (415)', sessionRequest(validBody, { key, headers: { 'content-type': 'text/plain' } })],
    ['a body over 16 KiB (413)', sessionRequest({ ...validBody, player_id: 'x'.repeat(17 * 1024) }, { key })],
  ];

  it.each(['unknown', 'revoked'])('answers an %s key with 401 invalid_api_key, whatever is wrong with the request', async (which) => {
    const key = which === 'unknown' ? `cgs_live_${'Q'.repeat(43)}` : revokedKey;
    for (const [, request] of invalidRequests(key)) {
      const { response, problem } = await rejected(request, 401);
      expect(problem.code).toBe('invalid_api_key');
      expect(problem).not.toHaveProperty('errors');
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer realm="cgs"/);
    }
  });

  it('answers the same requests with a working key with their 400, 413 or 415', async () => {
    const statuses = await Promise.all(invalidRequests(alice.key).map(([, request]) => handle(request).then((r) => r.status)));
    expect(statuses).toEqual([400, 400, 400, 415, 413]);
  });

  it('costs one database round trip on success and on a rejection, none without a well-formed key', async () => {
    const db = connectDatabase(inject('databaseUrl'), { max: 1 });
    let calls = 0;
    const counted = ((...args: Parameters<typeof db>) => {
      calls += 1;
      return db(...args);
    }) as typeof db;
    const { handle: handleCounted } = await sessionsHandler({ sql: counted });
    const callsFor = async (request: Request, status: number) => {
      calls = 0;
      expect((await handleCounted(request)).status).toBe(status);
      return calls;
    };
    try {
      expect(await callsFor(sessionRequest(validBody, { key: alice.key }), 201)).toBe(1);
      expect(await callsFor(sessionRequest({}, { key: alice.key }), 400)).toBe(1);
      expect(await callsFor(sessionRequest({}, { key: revokedKey }), 401)).toBe(1);
      expect(await callsFor(sessionRequest({}, {}), 401)).toBe(0);
      expect(await callsFor(sessionRequest({}, { key: 'not-a-key' }), 401)).toBe(0);
    } finally {
      await db.end();
    }
  });
});

describe('404, 405', () => {
  it('answers 404 for paths outside the API', async () => {
    const response = await handle(new Request('http://api.test/v3/nothing-here'));
    expect(response.status).toBe(404);
    expect((await problemOf(response)).code).toBe('not_found');
  });

  it.each([
    ['http://127.0.0.1:8000/functions/v1/v3/v3/sessions', 'This path has /v3 twice.'],
    ['http://127.0.0.1:8000/v3/v3/games', 'This path has /v3 twice.'],
    ['http://127.0.0.1:8000/functions/v1/sessions', 'No such resource: this path does not start with /v3.'],
  ])('answers %s (a base URL got wrong) 404 not_found naming the base URL to use', async (url, start) => {
    const response = await handle(new Request(url, { headers: { authorization: 'Bearer whatever' } }));
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(await problemOf(response)).toMatchObject({
      code: 'not_found', retryable: false,
      detail: `${start} The base URL is http://127.0.0.1:8000/functions/v1 and every path starts with /v3, as in `
        + 'http://127.0.0.1:8000/functions/v1/v3/sessions.',
    });
  });

  it.each(['PUT', 'DELETE', 'PATCH'])('answers %s /v3/sessions with 405 and Allow: GET, POST', async (method) => {
    const { response, problem } = await rejected(new Request(SESSIONS_URL, { method }), 405);
    expect(response.headers.get('allow')).toBe('GET, POST');
    expect(problem.code).toBe('method_not_allowed');
  });
});

describe('413 Content Too Large', () => {
  const big = { ...validBody, player_id: 'x'.repeat(17 * 1024) };

  it('refuses a body over 16 KiB from its Content-Length', async () => {
    const request = sessionRequest(big, { key: alice.key, headers: { 'content-length': String(17 * 1024 + 80) } });
    expect((await rejected(request, 413)).problem.code).toBe('payload_too_large');
  });

  it('refuses a body over 16 KiB that declares less, once read', async () => {
    const request = sessionRequest(big, { key: alice.key, headers: { 'content-length': '80' } });
    expect(request.headers.get('content-length')).toBe('80');
    expect((await rejected(request, 413)).problem.code).toBe('payload_too_large');
  });

  it('refuses a streamed body over 16 KiB that declares no length, while reading it', async () => {
    const chunk = new TextEncoder().encode('x'.repeat(1024));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent += 1;
        controller.enqueue(chunk); // endless: only a limit enforced while reading ends this
      },
    });
    const request = new Request(SESSIONS_URL, {
      method: 'POST', body, duplex: 'half',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${alice.key}` },
    } as RequestInit);
    expect((await rejected(request, 413)).problem.code).toBe('payload_too_large');
    expect(sent).toBeLessThan(40);
  });
});

describe('415 Unsupported Media Type', () => {
  it.each([
    ['no Content-Type', undefined],
    ['text/plain', 'text/plain'],
    ['form data', 'application/x-www-form-urlencoded'],
    ['JSON in another charset', 'application/json; charset=latin1'],
  ])('refuses %s', async (_name, contentType) => {
    const request = new Request(SESSIONS_URL, {
      method: 'POST',
      headers: { authorization: `Bearer ${alice.key}`, ...(contentType ? { 'content-type': contentType } : {}) },
      body: new Blob([JSON.stringify(validBody)]),
    });
    const { response, problem } = await rejected(request, 415);
    expect(problem.code).toBe('unsupported_media_type');
    expect(response.headers.get('accept-post')).toBe('application/json');
  });

  it('accepts application/json with charset=utf-8', async () => {
    const response = await handle(sessionRequest(validBody, { key: alice.key, headers: { 'content-type': 'Application/JSON; charset=UTF-8' } }));
    expect(response.status).toBe(201);
  });
});

describe('422 Unprocessable Content', () => {
  it('names both an unknown provider and an unknown currency', async () => {
    const { problem } = await rejected(
      sessionRequest({ ...validBody, game_id: 'no-such-studio:game', currency: 'XXX' }, { key: alice.key }),
      422,
    );
    expect(problem.code).toBe('reference_unavailable');
    expect(problem.retryable).toBe(false);
    expect(problem.errors).toEqual([
      expect.objectContaining({ pointer: '#/game_id', code: 'unknown_provider' }),
      expect.objectContaining({ pointer: '#/currency', code: 'unknown_currency' }),
    ]);
  });

  describe('the game must be in the catalogue, active, in the currency and allowed in the country', () => {
    const code = `catalogue-${randomUUID().slice(0, 8)}`;
    beforeAll(async () => {
      await sql`select * from public.import_games(${sql.json([
        { game_id: `spribe:${code}-on`, name: 'Test On', category: 'crash', currencies: ['EUR', 'USD'], restricted_countries: ['US', 'FR'] },
        { game_id: `spribe:${code}-off`, name: 'Test Off', category: 'crash', status: 'maintenance' },
      ])})`;
    });
    const sessionsOf = async () => Number((await sql`select count(*) from public.game_session where client_id = ${alice.account.id}`)[0].count);

    it.each([
      ['a game the provider does not have', { game_id: 'spribe:no-such-game' }, [['#/game_id', 'unknown_game']]],
      ['a game in maintenance', { game_id: `spribe:${code}-off` }, [['#/game_id', 'game_unavailable']]],
      ['a currency the game does not play in', { game_id: `spribe:${code}-on`, currency: 'GBP' }, [['#/currency', 'currency_not_supported']]],
      ['a country the game is restricted in', { game_id: `spribe:${code}-on`, country: 'FR' }, [['#/country', 'country_restricted']]],
      ['both at once', { game_id: `spribe:${code}-on`, currency: 'GBP', country: 'US' },
        [['#/currency', 'currency_not_supported'], ['#/country', 'country_restricted']]],
    ])('refuses %s with 422 naming the field, writing nothing', async (_, change, expected) => {
      const before = await sessionsOf();
      const { problem } = await rejected(sessionRequest({ ...validBody, ...change }, { key: alice.key }), 422);
      expect(problem.code).toBe('reference_unavailable');
      expect(problem.errors.map((e: { pointer: string; code: string }) => [e.pointer, e.code])).toEqual(expected);
      expect(await sessionsOf()).toBe(before);
    });

    it('launches the game in a currency it plays in, from a country it allows, and records the country', async () => {
      const response = await handle(sessionRequest({ ...validBody, game_id: `spribe:${code}-on`, currency: 'USD', country: 'MT' }, { key: alice.key }));
      expect(response.status).toBe(201);
      const { id } = await response.json();
      const [row] = await sql`select country, currency_code from public.game_session where id = ${id}`;
      expect(row).toEqual({ country: 'MT', currency_code: 'USD' });
    });

    it('refuses a malformed country with 400 before looking anything up', async () => {
      const { problem } = await rejected(sessionRequest({ ...validBody, country: 'mt' }, { key: alice.key }), 400);
      expect(problem.errors).toEqual([expect.objectContaining({ pointer: '#/country', code: 'invalid_format' })]);
    });
  });
});

describe('500 and 503', () => {
  it('answers 503 with Retry-After when the database is unreachable, and says nothing about it', async () => {
    const port = await freePort();
    const down = connectDatabase(`postgresql://postgres:postgres@127.0.0.1:${port}/postgres`, { connectTimeoutSeconds: 1 });
    const logged: string[] = [];
    const { handle: handleDown } = await sessionsHandler({ sql: down, logError: (message) => logged.push(message) });
    const response = await handleDown(sessionRequest(validBody, { key: alice.key }));
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBeTruthy();
    const problem = await problemOf(response);
    expect(problem.code).toBe('service_unavailable');
    expect(problem.retryable).toBe(true);
    expect(JSON.stringify(problem)).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|postgres/i);
    expect(logged).toEqual(['database unavailable']);
    await down.end();
  });

  it('answers an unexpected database error with a bare 500, logs it, and writes nothing', async () => {
    const logged: unknown[] = [];
    // A zero launch window breaks game_session's own check: a real database error, not a mock.
    const { handle: handleBroken } = await sessionsHandler({
      config: { sessionTtlSeconds: 0 },
      logError: (_message, error) => logged.push(error),
    });
    const before = await writesBy(sql, alice.account);
    const response = await handleBroken(sessionRequest(validBody, { key: alice.key, headers: { 'idempotency-key': 'broken' } }));
    expect(response.status).toBe(500);
    const problem = await problemOf(response);
    expect(problem).toMatchObject({ code: 'internal_error', detail: 'Something went wrong on our side.' });
    expect(JSON.stringify(problem)).not.toMatch(/game_session|constraint|violat/i);
    expect(logged).toHaveLength(1);
    expect(await writesBy(sql, alice.account)).toEqual(before);
  });
});

describe('reference data', () => {
  it('tells 422 provider_unavailable and currency_unavailable apart from unknown ones', async () => {
    // Switching reference rows off would disturb other files' tests: this runs on its own database.
    const db = await isolatedDatabase('reference');
    const { handle: handleIsolated } = await sessionsHandler({ sql: db.endpoint });
    await db.owner`update public.game_provider set status = 'maintenance' where slug = 'evolution'`;
    await db.owner`update public.currency set is_active = false where code = 'BDT'`;
    const operator = await newOperator(db.owner, 'reference');
    const response = await handleIsolated(
      sessionRequest({ ...validBody, game_id: 'evolution:lightning-roulette', currency: 'BDT' }, { key: operator.key }),
    );
    expect(response.status).toBe(422);
    expect((await problemOf(response)).errors.map((e: { code: string }) => e.code)).toEqual([
      'provider_unavailable', 'currency_unavailable',
    ]);
    expect(await writesBy(db.owner, operator.account)).toEqual({ sessions: 0, idempotencyKeys: 0 });
  });
});

describe('settings from the environment', () => {
  const from = (values: Record<string, string>) => sessionsConfigFromEnv((name) => values[name]);

  it('defaults to a 15-minute launch window and the example launch page', () => {
    expect(from({})).toEqual({
      launchBaseUrl: 'https://play.cgs.example/launch', demoGameUrl: 'https://demo.cgs.example/', sessionTtlSeconds: 900,
      allowPrivateUrls: false, walletTimeoutMs: 3000,
    });
  });

  it('reads LAUNCH_BASE_URL, DEMO_GAME_URL, SESSION_TTL_SECONDS, ALLOW_PRIVATE_URLS and WALLET_TIMEOUT_MS', () => {
    expect(from({
      LAUNCH_BASE_URL: 'https://games.example/start?lang=de', DEMO_GAME_URL: 'https://demo.example/play/', SESSION_TTL_SECONDS: '120',
      ALLOW_PRIVATE_URLS: 'true', WALLET_TIMEOUT_MS: '1500',
    })).toEqual({
      launchBaseUrl: 'https://games.example/start?lang=de', demoGameUrl: 'https://demo.example/play/', sessionTtlSeconds: 120,
      allowPrivateUrls: true, walletTimeoutMs: 1500,
    });
    expect(() => from({ WALLET_TIMEOUT_MS: '10001' })).toThrow('WALLET_TIMEOUT_MS must be a positive integer up to 10000');
  });

  it.each(['0', '-60', '90.5', 'fifteen', ' ', '0x3c', '1e3', String(maxSessionTtlSeconds + 1)])(
    'refuses to start with SESSION_TTL_SECONDS=%j rather than fail every request',
    (value) => {
      expect(() => from({ SESSION_TTL_SECONDS: value })).toThrow('SESSION_TTL_SECONDS must be a positive integer up to 86400');
    },
  );

  it('serves sessions at the longest launch window it accepts', async () => {
    const { handle: longest } = await sessionsHandler({ config: from({ SESSION_TTL_SECONDS: String(maxSessionTtlSeconds) }) });
    const response = await longest(sessionRequest({ ...validBody, player_id: 'player-longest-window' }, { key: alice.key }));
    expect(response.status).toBe(201);
    const session = await response.json();
    expect(Date.parse(session.expires_at) - Date.parse(session.created_at)).toBe(maxSessionTtlSeconds * 1000);
  });
});
