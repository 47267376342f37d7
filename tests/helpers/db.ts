// Acting on the test database exactly as PostgREST does for a request: one transaction,
// `role` and `request.jwt.claims` set locally, then the statement.
import { randomUUID } from 'node:crypto';
import postgres, { type Sql, type TransactionSql } from 'postgres';
import { type Claims, openRequest } from '../../scripts/lib/postgrest.ts';
import { afterAll, inject } from 'vitest';

export type GrantMode = 'explicit grants' | 'legacy default grants';
export const grantModes: GrantMode[] = ['explicit grants', 'legacy default grants'];

/**
 * A connection pool (as the database owner, like the service). After the file's tests it removes
 * the accounts signUp created through it (so a shared TEST_DATABASE_URL is left as it was found)
 * and closes. Hooks register here, while the file is collected: vitest ignores an afterAll
 * registered later, from inside a hook or a test.
 */
export function connect(mode: GrantMode = 'explicit grants'): Sql {
  const url = mode === 'explicit grants' ? inject('databaseUrl') : inject('legacyGrantsDatabaseUrl');
  const sql = postgres(url, { max: 4, onnotice: () => {} });
  afterAll(async () => {
    await removeAccounts(sql);
    await sql.end();
  });
  return sql;
}

export interface Account {
  id: string;
  email: string;
}

/**
 * Anyone calling the API: a signed-in account, `anon` with no account, or `service_role`, the
 * service itself with the service key (no account either).
 */
export type Caller = Account | 'anon' | 'service_role';

/** An access token's claims, as Supabase Auth issued them at one moment. */
export interface Token {
  claims: Claims;
}

/**
 * Signs `account` in as Supabase Auth does: the default claims, then the custom access token hook,
 * called as supabase_auth_admin. The token keeps what the hook said then, however the account
 * changes later (until it is refreshed: sign in again).
 */
export async function signIn(sql: Sql, account: Account): Promise<Token> {
  const claims = { sub: account.id, role: 'authenticated', aud: 'authenticated', email: account.email, iss: 'supabase' };
  const [row] = await sql.begin(async (tx) => {
    await tx`set local role supabase_auth_admin`;
    const event = { user_id: account.id, claims, authentication_method: 'password' };
    return tx`select private.custom_access_token_hook(${tx.json(event)}) as result`;
  });
  return { claims: row.result.claims };
}

function isToken(caller: Caller | Token): caller is Token {
  return typeof caller === 'object' && 'claims' in caller;
}

/**
 * Runs `fn` as PostgREST would for a request by `caller`, in one committed transaction: the role
 * and claims of its token set locally, then the pre-request function, then `fn`. An account signs
 * in afresh; a Token is used as it is (a token issued earlier).
 */
export async function as<T>(sql: Sql, caller: Caller | Token, fn: (tx: TransactionSql) => Promise<T>): Promise<T> {
  const claims = isToken(caller)
    ? caller.claims
    : typeof caller === 'string'
      ? { role: caller, iss: 'supabase' }
      : (await signIn(sql, caller)).claims;
  return sql.begin(async (tx) => {
    await openRequest(tx, claims);
    return fn(tx);
  }) as Promise<T>;
}

export type AppRole = 'admin' | 'manager' | 'client';

/** Signs an account up the way Supabase Auth does: as supabase_auth_admin, search_path auth. */
export async function signUp(
  sql: Sql,
  name: string,
  options: { email?: string | null; metadata?: Record<string, unknown>; roles?: AppRole[] } = {},
): Promise<Account> {
  const id = randomUUID();
  const email = options.email === undefined ? `${name}.${id.slice(0, 8)}@example.test` : options.email;
  await sql.begin(async (tx) => {
    await tx`set local role supabase_auth_admin`;
    await tx`set local search_path = auth`;
    await tx.unsafe(
      `insert into users (id, aud, role, email, raw_user_meta_data, raw_app_meta_data, created_at, updated_at)
       values ($1, 'authenticated', 'authenticated', $2, $3::text::jsonb, '{"provider":"email"}', now(), now())`,
      [id, email, JSON.stringify(options.metadata ?? {})] as never[],
    );
  });
  for (const role of options.roles ?? []) {
    await sql`insert into public.user_role (user_id, role) values (${id}, ${role}) on conflict do nothing`;
  }
  registerForCleanup(sql, id);
  return { id, email: email ?? '' };
}

const created = new WeakMap<Sql, string[]>();
function registerForCleanup(sql: Sql, id: string) {
  created.set(sql, [...(created.get(sql) ?? []), id]);
}

// Staff-authored messages keep an account from being deleted (by design), so they go first.
async function removeAccounts(sql: Sql) {
  const ids = created.get(sql) ?? [];
  created.delete(sql);
  if (!ids.length) return;
  await sql`delete from public.support_ticket_message where author_id = any(${ids}::uuid[])`;
  await sql`delete from auth.users where id = any(${ids}::uuid[])`;
}

/** The fixed identities: alice the client, eve the other client, mona the manager, adam the admin. */
export interface Cast {
  alice: Account;
  eve: Account;
  mona: Account;
  adam: Account;
}

export async function cast(sql: Sql): Promise<Cast> {
  const [alice, eve, mona, adam] = await Promise.all([
    signUp(sql, 'alice'),
    signUp(sql, 'eve'),
    signUp(sql, 'mona', { roles: ['manager'] }),
    signUp(sql, 'adam', { roles: ['admin'] }),
  ]);
  return { alice, eve, mona, adam };
}

/** The SQLSTATE of a rejected statement, or 'ok' when it went through. */
export async function outcome(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
    return 'ok';
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (!code) throw error;
    return code;
  }
}

/**
 * Resolves 'blocked' once some backend waits on a lock the backend `pid` holds (polled, not timed);
 * given `finished` (the call expected to wait), 'finished' if that settles first without waiting.
 */
export async function untilBlockedBy(sql: Sql, pid: number, finished?: Promise<unknown>): Promise<'blocked' | 'finished'> {
  let settled = false;
  finished?.then(() => (settled = true), () => (settled = true));
  for (;;) {
    const [{ blocked }] = await sql`
      select exists (select 1 from pg_stat_activity a where ${pid}::int = any (pg_blocking_pids(a.pid))) as blocked`;
    if (blocked) return 'blocked';
    if (settled) return 'finished';
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
