// The operator SDK against the v3 function served by Deno over the test database: sessions are
// really created and read back, errors are the function's own problem bodies, and retries are
// provoked by the real conditions (a key still in flight, an unreachable database, a closed port).
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { freePort } from '../../../scripts/lib/embedded-postgres.ts';
import { ApiError, createOperatorClient, type OperatorClientOptions } from '../../../sdks/typescript/src/index.ts';
import { blackHole } from '../../helpers/black-hole.ts';
import { serveApiForFile, serveWithoutDatabase, whileKeyInFlight } from '../../openapi/served-api.ts';
import { newOperator } from '../../helpers/api.ts';

const api = serveApiForFile('sdk');
const input = { playerId: 'player-7', gameId: 'pragmatic-play:vs20olympgate', currency: 'EUR' };

interface Attempt {
  idempotencyKey: string | null;
  status: number | 'network error';
  at: number;
}

/** The real fetch, with each attempt written down (what was sent, what came back, when). */
function recordedFetch() {
  const attempts: Attempt[] = [];
  let answered: () => void;
  const firstAnswer = new Promise<void>((resolve) => (answered = resolve));
  const fetchAndRecord: typeof fetch = async (url, init) => {
    const attempt: Attempt = {
      idempotencyKey: new Headers(init?.headers).get('idempotency-key'),
      status: 'network error',
      at: Date.now(),
    };
    attempts.push(attempt);
    try {
      const response = await fetch(url, init);
      attempt.status = response.status;
      return response;
    } finally {
      answered();
    }
  };
  return { fetch: fetchAndRecord, attempts, firstAnswer };
}

/** Runs `use` against an API base URL whose server accepts connections and never answers. */
async function withSilentServer(use: (baseUrl: string) => Promise<void>): Promise<void> {
  const hole = await blackHole();
  try {
    await use(`http://127.0.0.1:${hole.port}/functions/v1`);
  } finally {
    await hole.close();
  }
}

const operatorClient = (options: Partial<OperatorClientOptions> = {}) =>
  createOperatorClient({ baseUrl: api.url, apiKey: api.operator.key, ...options });

describe('sessions.create and sessions.get', () => {
  it('creates a session and reads it back', async () => {
    const client = operatorClient();
    const session = await client.sessions.create(input);
    expect(session).toMatchObject({ player_id: 'player-7', game_id: input.gameId, currency: 'EUR', status: 'created' });
    expect(session.launch_url).toContain('?token=');
    const read = await client.sessions.get(session.id);
    expect(read).toMatchObject({ id: session.id, status: 'created', expires_at: session.expires_at });
    expect(read.launch_url).toContain('?token=');
  });

  it('an Idempotency-Key given by the caller makes a repeated create return the first session', async () => {
    const client = operatorClient();
    const idempotencyKey = `sdk-${randomUUID()}`;
    const first = await client.sessions.create(input, { idempotencyKey });
    expect(await client.sessions.create(input, { idempotencyKey })).toEqual(first);
  });

  it('sends a generated Idempotency-Key when the caller gives none, a new one per call', async () => {
    const recorded = recordedFetch();
    const client = operatorClient({ fetch: recorded.fetch });
    const [a, b] = [await client.sessions.create(input), await client.sessions.create(input)];
    expect(a.id).not.toBe(b.id);
    const keys = recorded.attempts.map((attempt) => attempt.idempotencyKey);
    expect(keys).toEqual([expect.any(String), expect.any(String)]);
    expect(keys[0]).not.toBe(keys[1]);
  });
});

