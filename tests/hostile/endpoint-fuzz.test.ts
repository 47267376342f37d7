// Hostile requests to the whole v3 endpoint: any method, any path (session ids included), huge,
// non-ASCII and numerous headers, abusive Idempotency-Keys. Never a 500, never a row for a refused
// request, never another client's session, and every error a clean problem+json: no SQL, no
// database text, no stack trace, never the key that was sent or its hash.
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { PROBLEM_TYPE_BASE } from '../../supabase/functions/v3/problem.ts';
import { connect } from '../helpers/db.ts';
import { cursorOf, newOperator, type Operator, revokedKey as revokedKeyOf, sessionRequest, sessionsHandler, validBody, writesBy } from '../helpers/api.ts';

const sql = connect();
let handle: (request: Request) => Promise<Response>;
let alice: Operator;
let aliceSession: string;
let eveSession: string;
let revokedKey: string;

beforeAll(async () => {
  ({ handle } = await sessionsHandler());
  const eve = await newOperator(sql, 'eve');
  alice = await newOperator(sql, 'alice');
  revokedKey = await revokedKeyOf(sql, alice.account);
  const sessionOf = async (operator: Operator) => (await (await handle(sessionRequest(validBody, { key: operator.key }))).json()).id;
  [aliceSession, eveSession] = await Promise.all([sessionOf(alice), sessionOf(eve)]);
});

const latin1 = (maxLength: number) =>
  fc.string({ unit: fc.integer({ min: 0x20, max: 0xff }).map((c) => String.fromCharCode(c)), maxLength });
const controls = fc.string({
  unit: fc.constantFrom(...[...Array(32).keys()].filter((c) => ![0, 10, 13].includes(c)), 0x7f).map((c) => String.fromCharCode(c)),
  minLength: 1, maxLength: 20,
});

const sessionId = fc.oneof(
  fc.constant('alice'), fc.constant('eve'), fc.uuid().map(String),
  fc.constant('ALICE'), fc.string({ maxLength: 60 }).map(encodeURIComponent),
  fc.string({ unit: 'binary', maxLength: 40 }).map(encodeURIComponent),
  fc.constantFrom('..', '%2e%2e', '%00', "'%20or%20'1'='1", 'a'.repeat(5_000), '%2F', '00000000-0000-0000-0000-000000000000%00'),
);
// Query strings for the lists: their parameters with hostile values (dates out of range, forged
// cursors, control characters), and anything at all.
const queryValue = fc.oneof(
  fc.constantFrom('0', '101', '-1', '1e2', '2026-02-30T00:00:00Z', '0000-01-01T00:00:00Z', '9999-12-31T23:59:59%2B14:00',
    '%00', 'EUR', 'eur', 'MT', 'slots', 'created', 'expired', cursorOf(['x']), cursorOf(['2026-13-01T00:00:00.000000Z', 'x']),
    cursorOf(['99999999999999999999']), cursorOf([{}]), 'not-base64!'),
  fc.string({ maxLength: 30 }).map(encodeURIComponent),
);
const parameter = fc.constantFrom('limit', 'cursor', 'provider', 'category', 'currency', 'country', 'updated_since', 'type',
  'created_after', 'created_before', 'player_id', 'status', 'x');
