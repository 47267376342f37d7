// API keys (spec 5): issued and revoked by staff over RPC, shown once, stored as a SHA-256 only,
// and a key that is revoked or not active stops working on the very next request.
import { createHash } from 'node:crypto';
import type { TransactionSql } from 'postgres';
import { beforeAll, describe, expect, it } from 'vitest';
import { as, type Cast, cast, connect, outcome, signUp } from '../helpers/db.ts';
import { issueKey, sessionRequest, sessionsHandler, validBody } from '../helpers/api.ts';

const sql = connect();
let people: Cast;
let handle: (request: Request) => Promise<Response>;

beforeAll(async () => {
  people = await cast(sql);
  ({ handle } = await sessionsHandler());
});

const create = (key: string) => handle(sessionRequest(validBody, { key }));

describe('issue_api_key', () => {
  it.each(['mona', 'adam'] as const)('lets staff (%s) issue a key for a client over RPC, shown once', async (staff) => {
    const [issued] = await as(sql, people[staff], (tx) =>
      tx`select * from public.issue_api_key(${people.alice.id}, 'Production')`);
    expect(issued.key).toMatch(/^cgs_live_[A-Za-z0-9_-]{43}$/);
    expect(issued.key_prefix).toBe(issued.key.slice(0, 16));
    const [row] = await sql`select * from public.api_key where id = ${issued.id}`;
    expect(row).toMatchObject({
      client_id: people.alice.id, label: 'Production', status: 'active', key_prefix: issued.key_prefix,
      key_hash: createHash('sha256').update(issued.key).digest('hex'), revoked_at: null,
    });
    expect(JSON.stringify(row)).not.toContain(issued.key);
  });

  it('labels a key Default when no label is given', async () => {
    const [issued] = await as(sql, people.adam, (tx) => tx`select * from public.issue_api_key(${people.alice.id})`);
    const [row] = await sql`select label from public.api_key where id = ${issued.id}`;
    expect(row.label).toBe('Default');
  });

  it('draws every key from 256 random bits: a thousand keys, a thousand different values', async () => {
    const keys = await sql`select (public.issue_api_key(${people.eve.id})).key from generate_series(1, 1000)`;
    expect(new Set(keys.map((k) => k.key)).size).toBe(1000);
    await sql`delete from public.api_key where client_id = ${people.eve.id}`;
  });

  it('lets the service itself issue and revoke: with the service key (service_role) and as the database owner', async () => {
    const [byServiceKey] = await as(sql, 'service_role', (tx) => tx`select * from public.issue_api_key(${people.alice.id}, 'Provisioned')`);
    expect(byServiceKey.key).toMatch(/^cgs_live_[A-Za-z0-9_-]{43}$/);
    expect((await create(byServiceKey.key)).status).toBe(201);
    const [revoked] = await as(sql, 'service_role', (tx) => tx`select * from public.revoke_api_key(${byServiceKey.id})`);
    expect(revoked.status).toBe('revoked');

    const [byOwner] = await sql`select * from public.issue_api_key(${people.alice.id}, 'Scripted')`;
    expect((await sql`select * from public.revoke_api_key(${byOwner.id})`)[0].status).toBe('revoked');
  });

  it('refuses clients (42501) and anonymous callers (42501, no execute right)', async () => {
    expect(await outcome(() => as(sql, people.alice, (tx) => tx`select * from public.issue_api_key(${people.alice.id})`)))
      .toBe('42501');
    expect(await outcome(() => as(sql, 'anon', (tx) => tx`select * from public.issue_api_key(${people.alice.id})`)))
      .toBe('42501');
  });

  it('refuses an account that is not a client (23503)', async () => {
    const ghost = '00000000-0000-4000-8000-00000000dead';
    expect(await outcome(() => as(sql, people.adam, (tx) => tx`select * from public.issue_api_key(${ghost})`))).toBe('23503');
  });
});

