// Every status the document lists that can be provoked, provoked over HTTP from the function under
// Deno against the test database, each response checked against the document: status, headers, body.
// Not provoked: 500 (needs a bug).
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { newOperator, validBody } from '../helpers/api.ts';
import { expectResponseMatches, type OperationId, responseProblems } from './contract.ts';
import { serveApiForFile, serveWithoutDatabase, whileKeyInFlight } from './served-api.ts';

const api = serveApiForFile('contract');

interface Sent {
  method?: string;
  path?: string;
  key?: string | null;
  headers?: Record<string, string>;
  body?: string;
}

/** A request to the served function (POST /v3/sessions with a valid body and key by default), read whole. */
async function send({ method = 'POST', path = '/v3/sessions', key, headers = {}, body }: Sent = {}, base = api.url) {
  const apiKey = key === undefined ? api.operator.key : key;
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(method === 'POST' ? { 'content-type': 'application/json' } : {}),
      ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
      ...headers,
    },
    body: method === 'POST' ? (body ?? JSON.stringify(validBody)) : undefined,
  });
  const text = await response.text();
  const type = response.headers.get('content-type') ?? '';
  return { response, body: text && /json/.test(type) ? JSON.parse(text) : text };
}

async function expectDocumented(operation: OperationId, status: number, code: string | null, request: Sent) {
  const { response, body } = await send(request);
  expect(response.status).toBe(status);
  if (code) expect(body.code).toBe(code);
  expectResponseMatches(operation, response, body);
  return { response, body };
}