// Mostly one parameter, so a hostile value is not always turned away by another one beside it.
const query = fc.oneof(
  { arbitrary: fc.tuple(parameter, queryValue).map(([k, v]) => `${k}=${v}`), weight: 3 },
  fc.dictionary(parameter, queryValue, { maxKeys: 4 }).map((params) => Object.entries(params).map(([k, v]) => `${k}=${v}`).join('&')),
);
const lists = ['/v3/games', '/v3/providers', '/v3/currencies', '/v3/wallets', '/v3/transactions', '/v3/sessions'];
const path = fc.oneof(
  { arbitrary: fc.constantFrom('/v3/sessions', '/functions/v1/v3/sessions', '/v3/sessions/'), weight: 4 },
  { arbitrary: sessionId.map((id) => `/v3/sessions/${id}`), weight: 4 },
  { arbitrary: fc.tuple(fc.constantFrom(...lists), query).map(([list, q]) => `${list}?${q}`), weight: 4 },
  fc.tuple(fc.constantFrom('pragmatic-play:vs20olympgate', 'x', 'UPPER:x', '%00:x', 'a:%2F'), fc.constant('')).map(([id]) => `/v3/games/${id}`),
  fc.constantFrom('/v3/openapi.json', '/v3/.well-known/jwks.json', '/v3', '/', '/v3/sessions/x/y', '//v3//sessions', '/v3/../v3/sessions'),
  fc.array(fc.string({ maxLength: 12 }).map(encodeURIComponent), { maxLength: 6 }).map((parts) => `/${parts.join('/')}`),
);
const method = fc.oneof(
  { arbitrary: fc.constantFrom('POST', 'GET'), weight: 6 },
  fc.constantFrom('PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'),
  fc.stringMatching(/^[A-Za-z]{1,12}$/),
);
const authorization = fc.oneof(
  { arbitrary: fc.constantFrom('valid', 'revoked'), weight: 5 },
  fc.stringMatching(/^[A-Za-z0-9_-]{43}$/).map((r) => `Bearer cgs_live_${r}`),
  fc.integer({ min: 1_000, max: 100_000 }).map((n) => `Bearer ${'A'.repeat(n)}`),
  latin1(80).map((s) => `Bearer cgs_live_${s}`),
  latin1(80),
  fc.string({ maxLength: 40 }), // non-Latin-1: no HTTP client can send it (the request is skipped)
);
const idempotencyKey = fc.oneof(
  { arbitrary: fc.constantFrom(undefined, undefined, 'k1', 'k2'), weight: 6 },
  fc.constantFrom('', ' ', 'x'.repeat(10_240)), controls, latin1(300), fc.string({ maxLength: 300 }),
);
const manyHeaders = fc.oneof(
  { arbitrary: fc.constant({}), weight: 2 },
  fc.dictionary(fc.stringMatching(/^x-[a-z0-9-]{1,20}$/), latin1(100), { maxKeys: 150 }),
);
const body = fc.oneof(
  { arbitrary: fc.constant(JSON.stringify(validBody)), weight: 4 },
  fc.jsonValue().map((value) => JSON.stringify(value)),
  fc.string({ unit: 'binary', maxLength: 200 }),
);

interface Hostile {
  method: string;
  path: string;
  authorization: string | undefined;
  idempotencyKey: string | undefined;
  extra: Record<string, string>;
  contentType: string | undefined;
  body: string;
}

function build(input: Hostile): { request: Request; token: string | undefined } | null {
  const token = input.authorization === 'valid' ? alice.key : input.authorization === 'revoked' ? revokedKey : undefined;
  const headers: Record<string, string> = { ...input.extra };
  if (input.authorization !== undefined) headers.authorization = token ? `Bearer ${token}` : input.authorization;
  if (input.idempotencyKey !== undefined) headers['idempotency-key'] = input.idempotencyKey;
  if (input.contentType !== undefined) headers['content-type'] = input.contentType;
  const route = input.path.replace('/alice', `/${aliceSession}`).replace('/ALICE', `/${aliceSession.toUpperCase()}`)
    .replace('/eve', `/${eveSession}`);
  try {
    const request = new Request(`http://api.test${route}`, {
      method: input.method, headers, body: ['GET', 'HEAD'].includes(input.method.toUpperCase()) ? undefined : input.body,
    });
    return { request, token: token ?? /^Bearer +(\S+)/.exec(headers.authorization ?? '')?.[1] };
  } catch {
    return null; // not a request an HTTP client could send (non-Latin-1 header, forbidden method)
  }
}

const example: Hostile = {
  method: 'POST', path: '/v3/sessions', authorization: 'valid', idempotencyKey: undefined, extra: {},
  contentType: 'application/json', body: JSON.stringify(validBody),
};

const PROBLEM_KEYS = ['type', 'title', 'status', 'detail', 'code', 'retryable', 'errors'];
const LEAKS = /postgres|\bsql\b|relation|constraint|violat|syntax|\n\s+at |at .*\.(ts|js):\d+|node_modules|file:\/\//i;

