// The sandbox's ledger (issue 37, item 3), in-process against the test database: test play and the
// operator's setting of test balances move a test float per currency (the sum of its test
// players' balances) through a test ledger, as live play moves the float through the ledger, and
// neither ever sees the other's money. A reset empties it.
import { createHash, randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectResponseMatches, type OperationId } from '../openapi/contract.ts';
import { connect, untilBlockedBy } from '../helpers/db.ts';
import { issueKey, newOperator, type Operator, sessionRequest, sessionsHandler, validBody } from '../helpers/api.ts';

const sql = connect();
const { handle } = await sessionsHandler();
let operator: Operator;
let testKey: string;
let providerKey: string;

beforeAll(async () => {
  operator = await newOperator(sql, 'test-ledger');
  testKey = (await issueKey(sql, operator.account, 'Sandbox', false)).key;
  await sql`insert into public.wallet (client_id, currency_code) values (${operator.account.id}, 'EUR')`;
  await sql`select * from public.record_transaction(${operator.account.id}::uuid, 'EUR', 'deposit', 500::numeric)`;
  providerKey = (await sql`select key from public.issue_provider_key('pragmatic-play')`)[0].key;
});

async function call(operationId: OperationId, path: string, body: object | null, key: string) {
  const response = await handle(new Request(`http://api.test/v3${path}`, {
    method: body ? 'POST' : 'GET', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  }));
  const json = await response.json();
  expectResponseMatches(operationId, response, json);
  return { status: response.status, body: json };
}
const player = (body: object, key = testKey) => call('createSandboxPlayer', '/sandbox/players', body, key);
async function testSession(playerId: string, currency = 'EUR'): Promise<string> {
  const response = await handle(sessionRequest({ ...validBody, player_id: playerId, currency }, { key: testKey }));
  return new URL((await response.json()).launch_url).searchParams.get('token')!;
}
const provider = (path: 'bets' | 'wins' | 'rollbacks', body: object) => call(
  ({ bets: 'providerBet', wins: 'providerWin', rollbacks: 'providerRollback' } as const)[path], `/provider/${path}`, body, providerKey);

/** The client's test ledger in one currency, in the order it was recorded. */
const testLines = (clientId: string, currency = 'EUR') => sql<{ id: string; type: string; amount: string; balance_after: string; note: string }[]>`
  select id, type, amount::text, balance_after::text, note from public.sandbox_transaction
  where client_id = ${clientId} and currency_code = ${currency} order by ledger_seq`;
/** The test float, the sum of the test players' balances, and the sum of the test ledger, in one currency. */
const sums = async (clientId: string, currency = 'EUR') => (await sql`
  select (select balance::text from public.sandbox_wallet where client_id = ${clientId} and currency_code = ${currency}) as float,
         (select coalesce(sum(balance), 0)::numeric(20, 4)::text from public.sandbox_player
          where client_id = ${clientId} and currency_code = ${currency}) as players,
         (select coalesce(sum(amount), 0)::numeric(20, 4)::text from public.sandbox_transaction
          where client_id = ${clientId} and currency_code = ${currency}) as ledger`)[0];
const liveLedger = async (clientId: string) => (await sql`
  select (select count(*)::int from public.transaction where client_id = ${clientId}) as lines,
         (select balance::text from public.wallet where client_id = ${clientId} and currency_code = 'EUR') as float`)[0];