describe('POST /v3/sessions answers as documented', () => {
  it('201 with Location and the session; 201 replay with Idempotent-Replayed', async () => {
    const headers = { 'idempotency-key': `contract-${randomUUID()}` };
    const first = await expectDocumented('createSession', 201, null, { headers });
    const replay = await expectDocumented('createSession', 201, null, { headers });
    expect(replay.response.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
  });

  it('400 malformed_json, validation_failed (every field), invalid_idempotency_key', async () => {
    await expectDocumented('createSession', 400, 'malformed_json', { body: '{"player_id":' });
    const { body } = await expectDocumented('createSession', 400, 'validation_failed', {
      body: JSON.stringify({ player_id: '', game_id: 'nope', currency: 'eur', extra: 1 }),
    });
    expect(body.errors.map((e: { pointer: string }) => e.pointer)).toEqual([
      '#/player_id',
      '#/game_id',
      '#/currency',
      '#/extra',
    ]);
    await expectDocumented('createSession', 400, 'invalid_idempotency_key', {
      headers: { 'idempotency-key': 'x'.repeat(256) },
    });
  });

  it('401 missing_api_key and invalid_api_key, with WWW-Authenticate', async () => {
    await expectDocumented('createSession', 401, 'missing_api_key', { key: null });
    await expectDocumented('createSession', 401, 'invalid_api_key', { key: `cgs_live_${'A'.repeat(43)}` });
  });

  it('405 with Allow for another method', async () => {
    const { response } = await expectDocumented('createSession', 405, 'method_not_allowed', { method: 'DELETE' });
    expect(response.headers.get('allow')).toBe('GET, POST');
  });

  it('409 idempotency_key_in_use with Retry-After while the same key is still running', async () => {
    const key = `contract-${randomUUID()}`;
    await whileKeyInFlight(
      api.sql,
      api.operator.account.id,
      key,
      () => expectDocumented('createSession', 409, 'idempotency_key_in_use', { headers: { 'idempotency-key': key } }),
    );
  });

  it('413 payload_too_large, 415 unsupported_media_type with Accept-Post', async () => {
    await expectDocumented('createSession', 413, 'payload_too_large', {
      body: JSON.stringify({ ...validBody, player_id: 'x'.repeat(20_000) }),
    });
    await expectDocumented('createSession', 415, 'unsupported_media_type', {
      headers: { 'content-type': 'text/plain' },
    });
  });

  it('422 idempotency_key_reused and reference_unavailable', async () => {
    const headers = { 'idempotency-key': `contract-${randomUUID()}` };
    await expectDocumented('createSession', 201, null, { headers });
    await expectDocumented('createSession', 422, 'idempotency_key_reused', {
      headers,
      body: JSON.stringify({ ...validBody, player_id: 'someone-else' }),
    });
    const { body } = await expectDocumented('createSession', 422, 'reference_unavailable', {
      body: JSON.stringify({ player_id: 'p', game_id: 'no-such-studio:game', currency: 'XXX' }),
    });
    expect(body.errors.map((e: { code: string }) => e.code)).toEqual(['unknown_provider', 'unknown_currency']);
  });

  it('503 service_unavailable with Retry-After when the database cannot be reached', async () => {
    const orphan = await serveWithoutDatabase();
    try {
      const { response, body } = await send({}, orphan.url);
      expect([response.status, body.code]).toEqual([503, 'service_unavailable']);
      expectResponseMatches('createSession', response, body);
    } finally {
      await orphan.stop();
    }
  });
});

describe('GET /v3/sessions/{id} answers as documented', () => {
  it("200 with the session and a fresh launch URL; 404 for an unknown id or another client's", async () => {
    const created = await send();
    const { body } = await expectDocumented('getSession', 200, null, {
      method: 'GET',
      path: `/v3/sessions/${created.body.id}`,
    });
    expect(body).toMatchObject({
      id: created.body.id,
      status: 'created',
      launch_url: expect.stringContaining('?token='),
    });
    await expectDocumented('getSession', 404, 'not_found', { method: 'GET', path: `/v3/sessions/${randomUUID()}` });
    const eve = await newOperator(api.sql, 'eve');
    await expectDocumented('getSession', 404, 'not_found', {
      method: 'GET',
      path: `/v3/sessions/${created.body.id}`,
      key: eve.key,
    });
  });

  it('400 invalid_session_id, 401 without a key, 405 for another method', async () => {
    await expectDocumented('getSession', 400, 'invalid_session_id', { method: 'GET', path: '/v3/sessions/not-a-uuid' });
    await expectDocumented('getSession', 401, 'missing_api_key', {
      method: 'GET',
      path: `/v3/sessions/${randomUUID()}`,
      key: null,
    });
    await expectDocumented('getSession', 405, 'method_not_allowed', {
      method: 'PUT',
      path: `/v3/sessions/${randomUUID()}`,
    });
  });
});

describe('GET /v3/sessions answers as documented', () => {
  it('200 (a page of sessions), 400 invalid_parameters, 405 naming GET and POST', async () => {
    await send(); // at least one session of the caller's
    const { body } = await expectDocumented('listSessions', 200, null, { method: 'GET', path: '/v3/sessions?limit=2' });
    expect(body.data.length).toBeGreaterThan(0);
    await expectDocumented('listSessions', 400, 'invalid_parameters', { method: 'GET', path: '/v3/sessions?status=lost' });
    const { response } = await expectDocumented('listSessions', 405, 'method_not_allowed', { method: 'DELETE', path: '/v3/sessions' });
    expect(response.headers.get('allow')).toBe('GET, POST');
  });
});

describe('the catalogue reads answer as documented', () => {
  it('GET /v3/games: 200 (a page), 304 (If-None-Match), 400 invalid_parameters, 401', async () => {
    const { response, body } = await expectDocumented('listGames', 200, null, { method: 'GET', path: '/v3/games?limit=2&provider=pragmatic-play' });
    expect(body.data.length).toBeGreaterThan(0);
    await expectDocumented('listGames', 304, null, { method: 'GET', path: '/v3/games?limit=2&provider=pragmatic-play', headers: { 'if-none-match': response.headers.get('etag')! } });
    await expectDocumented('listGames', 400, 'invalid_parameters', { method: 'GET', path: '/v3/games?limit=0&colour=red' });
    await expectDocumented('listGames', 401, 'missing_api_key', { method: 'GET', path: '/v3/games', key: null });
  });

  it('GET /v3/games/{game_id}: 200, 404', async () => {
    await expectDocumented('getGame', 200, null, { method: 'GET', path: '/v3/games/pragmatic-play:vs20olympgate' });
    await expectDocumented('getGame', 404, 'not_found', { method: 'GET', path: '/v3/games/pragmatic-play:no-such-game' });
  });

  it('GET /v3/providers and /v3/currencies: 200, 405', async () => {
    await expectDocumented('listProviders', 200, null, { method: 'GET', path: '/v3/providers' });
    await expectDocumented('listCurrencies', 200, null, { method: 'GET', path: '/v3/currencies?limit=3' });
    await expectDocumented('listCurrencies', 405, 'method_not_allowed', { method: 'DELETE', path: '/v3/currencies' });
  });
});

describe('the money reads answer as documented', () => {
  it('GET /v3/wallets and /v3/transactions: 200 with exact decimal strings, 400, 401', async () => {
    const client = api.operator.account.id;
    await api.sql`insert into public.wallet (client_id, currency_code, is_primary) values (${client}, 'EUR', true) on conflict do nothing`;
    await api.sql`select * from public.record_transaction(${client}::uuid, 'EUR', 'deposit', 12345678901.2345)`;
    const wallets = await expectDocumented('listWallets', 200, null, { method: 'GET', path: '/v3/wallets' });
    expect(wallets.body.data[0].balance).toMatch(/^\d+\.\d{4}$/);
    const ledger = await expectDocumented('listTransactions', 200, null, { method: 'GET', path: '/v3/transactions?limit=1&currency=EUR' });
    expect(ledger.body.data[0].amount).toBe('12345678901.2345');
    await expectDocumented('listTransactions', 400, 'invalid_parameters', { method: 'GET', path: '/v3/transactions?type=refund' });
    await expectDocumented('listWallets', 401, 'missing_api_key', { method: 'GET', path: '/v3/wallets', key: null });
  });
});

describe('the public documents answer as documented', () => {
  it('GET /v3/.well-known/jwks.json: 200 with the key set, 405 for another method', async () => {
    await expectDocumented('getJwks', 200, null, { method: 'GET', path: '/v3/.well-known/jwks.json', key: null });
    await expectDocumented('getJwks', 405, 'method_not_allowed', {
      method: 'POST',
      path: '/v3/.well-known/jwks.json',
      key: null,
    });
  });

  it('GET /v3/openapi.json: 200 with this document, 304 for a current ETag', async () => {
    const { response, body } = await expectDocumented('getOpenApiDescription', 200, null, {
      method: 'GET',
      path: '/v3/openapi.json',
      key: null,
    });
    expect(body.info.version).toBe('3.2.1');
    await expectDocumented('getOpenApiDescription', 304, null, {
      method: 'GET',
      path: '/v3/openapi.json',
      key: null,
      headers: { 'if-none-match': response.headers.get('etag')! },
    });
  });
});

describe('the contract check itself', () => {
  it('rejects what the document does not say: an undocumented status, a missing header, a wrong body', async () => {
    const { response, body } = await send({ key: null });
    expect(responseProblems('getJwks', response, body)).toEqual([
      expect.stringMatching(/status 401 is not documented/),
    ]);
    const stripped = new Response(null, { status: 401, headers: { 'content-type': 'application/problem+json' } });
    expect(responseProblems('createSession', stripped, { ...body, code: 'invalid_session_id', extra: 1 })).toEqual([
      expect.stringMatching(/header WWW-Authenticate is required/),
      expect.stringMatching(/header Cache-Control is required/),
      expect.stringMatching(/^body: .*additional properties.*extra.*must be equal to one of the allowed values/),
    ]);
  });
});