describe('the v3 endpoint under hostile requests', () => {
  it('never answers 500, writes only for a 201, shows only the caller\'s own sessions, leaks nothing', async () => {
    const seen = new Set<number>();
    let sent = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          method, path, authorization: fc.option(authorization, { nil: undefined }), idempotencyKey,
          extra: manyHeaders,
          contentType: fc.oneof(
            { arbitrary: fc.constant('application/json'), weight: 6 },
            fc.constantFrom(undefined, 'text/plain', 'application/json; charset=utf-16'),
          ),
          body,
        }),
        async (input: Hostile) => {
          const built = build(input);
          if (built === null) return; // counted below: most inputs must make a request
          const { request, token } = built!;
          const before = await writesBy(sql, alice.account);
          const response = await handle(request);
          const text = await response.text();
          // HTTP answers HEAD with the headers GET would get and no body.
          const head = request.method === 'HEAD';
          if (head) expect(text).toBe('');
          seen.add(response.status);
          sent += 1;
          expect(response.status).toBeLessThan(500);

          const after = await writesBy(sql, alice.account);
          if (response.status === 201 && !response.headers.get('idempotent-replayed')) {
            expect(after.sessions).toBe(before.sessions + 1);
          } else {
            expect(after).toEqual(before);
          }
          if (response.status === 200 && /\/sessions\/[^/?]/.test(request.url) && !head) {
            expect(JSON.parse(text).id).toBe(aliceSession);
          }
          if (response.status >= 400) {
            expect(response.headers.get('content-type')).toBe('application/problem+json');
          }
          if (response.status >= 400 && !head) {
            const problem = JSON.parse(text);
            expect(PROBLEM_KEYS).toEqual(expect.arrayContaining(Object.keys(problem)));
            expect(problem).toMatchObject({ status: response.status, type: PROBLEM_TYPE_BASE + problem.code });
          }
          if (!request.url.endsWith('/openapi.json')) expect(text).not.toMatch(LEAKS);
          if (token && token.length >= 16) {
            const echoed = text + JSON.stringify([...response.headers]);
            expect(echoed).not.toContain(token);
            expect(echoed).not.toContain(createHash('sha256').update(token).digest('hex'));
          }
        },
      ),
      {
        numRuns: 250,
        // Rare under random draws, so always tried: reading one's own session, creating, 413, 415.
        examples: [
          [{ ...example, method: 'GET', path: '/v3/sessions/alice', body: '' }],
          [{ ...example, method: 'GET', path: '/v3/sessions/eve', body: '' }],
          [example],
          [{ ...example, body: JSON.stringify({ ...validBody, player_id: 'x'.repeat(20_000) }) }],
          [{ ...example, contentType: 'text/plain' }],
        ],
      },
    );
    expect(sent).toBeGreaterThan(150);
    // Worth something only if the property reached every kind of answer, the database's included.
    expect([...seen]).toEqual(expect.arrayContaining([200, 201, 400, 401, 404, 405, 413, 415]));
  });

  it('answers any query to a list with 200 or a 400 naming parameters, never a 500, for a working key', async () => {
    const seen = new Set<number>();
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...lists), query, async (list, q) => {
        const response = await handle(new Request(`http://api.test${list}?${q}`, { headers: { authorization: `Bearer ${alice.key}` } }));
        seen.add(response.status);
        expect(response.status, `${list}?${q}`).toBeLessThan(500);
        if (response.status === 400) expect((await response.json()).errors.every((e: { parameter?: string }) => e.parameter)).toBe(true);
      }),
      {
        numRuns: 300,
        // Random draws rarely put one hostile value alone on the endpoint that reads it: always tried.
        examples: [
          ...['created_after', 'created_before'].flatMap((k) => ['2026-02-30T00:00:00Z', '0000-01-01T00:00:00Z',
            '2026-01-01T00:00:00%2B16:00'].map((v) => ['/v3/transactions', `${k}=${v}`] as [string, string])),
          ['/v3/games', 'updated_since=0000-01-01T00:00:00Z'],
          ['/v3/transactions', `cursor=${cursorOf(['99999999999999999999'])}`],
          ['/v3/sessions', `cursor=${cursorOf(['0000-01-01T00:00:00.000000Z', '00000000-0000-0000-0000-000000000000'])}`],
          ['/v3/sessions', 'player_id=%00'],
          ['/v3/games', `cursor=${cursorOf(['00000000-0000-0000-0000-000000000000', 'x'])}`],
        ],
      },
    );
    expect([...seen].sort()).toEqual([200, 400]);
  });
});
