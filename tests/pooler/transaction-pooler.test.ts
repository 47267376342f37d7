// The function behind a real transaction pooler (PgBouncer in transaction mode, as Supabase's pooler
// on port 6543), with one server connection that every client shares: the function's own pool
// (connectDatabase, prepared statements off) and the in-process app serve sessions, bets, wins,
// rollbacks, a seamless round, lists and a burst through it; statement_timeout still cancels a
// statement in Postgres; and nothing outlives a transaction on the shared server connection
// (no session settings, no session-level advisory locks).
import { randomUUID } from 'node:crypto';
import postgres from 'postgres';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { connectDatabase, type Sql } from '../../supabase/functions/_shared/database.ts';
import { createApp } from '../../supabase/functions/v3/app.ts';
import { createSessionTokenSigner } from '../../supabase/functions/v3/session-token.ts';
import { holdKey, newOperator, type Operator, sessionRequest, validBody, writesBy } from '../helpers/api.ts';
import { connect } from '../helpers/db.ts';
import { INSTALL_PGBOUNCER, PGBOUNCER, type PgBouncer, startPgBouncer } from '../helpers/pgbouncer.ts';
import { type ReferenceWallet, startReferenceWallet } from '../helpers/reference-wallet.ts';
import { describeWithTool } from '../helpers/tools.ts';

const owner = connect();
// What PgBouncer sets on a server connection for each client (its "tracked" start-up parameters).
const PGBOUNCER_TRACKED = ['application_name', 'client_encoding', 'DateStyle', 'TimeZone', 'standard_conforming_strings'];