describe('the test ledger', () => {
  it('records test play and the balances the operator sets, each line the test float after it; the live ledger untouched', async () => {
    const client = await newOperator(sql, 'test-ledger-play');
    const key = (await issueKey(sql, client.account, 'Sandbox', false)).key;
    const [a, b] = [`a-${randomUUID()}`, `b-${randomUUID()}`];
    await player({ player_id: a, currency: 'EUR', balance: '50' }, key);
    await player({ player_id: b, currency: 'EUR', balance: '20.5' }, key);
    const live = await liveLedger(client.account.id);
    const token = new URL((await (await handle(sessionRequest({ ...validBody, player_id: a }, { key }))).json()).launch_url)
      .searchParams.get('token')!;
    const [round, bet, other, rollback, win] = [randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    expect(await provider('bets', { session_token: token, transaction_id: bet, round_id: round, amount: '20' }))
      .toMatchObject({ status: 200, body: { balance: '30.0000' } });
    expect(await provider('bets', { session_token: token, transaction_id: other, round_id: round, amount: '5.25' }))
      .toMatchObject({ body: { balance: '24.7500' } });
    expect(await provider('rollbacks', { session_token: token, transaction_id: rollback, rolled_back_transaction_id: other }))
      .toMatchObject({ body: { balance: '30.0000' } });
    expect(await provider('wins', { session_token: token, transaction_id: win, round_id: round, amount: '45', round_closed: true }))
      .toMatchObject({ body: { balance: '75.0000' } });
    // The operator sets b's balance lower, then a's higher: a withdraw, then a deposit, of the difference.
    await player({ player_id: b, currency: 'EUR', balance: '0.5' }, key);
    await player({ player_id: a, currency: 'EUR', balance: '100', behaviour: 'insufficient_funds' }, key);
    // The same balance again (a behaviour changed) moves nothing.
    await player({ player_id: a, currency: 'EUR', balance: '100.0000' }, key);

    const lines = await testLines(client.account.id);
    expect(lines.map(({ type, amount, balance_after }) => [type, amount, balance_after])).toEqual([
      ['deposit', '50.0000', '50.0000'],
      ['deposit', '20.5000', '70.5000'],
      ['bet', '-20.0000', '50.5000'],
      ['bet', '-5.2500', '45.2500'],
      ['adjustment', '5.2500', '50.5000'],
      ['win', '45.0000', '95.5000'],
      ['withdraw', '-20.0000', '75.5000'],
      ['deposit', '25.0000', '100.5000'],
    ]);
    expect(lines[0].note).toBe(`test player ${a} opened with 50.0000`);
    expect(lines[6].note).toBe(`test player ${b} set to 0.5000 (was 20.5000)`);
    expect(await sums(client.account.id)).toEqual({ float: '100.5000', players: '100.5000', ledger: '100.5000' });
    // Each round transaction names its test line, as a live one names its ledger line.
    const named = await sql`
      select t.transaction_id, t.ledger_transaction_id from public.round_transaction t
      where t.client_id = ${client.account.id} order by t.created_at, t.id`;
    expect(Object.fromEntries(named.map((t) => [t.transaction_id, t.ledger_transaction_id])))
      .toEqual({ [bet]: lines[2].id, [other]: lines[3].id, [rollback]: lines[4].id, [win]: lines[5].id });
    // No live line, no live float moved; no test line in the live ledger.
    expect(await liveLedger(client.account.id)).toEqual(live);
    expect(await sql`select 1 from public.transaction where id in ${sql(lines.map((l) => l.id))}`).toEqual([]);
  });

  it('keeps the test float the sum of its players\' balances under concurrent play', async () => {
    const client = await newOperator(sql, 'test-ledger-concurrent');
    const key = (await issueKey(sql, client.account, 'Sandbox', false)).key;
    const players = [`c-${randomUUID()}`, `d-${randomUUID()}`];
    for (const id of players) await player({ player_id: id, currency: 'EUR', balance: '100' }, key);
    const tokens = await Promise.all(players.map(async (id) =>
      new URL((await (await handle(sessionRequest({ ...validBody, player_id: id }, { key }))).json()).launch_url).searchParams.get('token')!));
    const answers = await Promise.all(tokens.flatMap((token) => Array.from({ length: 8 }, (_, i) =>
      provider('bets', { session_token: token, transaction_id: randomUUID(), round_id: randomUUID(), amount: `${i + 1}.5` }))));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    // Each player bet 1.5 + 2.5 + ... + 8.5 = 40.
    expect(await sums(client.account.id)).toEqual({ float: '120.0000', players: '120.0000', ledger: '120.0000' });
    // The chain, in the order of recording: each line's balance after is the one before it moved by its amount.
    expect(await sql`
      select ledger_seq from (
        select ledger_seq, balance_after, amount, lag(balance_after, 1, 0::numeric) over (order by ledger_seq) as before
        from public.sandbox_transaction where client_id = ${client.account.id}) l
      where balance_after <> before + amount`).toEqual([]);
    expect((await testLines(client.account.id)).length).toBe(18);
  });

  it('refuses a test balance that would take the test float to 10^16 (400 on balance), nothing written', async () => {
    const client = await newOperator(sql, 'test-ledger-cap');
    const key = (await issueKey(sql, client.account, 'Sandbox', false)).key;
    await player({ player_id: 'rich-1', currency: 'EUR', balance: '9000000000000000' }, key);
    const before = await testLines(client.account.id);
    expect(await player({ player_id: 'rich-2', currency: 'EUR', balance: '1000000000000000' }, key)).toMatchObject({
      status: 400, body: { code: 'validation_failed', errors: [{ pointer: '#/balance', code: 'invalid_range' }] },
    });
    expect(await player({ player_id: 'rich-1', currency: 'EUR', balance: '9999999999999999.9999' }, key)).toMatchObject({ status: 200 });
    expect(await player({ player_id: 'rich-3', currency: 'EUR', balance: '0.0001' }, key)).toMatchObject({ status: 400 });
    expect(await sql`select player_id from public.sandbox_player where client_id = ${client.account.id}`).toEqual([{ player_id: 'rich-1' }]);
    expect((await testLines(client.account.id)).length).toBe(before.length + 1);
    expect(await sums(client.account.id)).toMatchObject({ float: '9999999999999999.9999', ledger: '9999999999999999.9999' });
  });

  it('is what GET /v3/wallets and GET /v3/transactions answer a test key, as the float and ledger a live key; the reconciliation names its lines', async () => {
    const client = await newOperator(sql, 'test-ledger-reads');
    const key = (await issueKey(sql, client.account, 'Sandbox', false)).key;
    await sql`insert into public.wallet (client_id, currency_code, is_primary) values (${client.account.id}, 'EUR', true)`;
    await sql`select * from public.record_transaction(${client.account.id}::uuid, 'EUR', 'deposit', 70::numeric)`;
    const id = `g-${randomUUID()}`;
    await player({ player_id: id, currency: 'USD', balance: '5' }, key);
    await player({ player_id: id, currency: 'EUR', balance: '40' }, key);
    const token = new URL((await (await handle(sessionRequest({ ...validBody, player_id: id }, { key }))).json()).launch_url)
      .searchParams.get('token')!;
    const round = randomUUID();
    await provider('bets', { session_token: token, transaction_id: randomUUID(), round_id: round, amount: '2.5' });
    await provider('wins', { session_token: token, transaction_id: randomUUID(), round_id: round, amount: '10', round_closed: true });

    const wallets = await call('listWallets', '/wallets', null, key);
    expect(wallets.body.data).toEqual([
      { currency: 'EUR', balance: '47.5000', is_primary: false, updated_at: expect.any(String) },
      { currency: 'USD', balance: '5.0000', is_primary: false, updated_at: expect.any(String) },
    ]);
    expect((await call('listWallets', '/wallets', null, client.key)).body.data).toEqual([
      { currency: 'EUR', balance: '70.0000', is_primary: true, updated_at: expect.any(String) },
    ]);
    const stored = await testLines(client.account.id);
    const ledger = (await call('listTransactions', '/transactions?currency=EUR', null, key)).body.data;
    expect(ledger.map((t: { id: string; type: string; amount: string; balance_after: string; reference: null }) =>
      [t.id, t.type, t.amount, t.balance_after, t.reference])).toEqual([
      [stored[2].id, 'win', '10.0000', '47.5000', null],
      [stored[1].id, 'bet', '-2.5000', '37.5000', null],
      [stored[0].id, 'deposit', '40.0000', '40.0000', null],
    ]);
    expect(ledger[2].note).toBe(`test player ${id} opened with 40.0000`);
    // Pages by the test ledger's own order; filters as the live ledger's.
    const first = (await call('listTransactions', '/transactions?limit=2', null, key)).body;
    expect(first.data.map((t: { type: string; currency: string }) => `${t.type} ${t.currency}`)).toEqual(['win EUR', 'bet EUR']);
    const second = (await call('listTransactions', `/transactions?limit=2&cursor=${first.next_cursor}`, null, key)).body;
    expect(second.data.map((t: { type: string; currency: string }) => `${t.type} ${t.currency}`)).toEqual(['deposit EUR', 'deposit USD']);
    expect(second.has_more).toBe(false);
    expect((await call('listTransactions', '/transactions?type=bet', null, key)).body.data).toHaveLength(1);
    // The live key: its own deposit, never a test line.
    const live = (await call('listTransactions', '/transactions', null, client.key)).body.data;
    expect(live.map((t: { type: string; amount: string }) => [t.type, t.amount])).toEqual([['deposit', '70.0000']]);
    // The test reconciliation's lines name the test ledger's lines, each the movement it made.
    const day = new Date().toISOString().slice(0, 10);
    const lines = (await call('listReconciliationTransactions', `/reconciliation/transactions?date=${day}`, null, key)).body.data;
    expect(lines.map((l: { type: string; moved: string; ledger_transaction_id: string }) => [l.type, l.moved, l.ledger_transaction_id]))
      .toEqual(expect.arrayContaining([['bet', '-2.5000', stored[1].id], ['win', '10.0000', stored[2].id]]));
    expect(lines).toHaveLength(2);
  });

  it('never leaves a test player without its test float when a reset meets a new player being made', async () => {
    const client = await newOperator(sql, 'test-ledger-race');
    const key = (await issueKey(sql, client.account, 'Sandbox', false)).key;
    const hash = createHash('sha256').update(key).digest('hex');
    await player({ player_id: 'old', currency: 'EUR', balance: '3' }, key);
    // A new player is made and holds its test float, not yet committed; a reset comes meanwhile.
    let commit!: () => void;
    const committing = new Promise<void>((resolve) => (commit = resolve));
    let holding!: (pid: number) => void;
    const holder = new Promise<number>((resolve) => (holding = resolve));
    const making = sql.begin(async (t) => {
      await t`select * from private.put_sandbox_player(${hash}, 'new', 'EUR', 5, 'normal')`;
      holding((await t`select pg_backend_pid() as pid`)[0].pid);
      await committing;
    });
    const pid = await holder;
    // postgres.js sends a query when it is awaited or then'd: then, so it is sent now.
    const resetting = sql`select outcome, body from private.reset_sandbox(${hash})`.then((rows) => rows);
    await untilBlockedBy(sql, pid);
    commit();
    await making;
    const [answer] = await resetting;
    // The reset waited for the new player, then removed it with the rest: nothing is left behind.
    expect(JSON.parse(answer.body).removed.players).toBe(2);
    expect(await sql`select player_id from public.sandbox_player where client_id = ${client.account.id}`).toEqual([]);
    expect(await sql`select 1 from public.sandbox_wallet where client_id = ${client.account.id}`).toEqual([]);
    // And the sandbox plays again from scratch.
    await player({ player_id: 'new', currency: 'EUR', balance: '4' }, key);
    expect(await sums(client.account.id)).toEqual({ float: '4.0000', players: '4.0000', ledger: '4.0000' });
  });

  it('is emptied by a reset, with the test players; live money and other clients\' test ledgers untouched', async () => {
    const id = `r-${randomUUID()}`;
    await player({ player_id: id, currency: 'EUR', balance: '10' });
    await player({ player_id: id, currency: 'USD', balance: '3' });
    const token = await testSession(id);
    await provider('bets', { session_token: token, transaction_id: randomUUID(), round_id: randomUUID(), amount: '1' });
    const other = await newOperator(sql, 'test-ledger-other');
    const othersKey = (await issueKey(sql, other.account, 'Sandbox', false)).key;
    await player({ player_id: id, currency: 'EUR', balance: '7' }, othersKey);
    const live = await liveLedger(operator.account.id);
    expect((await testLines(operator.account.id)).length).toBeGreaterThan(0);

    expect(await call('resetSandbox', '/sandbox/reset', {}, testKey)).toMatchObject({ status: 200 });
    expect(await testLines(operator.account.id)).toEqual([]);
    expect(await testLines(operator.account.id, 'USD')).toEqual([]);
    expect(await sql`select 1 from public.sandbox_wallet where client_id = ${operator.account.id}`).toEqual([]);
    expect(await liveLedger(operator.account.id)).toEqual(live);
    expect(await sums(other.account.id)).toEqual({ float: '7.0000', players: '7.0000', ledger: '7.0000' });
    // A new test player after the reset starts a new test float.
    await player({ player_id: id, currency: 'EUR', balance: '2' });
    expect((await testLines(operator.account.id)).map((l) => [l.type, l.amount, l.balance_after])).toEqual([['deposit', '2.0000', '2.0000']]);
  });
});