describe('lists and reads', () => {
  it('lists one page, and iterates every item by cursor: a provider\'s whole catalogue, each game once', async () => {
    const client = operatorClient();
    const page = await client.games.list({ provider: 'pragmatic-play', limit: 1 });
    expect(page.data).toHaveLength(1);
    expect(page).toMatchObject({ has_more: true, next_cursor: expect.any(String) });
    const ids: string[] = [];
    for await (const game of client.games.iterate({ provider: 'pragmatic-play', limit: 1 })) ids.push(game.game_id);
    const [{ n }] = await api.sql`
      select count(*)::int as n from private.game_listing where listed and provider_slug = 'pragmatic-play'`;
    expect(n).toBeGreaterThan(1);
    expect(ids).toHaveLength(n);
    expect(new Set(ids).size).toBe(n);
    expect(await client.games.get(ids[0])).toMatchObject({ game_id: ids[0], provider: 'pragmatic-play' });
  });

  it('sends camelCased filters as the API\'s parameters, and reads sessions, providers, currencies, jurisdictions, wallets, transactions', async () => {
    const client = operatorClient();
    const playerId = `sdk-list-${randomUUID()}`;
    const created = await client.sessions.create({ ...input, playerId });
    expect((await client.sessions.list({ playerId })).data.map((s) => s.id)).toEqual([created.id]);
    expect(await client.sessions.close(created.id)).toMatchObject({ id: created.id, status: 'closed' });
    expect((await client.providers.list()).data.map((p) => p.slug)).toContain('pragmatic-play');
    expect((await client.currencies.list({ limit: 1 })).data).toHaveLength(1);
    const codes: string[] = [];
    for await (const jurisdiction of client.jurisdictions.iterate({ limit: 2 })) codes.push(jurisdiction.code);
    expect(codes).toEqual(expect.arrayContaining(['GB', 'MT', 'ON']));
    expect(await client.jurisdictions.get('GB')).toMatchObject({ code: 'GB', rules: { autoplay_allowed: false }, licensed: false });
    const player = `sdk-rg-${randomUUID()}`;
    expect(await client.players.setRestrictions(player, { stakeLimits: { EUR: '2' }, sessionTimeLimitMinutes: 60 }))
      .toMatchObject({ player_id: player, stake_limits: { EUR: '2.0000' }, session_time_limit_minutes: 60 });
    expect((await client.players.getRestrictions(player)).stake_limits).toEqual({ EUR: '2.0000' });
    await client.players.setRestrictions(player, { coolOffUntil: new Date(Date.now() + 3600_000).toISOString() });
    await expect(client.players.setRestrictions(player, {})).rejects.toMatchObject({ status: 409, code: 'exclusion_active' });
    // The sandbox takes test keys only.
    await expect(client.sandbox.createPlayer({ playerId: player, currency: 'EUR', balance: '10' }))
      .rejects.toMatchObject({ status: 403, code: 'live_key' });
    const [test] = await api.sql`select key from public.issue_api_key(${api.operator.account.id}, 'SDK test', false)`;
    const sandbox = operatorClient({ apiKey: test.key }).sandbox;
    expect(await sandbox.createPlayer({ playerId: player, currency: 'EUR', balance: '10', behaviour: 'insufficient_funds' }))
      .toMatchObject({ player_id: player, balance: '10.0000', behaviour: 'insufficient_funds', livemode: false });
    await expect(sandbox.checkWallet({ playerId: player, currency: 'EUR' })).rejects.toMatchObject({ status: 409, code: 'not_seamless' });
    expect(await sandbox.reset()).toMatchObject({ livemode: false, removed: { players: 1 }, wallet_mode: 'transfer' });
    await expect(sandbox.getPlayer(player)).rejects.toMatchObject({ status: 404 });
    await expect(client.sandbox.reset()).rejects.toMatchObject({ status: 403, code: 'live_key' });
    expect(await client.wallets.list()).toEqual({ data: [], next_cursor: null, has_more: false });
    expect((await client.transactions.list({ createdAfter: '2026-01-01T00:00:00Z' })).data).toEqual([]);
    await expect(client.transactions.list({ createdAfter: 'yesterday' })).rejects.toMatchObject({
      status: 400, code: 'invalid_parameters', problem: { errors: [{ parameter: 'created_after', code: 'invalid_format' }] },
    });
  });
});