await describeWithTool(PGBOUNCER, INSTALL_PGBOUNCER, 'behind PgBouncer in transaction mode', (binary) => {
  let bouncer: PgBouncer;
  let pool: Sql;
  let app: (request: Request) => Promise<Response>;
  let transfer: Operator;
  let seamless: Operator;
  let providerKey: string;
  let wallet: ReferenceWallet;
  const logged: Record<string, string>[] = [];

  beforeAll(async () => {
    bouncer = await startPgBouncer(binary, inject('databaseUrl'), { poolSize: 1 });
    pool = connectDatabase(bouncer.url, { max: 4, applicationName: 'cgs-v3-pooled' });
    const signer = await createSessionTokenSigner({ issuer: 'cgs-test' });
    app = createApp({
      sql: pool, signer, config: { allowPrivateUrls: true },
      logError: (_message, error) => logged.push(error as Record<string, string>),
    });
    [transfer, seamless] = await Promise.all([newOperator(owner, 'pooled'), newOperator(owner, 'pooled-seamless')]);
    await owner`insert into public.wallet (client_id, currency_code, is_primary) values (${transfer.account.id}, 'EUR', true)`;
    await owner`select * from public.record_transaction(${transfer.account.id}::uuid, 'EUR', 'deposit', 50::numeric)`;
    providerKey = (await owner`select key from public.issue_provider_key('pragmatic-play')`)[0].key;
    const setTo = (url: string) => owner`
      select * from private.change_wallet_settings(${seamless.account.id}, true, 'seamless', ${url}, false)`;
    const [{ secret }] = await setTo('https://wallet.operator.test/');
    wallet = await startReferenceWallet(secret);
    await setTo(wallet.url);
  });
  afterAll(async () => {
    await pool?.end();
    await wallet?.close();
    await bouncer?.stop();
  });

  const launch = async (operator: Operator) => {
    const response = await app(sessionRequest({ ...validBody, player_id: `player-${randomUUID()}` }, { key: operator.key }));
    expect(response.status).toBe(201);
    return new URL((await response.json()).launch_url).searchParams.get('token')!;
  };
  const provider = async (path: 'bets' | 'wins' | 'rollbacks', body: object) => {
    const response = await app(new Request(`http://api.test/v3/provider/${path}`, {
      method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${providerKey}` }, body: JSON.stringify(body),
    }));
    return { status: response.status, body: await response.json() };
  };
  const get = async (path: string, key: string) => {
    const response = await app(new Request(`http://api.test/v3/${path}`, { headers: { authorization: `Bearer ${key}` } }));
    return { status: response.status, body: await response.json() };
  };

  it('the function\'s own pool works through it: a statement answers, with its statement_timeout set', async () => {
    const [row] = await pool`select ${7}::int as n, current_setting('statement_timeout') as timeout`;
    expect(row).toEqual({ n: 7, timeout: '5s' });
  });

  it('serves a session, a bet, a win, a rollback and the lists of a transfer operator', async () => {
    const token = await launch(transfer);
    const round = `round-${randomUUID()}`;
    const bet = await provider('bets', { session_token: token, transaction_id: `bet-${randomUUID()}`, round_id: round, amount: '2' });
    expect(bet).toMatchObject({ status: 200, body: { balance: '48.0000', currency: 'EUR' } });
    const win = await provider('wins', { session_token: token, transaction_id: `win-${randomUUID()}`, round_id: round, amount: '5', round_closed: true });
    expect(win).toMatchObject({ status: 200, body: { balance: '53.0000' } });
    const rolled = `bet-${randomUUID()}`;
    await provider('bets', { session_token: token, transaction_id: rolled, round_id: `round-${randomUUID()}`, amount: '1' });
    const back = await provider('rollbacks', { session_token: token, transaction_id: `rb-${randomUUID()}`, rolled_back_transaction_id: rolled });
    expect(back).toMatchObject({ status: 200, body: { balance: '53.0000' } });

    const rounds = await get('rounds?limit=10', transfer.key);
    expect(rounds.status).toBe(200);
    expect(rounds.body.data.map((r: { round_id: string }) => r.round_id)).toContain(round);
    const sessions = await get('sessions', transfer.key);
    expect(sessions).toMatchObject({ status: 200, body: { data: [expect.objectContaining({ status: expect.any(String) })] } });
    expect((await get('transactions', transfer.key)).status).toBe(200);
    expect((await get('games?limit=2', transfer.key)).body.data).toHaveLength(2);
  });

  it('plays a seamless round: the bet and the win settle at the operator\'s wallet', async () => {
    const token = await launch(seamless);
    const round = `round-${randomUUID()}`;
    const bet = await provider('bets', { session_token: token, transaction_id: `bet-${randomUUID()}`, round_id: round, amount: '3' });
    expect(bet.status).toBe(200);
    const win = await provider('wins', { session_token: token, transaction_id: `win-${randomUUID()}`, round_id: round, amount: '4', round_closed: true });
    expect(win.status).toBe(200);
    expect(Number(win.body.balance) - Number(bet.body.balance)).toBe(4);
  });

  it('serves a burst larger than its one server connection: clients take turns by transaction', async () => {
    const answers = await Promise.all(Array.from({ length: 8 }, () => get('providers', transfer.key)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(200));
  });

  it('statement_timeout still cancels a statement in Postgres: a session stuck behind a lock is 503, nothing written', async () => {
    const signer = await createSessionTokenSigner({ issuer: 'cgs-test' });
    const impatient = connectDatabase(bouncer.url, { max: 1, statementTimeoutMs: 300 });
    const seen: Record<string, string>[] = [];
    try {
      const slowApp = createApp({ sql: impatient, signer, logError: (_message, error) => seen.push(error as Record<string, string>) });
      const stuck = await newOperator(owner, 'pooled-stuck');
      const release = await holdKey(owner, stuck); // a new key's first session waits on this row lock
      let response: Response;
      try {
        response = await slowApp(sessionRequest(validBody, { key: stuck.key }));
      } finally {
        await release();
      }
      expect(response.status).toBe(503);
      expect(await response.json()).toMatchObject({ code: 'service_unavailable', retryable: true });
      // Postgres cancelled it (57014), well before the pool's own deadline would have.
      expect(seen.map((error) => error.code)).toEqual(['57014']);
      expect(await writesBy(owner, stuck.account)).toEqual({ sessions: 0, idempotencyKeys: 0 });
    } finally {
      await impatient.end();
    }
  });

  it('nothing outlives a transaction on the shared server connection: no session settings, no advisory locks', async () => {
    // Session-level advisory locks in the engine would stay held by the server connection after
    // its transactions: the engine's functions use the transaction-level ones only.
    const [{ sessionLevel }] = await owner`
      select coalesce(array_agg(p.oid::regprocedure::text order by 1), '{}') as "sessionLevel"
      from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname in ('public', 'private')
        and (p.prosrc ~* '\\mpg_(try_)?advisory_lock(_shared)?\\s*\\(' or p.prosrc ~* 'set_config\\s*\\([^;]*,\\s*false\\s*\\)')`;
    expect(sessionLevel).toEqual([]);
    const [{ advisory }] = await owner`
      select count(*)::int as advisory from pg_locks l join pg_stat_activity a on a.pid = l.pid
      where l.locktype = 'advisory' and a.application_name like 'cgs-v3-pooled%'`;
    expect(advisory).toBe(0);
    // Everything above ran on this server connection (the pool has one): a plain client, outside
    // any transaction, finds it as a new session would be, but for the parameters PgBouncer itself
    // sets for each client it links to it.
    const plain = postgres(bouncer.url, { max: 1, prepare: false, onnotice: () => {} });
    try {
      const [state] = await plain`
        select (select coalesce(array_agg(name order by name), '{}') from pg_settings
                 where source = 'session' and name <> all(${PGBOUNCER_TRACKED}::text[])) as session_settings,
               current_setting('statement_timeout') as statement_timeout,
               (select count(*)::int from pg_prepared_statements) as prepared,
               (select count(*)::int from pg_listening_channels()) as listening,
               pg_my_temp_schema() = 0 as no_temp_schema`;
      expect(state).toEqual({ session_settings: [], statement_timeout: '0', prepared: 0, listening: 0, no_temp_schema: true });
    } finally {
      await plain.end();
    }
    expect(logged).toEqual([]);
  });
});
