// Idempotency-Key, Stripe's semantics scoped to the client: a retry replays the first response,
// another body under the same key is 422, a retry while the first still runs is 409, and keys
// are remembered for 24 hours.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../helpers/db.ts';
import { newOperator, type Operator, sessionRequest, sessionsHandler, validBody, writesBy } from '../helpers/api.ts';

const sql = connect();
let handle: (request: Request) => Promise<Response>;
let alice: Operator;
let eve: Operator;

beforeAll(async () => {
  ({ handle } = await sessionsHandler());
  [alice, eve] = await Promise.all([newOperator(sql, 'alice'), newOperator(sql, 'eve')]);
});

const withKey = (operator: Operator, idempotencyKey: string, body: unknown = validBody) =>
  sessionRequest(body, { key: operator.key, headers: { 'idempotency-key': idempotencyKey } });

/** Makes alice's remembered `key` look as old as `age` (an interval). */
const backdate = (key: string, age: string) => sql`
  update private.idempotency_key set created_at = now() - ${age}::interval
  where client_id = ${alice.account.id} and idempotency_key = ${key}`;

describe('Idempotency-Key', () => {
  it('replays the first response to a retry: same status, body and Location, marked Idempotent-Replayed, one session', async () => {
    const key = randomUUID();
    const before = await writesBy(sql, alice.account);
    const first = await handle(withKey(alice, key));
    const retry = await handle(withKey(alice, key, { currency: 'EUR', game_id: validBody.game_id, player_id: 'player-42' }));
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.headers.get('location')).toBe(first.headers.get('location'));
    expect(await retry.text()).toBe(await first.text());
    expect(await writesBy(sql, alice.account)).toEqual({
      sessions: before.sessions + 1, idempotencyKeys: before.idempotencyKeys + 1,
    });
  });

  it('refuses the same key with a different body with 422, writing nothing', async () => {
    const key = randomUUID();
    expect((await handle(withKey(alice, key))).status).toBe(201);
    const before = await writesBy(sql, alice.account);
    const reused = await handle(withKey(alice, key, { ...validBody, player_id: 'someone-else' }));
    expect(reused.status).toBe(422);
    expect((await reused.json()).code).toBe('idempotency_key_reused');
    expect(await writesBy(sql, alice.account)).toEqual(before);
  });

  it('tells every field apart under one key: each changed alone is 422, writing nothing, and the first still replays', async () => {
    const key = randomUUID();
    const first = await handle(withKey(alice, key));
    expect(first.status).toBe(201);
    const { id } = await first.json();
    const before = await writesBy(sql, alice.account);
    // Every variant names an active provider and currency, so only the key can refuse it.
    const variants = {
      player_id: { ...validBody, player_id: 'player-43' },
      'game_id, provider': { ...validBody, game_id: 'evolution:vs20olympgate' },
      'game_id, game of the same provider': { ...validBody, game_id: 'pragmatic-play:vs20fruitsw' },
      currency: { ...validBody, currency: 'USD' },
      'country added': { ...validBody, country: 'MT' },
    };
    for (const [changed, body] of Object.entries(variants)) {
      const reused = await handle(withKey(alice, key, body));
      expect(reused.status, `${changed} changed`).toBe(422);
      expect((await reused.json()).code, `${changed} changed`).toBe('idempotency_key_reused');
    }
    expect(await writesBy(sql, alice.account)).toEqual(before);
    const retry = await handle(withKey(alice, key));
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect((await retry.json()).id).toBe(id);
  });

  it('answers 409 with Retry-After to a retry while the first request is still running, then replays it', async () => {
    const key = randomUUID();
    // Hold the first request inside its transaction: inserts into game_session wait for this lock.
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked = () => {};
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holding = sql.begin(async (tx) => {
      await tx`lock table public.game_session in share mode`;
      locked();
      await released;
    });
    try {
      await isLocked;
      const first = handle(withKey(alice, key));
      await expect.poll(async () => {
        const [{ waiting }] = await sql`
          select count(*)::int as waiting from pg_locks
          where relation = 'public.game_session'::regclass and not granted`;
        return waiting;
      }, { timeout: 5_000 }).toBeGreaterThan(0);

      const concurrent = await handle(withKey(alice, key));
      expect(concurrent.status).toBe(409);
      expect(concurrent.headers.get('retry-after')).toBe('1');
      expect(await concurrent.json()).toMatchObject({ code: 'idempotency_key_in_use', retryable: true });

      release();
      expect((await first).status).toBe(201);
    } finally {
      release();
      await holding;
    }
    const later = await handle(withKey(alice, key));
    expect(later.status).toBe(201);
    expect(later.headers.get('idempotent-replayed')).toBe('true');
  });

  it('scopes keys to the client: the same key from another client is a new request', async () => {
    const key = randomUUID();
    const fromAlice = await (await handle(withKey(alice, key))).json();
    const fromEve = await handle(withKey(eve, key));
    expect(fromEve.status).toBe(201);
    expect(fromEve.headers.get('idempotent-replayed')).toBeNull();
    expect((await fromEve.json()).id).not.toBe(fromAlice.id);
  });

  it('remembers a key for 24 hours; after that the key may be used again', async () => {
    const key = randomUUID();
    expect((await handle(withKey(alice, key))).status).toBe(201);
    await backdate(key, '23 hours 59 minutes');
    expect((await handle(withKey(alice, key, { ...validBody, currency: 'USD' }))).status).toBe(422);

    await backdate(key, '24 hours 1 minute');
    const fresh = await handle(withKey(alice, key, { ...validBody, currency: 'USD' }));
    expect(fresh.status).toBe(201);
    expect(fresh.headers.get('idempotent-replayed')).toBeNull();
    const [stored] = await sql`
      select response_body ->> 'currency' as currency, created_at > now() - interval '1 minute' as renewed
      from private.idempotency_key where client_id = ${alice.account.id} and idempotency_key = ${key}`;
    expect(stored).toEqual({ currency: 'USD', renewed: true });
  });

  it('purges keys older than 24 hours with private.purge_idempotency_keys()', async () => {
    const key = randomUUID();
    expect((await handle(withKey(alice, key))).status).toBe(201);
    await backdate(key, '25 hours');
    await sql`select private.purge_idempotency_keys()`;
    const rows = await sql`select 1 from private.idempotency_key where client_id = ${alice.account.id} and idempotency_key = ${key}`;
    expect(rows).toHaveLength(0);
  });

  it('remembers nothing for a rejected request: after a 422 the key is free for a corrected body', async () => {
    const key = randomUUID();
    expect((await handle(withKey(alice, key, { ...validBody, currency: 'XXX' }))).status).toBe(422);
    const corrected = await handle(withKey(alice, key));
    expect(corrected.status).toBe(201);
    expect(corrected.headers.get('idempotent-replayed')).toBeNull();
  });

  it('remembers nothing without an Idempotency-Key: no row, and the 201 is the one the handler built', async () => {
    const before = await writesBy(sql, alice.account);
    const response = await handle(sessionRequest(validBody, { key: alice.key }));
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({ ...validBody, status: 'created', launch_url: expect.any(String) });
    expect(await writesBy(sql, alice.account)).toEqual({ sessions: before.sessions + 1, idempotencyKeys: before.idempotencyKeys });
  });

  it('refuses, in the database, an Idempotency-Key without the fingerprint or the body a replay needs', async () => {
    const [hash] = await sql<{ key_hash: string }[]>`select key_hash from public.api_key where id = ${alice.keyId}`;
    const call = (fingerprint: string | null, body: object | null) => sql`
      select * from private.create_game_session(${hash.key_hash}, true, ${randomUUID()}, ${fingerprint}, ${randomUUID()},
        'p', 'pragmatic-play', 'vs20olympgate', 'EUR', null, now(), now() + interval '15 minutes', ${body as never}::json)`;
    await expect(call(null, { id: 'x' })).rejects.toMatchObject({ code: '22004' });
    await expect(call('0'.repeat(64), null)).rejects.toMatchObject({ code: '22004' });
  });
});