describe('webhooks and wallet settings', () => {
  it('manages an endpoint through its life, pings it, and reads the ping\'s deliveries', async () => {
    const client = operatorClient();
    const created = await client.webhookEndpoints.create({ url: 'https://hooks.sdk.test/', eventTypes: ['round.closed'] });
    expect(created.secret).toMatch(/^whsec_/);
    expect((await client.webhookEndpoints.list()).data.map((e) => e.id)).toContain(created.id);
    expect(await client.webhookEndpoints.update(created.id, { enabled: false })).toMatchObject({ enabled: false, event_types: ['round.closed'] });
    const rotated = await client.webhookEndpoints.rotateSecret(created.id);
    expect(rotated.secret).not.toBe(created.secret);
    const ping = await client.webhookEndpoints.test(created.id);
    expect(await client.events.get(ping.id)).toEqual(ping);
    const [delivery] = await client.events.deliveries(ping.id);
    expect(delivery).toMatchObject({ endpoint_id: created.id, status: 'pending', attempt_log: [] });
    expect((await client.webhookEndpoints.delete(created.id)).id).toBe(created.id);
    await expect(client.webhookEndpoints.get(created.id)).rejects.toMatchObject({ status: 404 });
  });

  it('reads and sets the wallet mode, the secret coming back once', async () => {
    const client = operatorClient();
    expect(await client.walletSettings.get()).toMatchObject({ mode: 'transfer', livemode: true });
    const set = await client.walletSettings.set({ mode: 'seamless', url: 'https://wallet.sdk.test/' });
    expect(set).toMatchObject({ mode: 'seamless', secret: expect.stringMatching(/^whsec_/) });
    expect(await client.walletSettings.get()).not.toHaveProperty('secret');
    await client.walletSettings.set({ mode: 'transfer' });
  });
});

describe('errors are ApiError values carrying the problem body', () => {
  it('400 validation_failed lists every failing field', async () => {
    const error = await operatorClient().sessions.create({ playerId: '', gameId: 'nope', currency: 'eur' }).catch((e) =>
      e
    );
    expect(error).toBeInstanceOf(ApiError);
    expect([error.status, error.code]).toEqual([400, 'validation_failed']);
    expect(error.problem.errors.map((e: { pointer: string }) => e.pointer)).toEqual([
      '#/player_id',
      '#/game_id',
      '#/currency',
    ]);
  });

  it("404 not_found for another client's session; 401 invalid_api_key without retrying", async () => {
    const session = await operatorClient().sessions.create(input);
    const eve = await newOperator(api.sql, 'eve');
    const asEve = createOperatorClient({ baseUrl: api.url, apiKey: eve.key });
    await expect(asEve.sessions.get(session.id)).rejects.toMatchObject({ status: 404, code: 'not_found' });

    const recorded = recordedFetch();
    const stranger = createOperatorClient({
      baseUrl: api.url,
      apiKey: `cgs_live_${'B'.repeat(43)}`,
      fetch: recorded.fetch,
    });
    await expect(stranger.sessions.create(input)).rejects.toMatchObject({
      name: 'ApiError',
      status: 401,
      code: 'invalid_api_key',
      problem: { title: 'Invalid API key' },
    });
    expect(recorded.attempts).toHaveLength(1);
  });
});

