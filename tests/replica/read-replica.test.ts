// Reads that may lag go to DATABASE_READ_URL, against a real streaming replica (a base backup of a
// primary of its own, streaming from it): the catalogue and the lists (sessions, rounds,
// transactions, events) answer what the primary had once the replica caught up; while its replay is
// paused a caller sees the lists as they were, and money (the provider balance, a bet), session
// creation and a session read still see the latest, from the primary; no write reaches the read pool.
import { randomUUID } from 'node:crypto';
import type { Sql as Client } from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareDatabase } from '../../scripts/lib/database.ts';
import { importFixtureCatalogue } from '../../scripts/lib/fixture-catalogue.ts';
import { connectDatabase, readDatabaseUrlFromEnv, type Sql } from '../../supabase/functions/_shared/database.ts';
import { createApp } from '../../supabase/functions/v3/app.ts';
import { createSessionTokenSigner } from '../../supabase/functions/v3/session-token.ts';
import { newOperator, type Operator, sessionRequest, validBody } from '../helpers/api.ts';
import { type ReplicatedPair, startReplicatedPair } from '../helpers/replica.ts';

const GAME = { provider: 'pragmatic-play', code: 'vs20olympgate' };
let pair: ReplicatedPair;
let owner: Client;
let primaryPool: Sql;
let replicaPool: Sql;
let app: (request: Request) => Promise<Response>;
let operator: Operator;
let providerKey: string;
/** Every statement the read pool was given. */
const reads: string[] = [];

beforeAll(async () => {
  pair = await startReplicatedPair('read-replica', async (url) => {
    await prepareDatabase(url);
    await importFixtureCatalogue(url);
  });
  owner = pair.primarySql;
  primaryPool = connectDatabase(pair.primary.url, { max: 3 });
  replicaPool = connectDatabase(pair.replica.url, { max: 3, applicationName: 'cgs-v3-read' });
  const recorded = new Proxy(replicaPool, {
    apply: (target, self, [strings, ...args]) => {
      reads.push((strings as string[]).join('$'));
      return Reflect.apply(target, self, [strings, ...args]);
    },
  });
  const signer = await createSessionTokenSigner({ issuer: 'cgs-test' });
  app = createApp({ sql: primaryPool, readSql: recorded, signer, config: { allowPrivateUrls: true } });
  operator = await newOperator(owner, 'replica');
  await owner`insert into public.wallet (client_id, currency_code, is_primary) values (${operator.account.id}, 'EUR', true)`;
  await owner`select * from public.record_transaction(${operator.account.id}::uuid, 'EUR', 'deposit', 50::numeric)`;
  providerKey = (await owner`select key from public.issue_provider_key('pragmatic-play')`)[0].key;
  await pair.caughtUp();
});
afterAll(async () => {
  await Promise.all([primaryPool?.end(), replicaPool?.end()]);
  await pair?.stop();
});

