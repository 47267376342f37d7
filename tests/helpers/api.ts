// The v3 handler on the test database with production settings, and the operators that call it:
// each test file signs up its own clients and issues their keys.
import postgres, { type Sql } from 'postgres';
import { afterAll, inject } from 'vitest';
import { freshMigratedDatabase } from '../../scripts/lib/database.ts';
import { importFixtureCatalogue } from '../../scripts/lib/fixture-catalogue.ts';
import { connectDatabase } from '../../supabase/functions/_shared/database.ts';
import { createSessionTokenSigner, type SessionTokenSigner } from '../../supabase/functions/v3/session-token.ts';
import { createApp } from '../../supabase/functions/v3/app.ts';
import type { ApiDependencies } from '../../supabase/functions/v3/context.ts';
import { type Account, signUp } from './db.ts';

export const SESSIONS_URL = 'http://api.test/v3/sessions';
export const ISSUER = 'cgs-test';

export const validBody = { player_id: 'player-42', game_id: 'pragmatic-play:vs20olympgate', currency: 'EUR' };

export interface Operator {
  account: Account;
  key: string;
  keyId: string;
}

/** Issues a key as the database owner does for `npm run key` (a test key with `livemode` false). */
export async function issueKey(sql: Sql, account: Account, label = 'Default', livemode = true): Promise<{ key: string; keyId: string }> {
  const [issued] = await sql<{ id: string; key: string }[]>`select * from public.issue_api_key(${account.id}, ${label}, ${livemode})`;
  return { key: issued.key, keyId: issued.id };
}

/** A key of `account`'s, issued and then revoked through public.revoke_api_key. */
export async function revokedKey(sql: Sql, account: Account): Promise<string> {
  const revoked = await issueKey(sql, account, 'revoked');
  await sql`select public.revoke_api_key(${revoked.keyId})`;
  return revoked.key;
}

export interface RecordedSessionOptions {
  livemode?: boolean;
  provider?: string;
  game?: string;
  status?: 'created' | 'active' | 'closed';
  /** When its launch window ends, from now, as a Postgres interval (`-1 minute` for a past one). */
  expiresIn?: string;
}

/**
 * A session of `clientId`'s as POST /v3/sessions records it (made a day ago, in EUR), for tests of
 * what follows a launch; its id.
 */
export async function recordedSession(sql: Sql, clientId: string, options: RecordedSessionOptions = {}): Promise<string> {
  const [row] = await sql`
    insert into public.game_session (client_id, livemode, player_id, provider_id, game, currency_code, status, created_at, expires_at)
    select ${clientId}, ${options.livemode ?? true}, 'player-1', id, ${options.game ?? 'vs20olympgate'}, 'EUR',
           ${options.status ?? 'created'}, now() - interval '1 day', now() + ${options.expiresIn ?? '1 hour'}::interval
    from public.game_provider where slug = ${options.provider ?? 'pragmatic-play'}
    returning id`;
  return row.id as string;
}

/** A new client account with an active API key. */
export async function newOperator(sql: Sql, name = 'operator'): Promise<Operator> {
  const account = await signUp(sql, name);
  return { account, ...(await issueKey(sql, account)) };
}

/** A handler over the test database, as index.ts wires it (its pool closed after the file). */
export async function sessionsHandler(overrides: Partial<ApiDependencies> = {}) {
  const sql = connectDatabase(inject('databaseUrl'), { max: 5 });
  afterAll(() => sql.end());
  const signer: SessionTokenSigner = await createSessionTokenSigner({ issuer: ISSUER });
  // Local-run semantics: the tests' webhook and wallet URLs are made up or on loopback.
  const buildApp = () => createApp({ sql, signer, ...overrides, config: { allowPrivateUrls: true, ...overrides.config } });
  // buildApp too, for a test that builds the app inside itself: what its routes are is then that
  // test's own (a mutant Stryker switches on after a file has built its app still reaches it).
  return { signer, handle: buildApp(), buildApp };
}

/** An opaque list cursor of these position parts, as the API writes one (base64url JSON). */
export const cursorOf = (parts: unknown) => Buffer.from(JSON.stringify(parts)).toString('base64url');

export interface PostOptions {
  key?: string;
  headers?: Record<string, string>;
  url?: string;
}

/** A POST /v3/sessions request: JSON, with the operator's key unless told otherwise. */
export function sessionRequest(body: unknown, options: PostOptions = {}): Request {
  return new Request(options.url ?? SESSIONS_URL, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(options.key ? { authorization: `Bearer ${options.key}` } : {}),
      ...options.headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** What a client has written through the endpoint: sessions and remembered idempotent responses. */
export async function writesBy(sql: Sql, account: Account): Promise<{ sessions: number; idempotencyKeys: number }> {
  const [row] = await sql<{ sessions: number; idempotency_keys: number }[]>`
    select (select count(*)::int from public.game_session where client_id = ${account.id}) as sessions,
           (select count(*)::int from private.idempotency_key where client_id = ${account.id}) as idempotency_keys`;
  return { sessions: row.sessions, idempotencyKeys: row.idempotency_keys };
}

/**
 * A migrated database of its own, for tests that change reference data (providers, currencies)
 * other files rely on: `owner` acts as the database owner, `endpoint` is the handler's pool.
 */
export async function isolatedDatabase(name: string): Promise<{ owner: Sql; endpoint: Sql; url: string }> {
  const url = await freshMigratedDatabase(inject('databaseUrl'), `cgs_sessions_${name}`);
  await importFixtureCatalogue(url);
  const owner = postgres(url, { max: 2, onnotice: () => {} });
  const endpoint = connectDatabase(url, { max: 2 });
  afterAll(() => Promise.all([owner.end(), endpoint.end()]));
  return { owner, endpoint, url };
}

/**
 * Holds a row lock on the operator's key until released: a new key's first session waits on it
 * (create_game_session stamps last_used_at last), which makes the database slow on demand.
 */
export async function holdKey(sql: Sql, operator: Operator): Promise<() => Promise<void>> {
  let release!: () => void;
  let locked!: () => void;
  const lockTaken = new Promise<void>((resolve) => (locked = resolve));
  const done = sql.begin(async (tx) => {
    await tx`select 1 from public.api_key where id = ${operator.keyId} for update`;
    locked();
    await new Promise<void>((resolve) => (release = resolve));
  });
  await lockTaken;
  return async () => {
    release();
    await done;
  };
}