describe('retries', () => {
  it('409 while the same key is in flight: waits Retry-After (1 s), retries with the same key, gets the session', async () => {
    const recorded = recordedFetch();
    // A 10 ms backoff step: any wait near a second can only come from Retry-After.
    const client = operatorClient({ fetch: recorded.fetch, retries: { max: 2, baseDelayMs: 10 } });
    const idempotencyKey = `sdk-${randomUUID()}`;
    const created = await whileKeyInFlight(api.sql, api.operator.account.id, idempotencyKey, async () => {
      const pending = client.sessions.create(input, { idempotencyKey });
      await recorded.firstAnswer; // the first attempt saw the key in flight; release it
      return { pending };
    });
    const session = await created.pending;
    expect(session.player_id).toBe('player-7');
    expect(recorded.attempts.map((a) => a.status)).toEqual([409, 201]);
    expect(recorded.attempts.map((a) => a.idempotencyKey)).toEqual([idempotencyKey, idempotencyKey]);
    expect(recorded.attempts[1].at - recorded.attempts[0].at).toBeGreaterThanOrEqual(950);
  });

  it('503 is retried up to `max` times under one generated key, then raised as ApiError', async () => {
    const orphan = await serveWithoutDatabase();
    try {
      const recorded = recordedFetch();
      // maxDelayMs caps the server's Retry-After (5 s) to keep the test short.
      const client = createOperatorClient({
        baseUrl: orphan.url,
        apiKey: api.operator.key,
        fetch: recorded.fetch,
        retries: { max: 2, baseDelayMs: 10, maxDelayMs: 50 },
      });
      await expect(client.sessions.create(input)).rejects.toMatchObject({ status: 503, code: 'service_unavailable' });
      expect(recorded.attempts.map((a) => a.status)).toEqual([503, 503, 503]);
      expect(new Set(recorded.attempts.map((a) => a.idempotencyKey)).size).toBe(1);
    } finally {
      await orphan.stop();
    }
  });

  it('a network failure is retried, then raised as it came', async () => {
    const recorded = recordedFetch();
    const client = createOperatorClient({
      baseUrl: `http://127.0.0.1:${await freePort()}/functions/v1`,
      apiKey: api.operator.key,
      fetch: recorded.fetch,
      retries: { max: 2, baseDelayMs: 10 },
    });
    await expect(client.sessions.get(randomUUID())).rejects.toThrow(TypeError);
    expect(recorded.attempts.map((a) => a.status)).toEqual(['network error', 'network error', 'network error']);
  });

  it('refuses a base URL or API key fetch could not send when the client is created, not after retries', () => {
    const recorded = recordedFetch();
    const client = (baseUrl: string, apiKey = api.operator.key) => () => createOperatorClient({ baseUrl, apiKey, fetch: recorded.fetch });
    expect(client('127.0.0.1:54321/functions/v1')).toThrow('baseUrl must be an absolute http(s) URL');
    expect(client('ftp://127.0.0.1/functions/v1')).toThrow('baseUrl must be an absolute http(s) URL');
    for (const key of [`${api.operator.key}\nx`, `${api.operator.key}€`]) {
      expect(client(api.url, key)).toThrow('apiKey holds characters an HTTP header cannot carry');
    }
    // As from an unset environment variable, in JavaScript (a null key: undefined would take the
    // helper's default).
    expect(client(undefined as never)).toThrow('baseUrl must be an absolute http(s) URL');
    for (const key of [null as never, '', ' ']) expect(client(api.url, key)).toThrow('apiKey is missing');
    expect(recorded.attempts).toHaveLength(0);
  });

  it('an attempt with no answer times out (timeoutMs) and is retried; after the last, a TimeoutError', async () => {
    await withSilentServer(async (url) => {
      const recorded = recordedFetch();
      const client = createOperatorClient({
        baseUrl: url, apiKey: api.operator.key, fetch: recorded.fetch, timeoutMs: 200, retries: { max: 1, baseDelayMs: 10 },
      });
      const error = await client.sessions.create(input).catch((e: unknown) => e);
      expect(error).toMatchObject({ name: 'TimeoutError' });
      expect(recorded.attempts.map((a) => a.status)).toEqual(['network error', 'network error']);
      expect(new Set(recorded.attempts.map((a) => a.idempotencyKey)).size).toBe(1);
    });
  });

  it("the caller's signal ends the call at once, with its reason, and is not retried", async () => {
    await withSilentServer(async (url) => {
      const recorded = recordedFetch();
      const client = createOperatorClient({ baseUrl: url, apiKey: api.operator.key, fetch: recorded.fetch, retries: 3 });
      const controller = new AbortController();
      setTimeout(() => controller.abort(new Error('the player left')), 100);
      await expect(client.sessions.get(randomUUID(), { signal: controller.signal })).rejects.toThrow('the player left');
      expect(recorded.attempts).toHaveLength(1);
    });
  });

  it.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY])('refuses timeoutMs %s with a RangeError', (timeoutMs) => {
    expect(() => operatorClient({ timeoutMs })).toThrow(RangeError);
  });

  it('retries: 0 turns retrying off', async () => {
    const recorded = recordedFetch();
    const client = operatorClient({ fetch: recorded.fetch, retries: 0 });
    const idempotencyKey = `sdk-${randomUUID()}`;
    await whileKeyInFlight(
      api.sql,
      api.operator.account.id,
      idempotencyKey,
      () =>
        expect(client.sessions.create(input, { idempotencyKey })).rejects.toMatchObject({
          status: 409,
          code: 'idempotency_key_in_use',
        }),
    );
    expect(recorded.attempts).toHaveLength(1);
  });
});