const get = async (path: string, key = operator.key) => {
  const response = await app(new Request(`http://api.test/v3/${path}`, { headers: { authorization: `Bearer ${key}` } }));
  return { status: response.status, body: await response.json() };
};
const post = async (path: string, body: object, key: string) => {
  const response = await app(new Request(`http://api.test/v3/${path}`, {
    method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` }, body: JSON.stringify(body),
  }));
  return { status: response.status, body: await response.json() };
};
const renameGame = (name: string) =>
  owner`update public.game g set name = ${name} from public.game_provider p
        where p.id = g.provider_id and p.slug = ${GAME.provider} and g.code = ${GAME.code}`;
const gameName = async () => (await get(`games/${GAME.provider}:${GAME.code}`)).body.name as string;
const launch = async () => {
  const response = await app(sessionRequest({ ...validBody, player_id: `player-${randomUUID()}` }, { key: operator.key }));
  expect(response.status).toBe(201);
  const session = await response.json();
  return { id: session.id as string, token: new URL(session.launch_url).searchParams.get('token')! };
};
const sessionIds = async () => (await get('sessions?limit=100')).body.data.map((s: { id: string }) => s.id) as string[];

describe('reads that may lag, on the replica', () => {
  it('a catalogue read answers what the primary had, once the replica caught up', async () => {
    const name = `Olympus ${randomUUID()}`;
    await renameGame(name);
    await pair.caughtUp();
    reads.length = 0;
    expect(await gameName()).toBe(name);
    expect(reads).toEqual([expect.stringContaining('private.read_game(')]);
  });

  it('while the replica lags, the lists show the older state; money, creation and a session read see the latest', async () => {
    const before = await gameName();
    const earlier = await launch();
    await pair.caughtUp();
    expect(await sessionIds()).toContain(earlier.id);

    await pair.pauseReplay();
    try {
      await renameGame(`Renamed ${randomUUID()}`);
      const later = await launch(); // written on the primary
      const bet = await post('provider/bets', {
        session_token: later.token, transaction_id: `bet-${randomUUID()}`, round_id: `round-${randomUUID()}`, amount: '2',
      }, providerKey);
      expect(bet).toMatchObject({ status: 200, body: { balance: '48.0000' } });
      // The replica has the WAL of none of it applied (its replay stopped before).
      expect(await pair.replayed(await pair.primaryLsn())).toBe(false);

      // What a caller sees while the replica lags: the lists and the catalogue as they were ...
      expect(await gameName()).toBe(before);
      const listed = await sessionIds();
      expect(listed).toContain(earlier.id);
      expect(listed).not.toContain(later.id);
      expect((await get('rounds')).body.data).toEqual([]);
      expect((await get('transactions')).body.data.map((t: { type: string }) => t.type)).toEqual(['deposit']);
      // ... and money, and the session it just created, as they are.
      const balance = await get(`provider/balance?session_token=${later.token}`, providerKey);
      expect(balance).toMatchObject({ status: 200, body: { balance: '48.0000', currency: 'EUR' } });
      expect((await get(`sessions/${later.id}`)).status).toBe(200);
      expect((await get('wallets')).body.data).toEqual([expect.objectContaining({ currency: 'EUR', balance: '48.0000' })]);
    } finally {
      await pair.resumeReplay();
    }
    await pair.caughtUp();
    expect(await sessionIds()).toHaveLength(2);
    expect((await get('rounds')).body.data).toHaveLength(1);
    expect(await gameName()).not.toBe(before);
  });

  it('no write, and no read that money or a key depends on, reaches the read pool', async () => {
    reads.length = 0;
    const session = await launch();
    const round = `round-${randomUUID()}`;
    const bet = `bet-${randomUUID()}`;
    const answers = [
      await post('provider/bets', { session_token: session.token, transaction_id: bet, round_id: round, amount: '1' }, providerKey),
      await post('provider/wins', { session_token: session.token, transaction_id: `win-${randomUUID()}`, round_id: round, amount: '1' }, providerKey),
      await post('provider/rollbacks', { session_token: session.token, transaction_id: `rb-${randomUUID()}`, rolled_back_transaction_id: `bet-${randomUUID()}` }, providerKey),
      await get(`provider/balance?session_token=${session.token}`, providerKey),
      await post('webhook-endpoints', { url: 'https://hooks.operator.test/cgs' }, operator.key),
      await post(`sessions/${session.id}/close`, {}, operator.key),
      await get(`sessions/${session.id}`),
      await get('wallets'),
      await get('wallet-settings'),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 201, 200, 200, 200, 200]);
    expect(reads).toEqual([]);

    // The reads that may lag do go there, each one statement.
    for (const path of ['games', 'providers', 'currencies', 'jurisdictions', 'sessions', 'rounds', 'transactions', 'events']) {
      expect((await get(path)).status, path).toBe(200);
    }
    // Named by the function the statement reads from (a reference check may come before it).
    expect(reads.map((statement) => /from private\.(\w+)\(/.exec(statement)?.[1])).toEqual([
      'list_games', 'list_providers', 'list_currencies', 'list_jurisdictions', 'list_game_sessions', 'list_rounds', 'list_transactions',
      'list_events',
    ]);
  });
});

describe('DATABASE_READ_URL', () => {
  const from = (value: string | undefined) => readDatabaseUrlFromEnv((name) => (name === 'DATABASE_READ_URL' ? value : undefined));

  it('is a postgres URL, or unset (reads go to the primary)', () => {
    expect(from(undefined)).toBeUndefined();
    expect(from('postgresql://reader:pw@replica.internal:6543/postgres')).toBe('postgresql://reader:pw@replica.internal:6543/postgres');
    expect(from('postgres://replica.internal/postgres')).toBe('postgres://replica.internal/postgres');
  });

  it.each(['replica.internal:5432', 'https://replica.internal/', 'postgresql://', 'not a url'])('stops the start-up on %j, naming it', (value) => {
    expect(() => from(value)).toThrow(/DATABASE_READ_URL/);
  });
});