describe('revoke_api_key and key status', () => {
  it('lets staff revoke a key over RPC, which refuses the next request with 401', async () => {
    const { key, keyId } = await issueKey(sql, people.alice);
    expect((await create(key)).status).toBe(201);
    const [revoked] = await as(sql, people.mona, (tx) => tx`select * from public.revoke_api_key(${keyId})`);
    expect(revoked).toMatchObject({ status: 'revoked', revoked_at: expect.any(Date) });
    const response = await create(key);
    expect(response.status).toBe(401);
    expect((await response.json()).code).toBe('invalid_api_key');
  });

  it('keeps the first revoked_at when a key is revoked twice', async () => {
    const { keyId } = await issueKey(sql, people.alice);
    const [first] = await as(sql, people.adam, (tx) => tx`select * from public.revoke_api_key(${keyId})`);
    const [second] = await as(sql, people.adam, (tx) => tx`select * from public.revoke_api_key(${keyId})`);
    expect(second.revoked_at).toEqual(first.revoked_at);
  });

  it('refuses clients revoking keys, even their own (42501), and reports unknown keys (P0002)', async () => {
    const { keyId } = await issueKey(sql, people.alice);
    expect(await outcome(() => as(sql, people.alice, (tx) => tx`select * from public.revoke_api_key(${keyId})`))).toBe('42501');
    expect(await outcome(() => as(sql, 'anon', (tx) => tx`select * from public.revoke_api_key(${keyId})`))).toBe('42501');
    const [row] = await sql`select status from public.api_key where id = ${keyId}`;
    expect(row.status).toBe('active');
    expect(await outcome(() => as(sql, people.adam, (tx) => tx`select * from public.revoke_api_key(gen_random_uuid())`)))
      .toBe('P0002');
  });

  it('keeps a revoked key revoked: neither staff nor the owner can change it back (23514)', async () => {
    const { key, keyId } = await issueKey(sql, people.alice);
    await as(sql, people.mona, (tx) => tx`select * from public.revoke_api_key(${keyId})`);
    const [before] = await sql`select status, revoked_at, key_hash, key_prefix, client_id from public.api_key where id = ${keyId}`;

    const reactivate = (tx: TransactionSql) => tx`update public.api_key set status = 'active', revoked_at = null where id = ${keyId}`;
    expect(await outcome(() => as(sql, people.mona, reactivate))).toBe('23514');
    expect(await outcome(() => sql.begin(reactivate))).toBe('23514');
    for (const change of [
      { revoked_at: new Date('2000-01-01') }, { status: 'suspended', revoked_at: null },
      { key_prefix: 'cgs_live_other' }, { client_id: people.eve.id }, { key_hash: 'f'.repeat(64) },
    ]) {
      expect(await outcome(() => as(sql, people.mona, (tx) => tx`update public.api_key set ${tx(change)} where id = ${keyId}`)), JSON.stringify(change))
        .toBe('23514');
    }
    // Its label is still the staff's to change.
    await as(sql, people.mona, (tx) => tx`update public.api_key set label = 'Leaked 2026-11' where id = ${keyId}`);

    expect(await sql`select status, revoked_at, key_hash, key_prefix, client_id from public.api_key where id = ${keyId}`).toEqual([before]);
    expect((await create(key)).status).toBe(401);
  });

  it('never lets a revoked key\'s hash onto another key row, even after the revoked row is deleted (23514)', async () => {
    const { key, keyId } = await issueKey(sql, people.alice);
    const [{ key_hash: hash }] = await sql`select key_hash from public.api_key where id = ${keyId}`;
    await as(sql, people.mona, (tx) => tx`select * from public.revoke_api_key(${keyId})`);
    const other = await issueKey(sql, people.alice);

    // Moving the hash onto an active key; deleting the revoked row, then inserting the hash anew.
    const moveHash = (tx: TransactionSql) => tx`update public.api_key set key_hash = ${hash} where id = ${other.keyId}`;
    await as(sql, people.mona, (tx) => tx`delete from public.api_key where id = ${keyId}`);
    expect(await outcome(() => as(sql, people.mona, moveHash))).toBe('23514');
    expect(await outcome(() => sql.begin(moveHash))).toBe('23514');
    const row = { client_id: people.alice.id, key_prefix: key.slice(0, 16), key_hash: hash };
    expect(await outcome(() => as(sql, people.mona, (tx) => tx`insert into public.api_key ${tx(row)}`))).toBe('23514');
    expect(await outcome(() => as(sql, 'service_role', (tx) => tx`insert into public.api_key ${tx(row)}`))).toBe('23514');

    expect(await sql`select 1 from public.api_key where key_hash = ${hash}`).toHaveLength(0);
    expect((await create(key)).status).toBe(401);
    expect((await create(other.key)).status).toBe(201);
  });

  it('refuses a suspended key with 401, and accepts it again once staff reactivate it', async () => {
    const { key, keyId } = await issueKey(sql, people.alice);
    await as(sql, people.mona, (tx) => tx`update public.api_key set status = 'suspended' where id = ${keyId}`);
    expect((await create(key)).status).toBe(401);
    await as(sql, people.mona, (tx) => tx`update public.api_key set status = 'active' where id = ${keyId}`);
    expect((await create(key)).status).toBe(201);
  });

  it('refuses the keys of an account whose profile is not active', async () => {
    const carol = await signUp(sql, 'carol');
    const { key } = await issueKey(sql, carol);
    expect((await create(key)).status).toBe(201);
    await sql`update public.profile set status = 'suspended' where id = ${carol.id}`;
    expect((await create(key)).status).toBe(401);
  });

  it('touches last_used_at at most once a minute', async () => {
    const { key, keyId } = await issueKey(sql, people.alice);
    expect((await create(key)).status).toBe(201);
    const [first] = await sql`select last_used_at from public.api_key where id = ${keyId}`;
    expect((await create(key)).status).toBe(201);
    const [second] = await sql`select last_used_at from public.api_key where id = ${keyId}`;
    expect(second.last_used_at).toEqual(first.last_used_at);
  });
});
