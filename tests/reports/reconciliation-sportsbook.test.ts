// GET /v3/reconciliation/transactions for the sportsbook's calls the other reconciliation tests
// leave out, in-process against the test database, each answer held to the OpenAPI document: a
// seamless discard of a reserved stake (the rollback's line moves the stake back once the wallet
// took it, nothing before); a seamless clawback the operator's wallet refused for funds (owed: its
// line moved nothing, and the payouts that later pay the debt move only what was credited); and
// test-mode bets, whose lines are the test ledger's, seen by the test key alone (the live key's are
// the float's, seen by the live key alone). In each, the day's `moved` is what the wallet moved.
import { createHash, randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectResponseMatches } from '../openapi/contract.ts';
import { connect } from '../helpers/db.ts';
import { issueKey, newOperator, type Operator, sessionsHandler } from '../helpers/api.ts';
import { launchToken } from '../helpers/provider-api.ts';
import { engine, sportsbookGame } from '../sportsbook/sportsbook.ts';

const sql = connect();
const { handle } = await sessionsHandler();
const id = (prefix: string) => `${prefix}-${randomUUID()}`;
const today = new Date().toISOString().slice(0, 10);
let keyHash: string;
let game: string;
let book: ReturnType<typeof engine>;

interface Line {
  transaction_id: string; type: string; round_id: string; amount: string; moved: string; wallet_mode: string;
  ledger_transaction_id: string | null; wallet_call: { action: string; status: string; balance: string | null } | null;
}
interface Page { data: Line[]; totals: { currency: string; transactions: number; moved: string }[] }

beforeAll(async () => {
  keyHash = createHash('sha256').update((await sql`select key from public.issue_provider_key('pragmatic-play')`)[0].key).digest('hex');
  game = await sportsbookGame(sql);
  book = engine(sql, () => keyHash);
});

/** Today's reconciliation as `key` reads it (one page), held to the document. */
async function reconciliation(key: string): Promise<Page> {
  const response = await handle(new Request(`http://api.test/v3/reconciliation/transactions?date=${today}`,
    { headers: { authorization: `Bearer ${key}` } }));
  const body = await response.json();
  expectResponseMatches('listReconciliationTransactions', response, body);
  expect(response.status).toBe(200);
  return body;
}

/** A live operator in seamless mode, and a session of its player on the sportsbook. */
async function seamlessBook(name: string): Promise<{ operator: Operator; session: string }> {
  const operator = await newOperator(sql, name);
  await sql`select * from private.change_wallet_settings(${operator.account.id}, true, 'seamless', 'https://wallet.example/cgs', false)`;
  const [session] = await sql`insert into public.game_session (client_id, livemode, player_id, provider_id, game, currency_code, status, expires_at)
    select ${operator.account.id}, true, ${id('player')}, id, ${game}, 'EUR', 'active', now() + interval '1 hour'
    from public.game_provider where slug = 'pragmatic-play' returning id`;
  return { operator, session: session.id };
}

/** The operator's wallet answers a call the engine queued: `accepted`, `failed` or `refused` (with its code). */
async function answer(queued: { outcome: string; body: Record<string, unknown> | null }, status: string, balance: string,
  code: string | null = null) {
  expect(queued.outcome).toBe('wallet_call');
  await sql`select * from private.finish_wallet_call(${queued.body!.call_id as string}::uuid, ${queued.body!.attempt as number}, ${status},
    ${balance}, ${code}, ${status === 'failed' ? 'down' : null})`;
}

const described = (page: Page) => page.data.map((l) => [l.type, l.amount, l.moved, l.wallet_call && `${l.wallet_call.action} ${l.wallet_call.status}`]);

describe('reconciliation of the sportsbook in seamless mode', () => {
  it('moves a discarded reservation\'s stake back once the wallet took the rollback, nothing before, so the day nets to what the wallet kept', async () => {
    const { operator, session } = await seamlessBook('recon-seamless-discard');
    const [dropped, stranded] = [id('bet'), id('bet')];
    await answer(await book.place(session, dropped, id('place'), '10', { twoPhase: true }), 'accepted', '90.0000');
    const discarding = await book.discard(dropped, id('discard'));
    // The rollback sent, not yet taken: the stake is still the operator's.
    const pending = await reconciliation(operator.key);
    expect(described(pending)).toEqual([
      ['sportsbook_place', '10.0000', '-10.0000', 'debit accepted'], ['sportsbook_discard', '10.0000', '0.0000', 'rollback pending'],
    ]);
    expect(pending.totals).toEqual([expect.objectContaining({ currency: 'EUR', transactions: 2, moved: '-10.0000' })]);
    await answer(discarding, 'accepted', '100.0000');
    // A second reservation whose rollback the wallet fails (to be sent again): its stake is still taken.
    await answer(await book.place(session, stranded, id('place'), '4.25', { twoPhase: true }), 'accepted', '95.7500');
    await answer(await book.discard(stranded, id('discard')), 'failed', '95.7500');
    const page = await reconciliation(operator.key);
    expect(page.data.map((l) => `${l.round_id === dropped ? 'dropped' : 'stranded'} ${l.type} ${l.moved}`)).toEqual([
      'dropped sportsbook_place -10.0000', 'dropped sportsbook_discard 10.0000',
      'stranded sportsbook_place -4.2500', 'stranded sportsbook_discard 0.0000',
    ]);
    expect(page.data[1]).toMatchObject({ wallet_mode: 'seamless', ledger_transaction_id: null,
      wallet_call: { action: 'rollback', status: 'accepted', balance: '100.0000' } });
    expect(page.data[3].wallet_call).toMatchObject({ action: 'rollback', status: 'pending' });
    expect(page.totals).toEqual([{ currency: 'EUR', transactions: 4, bets: '0.0000', wins: '0.0000', rollbacks: '0.0000', moved: '-4.2500' }]);
  });

  it('moves nothing for a clawback the wallet refused for funds, and only what was credited of the payouts that pay it back', async () => {
    const { operator, session } = await seamlessBook('recon-seamless-owed');
    const [first, second, third] = [id('bet'), id('bet'), id('bet')];
    await answer(await book.place(session, first, id('place'), '10', { odds: '3', potential: '30' }), 'accepted', '90.0000');
    await answer(await book.place(session, second, id('place'), '10', { odds: '2', potential: '20' }), 'accepted', '80.0000');
    await answer(await book.place(session, third, id('place'), '10', { odds: '6', potential: '60' }), 'accepted', '70.0000');
    await answer(await book.settle(first, id('settle'), 'won', '30'), 'accepted', '100.0000');
    await answer(await book.settle(second, id('settle'), 'won', '20'), 'accepted', '120.0000');
    // The player spends it elsewhere: the wallet cannot cover either clawback, a resettlement's or an unsettlement's.
    await answer(await book.settle(first, id('resettle'), 'lost', '0'), 'refused', '5.0000', 'insufficient_funds');
    await answer(await book.unsettle(second, id('unsettle')), 'refused', '5.0000', 'insufficient_funds');
    // 50 owed: a payout of 25 is all withheld (no call), a rise of 35 pays the other 25 and credits 10.
    expect((await book.settle(third, id('settle'), 'won', '25')).outcome).toBe('ok');
    await answer(await book.settle(third, id('resettle'), 'won', '60'), 'accepted', '15.0000');
    const page = await reconciliation(operator.key);
    expect(described(page)).toEqual([
      ['sportsbook_place', '10.0000', '-10.0000', 'debit accepted'], ['sportsbook_place', '10.0000', '-10.0000', 'debit accepted'],
      ['sportsbook_place', '10.0000', '-10.0000', 'debit accepted'], ['sportsbook_settle', '30.0000', '30.0000', 'credit accepted'],
      ['sportsbook_settle', '20.0000', '20.0000', 'credit accepted'],
      ['sportsbook_settle', '0.0000', '0.0000', 'debit accepted'], ['sportsbook_unsettle', '20.0000', '0.0000', 'debit accepted'],
      ['sportsbook_settle', '25.0000', '0.0000', null], ['sportsbook_settle', '60.0000', '10.0000', 'credit accepted'],
    ]);
    // The refused clawback's call is done (never sent again): its line shows the balance the wallet answered, and moved nothing.
    expect(page.data[5].wallet_call).toMatchObject({ balance: '5.0000' });
    // What the wallet took: three stakes of 10, credits of 30, 20 and 10; neither clawback.
    expect(page.totals).toEqual([{ currency: 'EUR', transactions: 9, bets: '0.0000', wins: '0.0000', rollbacks: '0.0000', moved: '30.0000' }]);
    const [debts] = await sql`select sum(b.owed)::numeric(20, 4)::text as owed from public.sportsbook_bet b where b.client_id = ${operator.account.id}`;
    expect(debts.owed).toBe('0.0000');
  });
});

/** The client's ledger in one mode (the float's, or the test float's), play only: what the lines must add up to. */
async function ledger(clientId: string, livemode: boolean) {
  const rows = livemode
    ? await sql`select id, amount::text from public.transaction where client_id = ${clientId} and type not in ('deposit', 'withdraw')`
    : await sql`select id, amount::text from public.sandbox_transaction where client_id = ${clientId} and type not in ('deposit', 'withdraw')`;
  const net = rows.reduce((sum, row) => sum + Math.round(Number(row.amount) * 10_000), 0);
  return { moves: new Map(rows.map((row) => [row.id as string, row.amount as string])), net: (net / 10_000).toFixed(4) };
}

/** Every line that moved names its movement of `moves`, by what it moved (less a payout's withheld part, none here). */
function expectLedgerLines(page: Page, moves: Map<string, string>) {
  const moving = page.data.filter((l) => l.moved !== '0.0000');
  expect(moving.length).toBeGreaterThan(0);
  for (const line of moving) expect(moves.get(line.ledger_transaction_id!)).toBe(line.moved);
}

describe('reconciliation of the sportsbook in test mode', () => {
  it('lists a test key\'s test bets from the test ledger, and the live key none of them (and the test key none of the live ones)', async () => {
    const operator = await newOperator(sql, 'recon-sportsbook-modes');
    const testKey = (await issueKey(sql, operator.account, 'Sandbox', false)).key;
    await sql`insert into public.wallet (client_id, currency_code, is_primary) values (${operator.account.id}, 'EUR', true)`;
    await sql`select * from public.record_transaction(${operator.account.id}::uuid, 'EUR', 'deposit', 100::numeric)`;
    const player = id('tester');
    const made = await handle(new Request('http://api.test/v3/sandbox/players', {
      method: 'POST', headers: { authorization: `Bearer ${testKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ player_id: player, currency: 'EUR', balance: '50' }) }));
    expect(made.status).toBe(200);
    await launchToken(handle, { ...operator, key: testKey }, { player_id: player, game_id: `pragmatic-play:${game}`, currency: 'EUR' });
    const [testSession] = await sql`select id from public.game_session where client_id = ${operator.account.id} and player_id = ${player}`;
    const [liveSession] = await sql`insert into public.game_session (client_id, livemode, player_id, provider_id, game, currency_code, status, expires_at)
      select ${operator.account.id}, true, ${player}, id, ${game}, 'EUR', 'active', now() + interval '1 hour'
      from public.game_provider where slug = 'pragmatic-play' returning id`;

    // Test: a stake won, resettled lower and closed; a reservation discarded. Live: one stake lost.
    const [won, dropped, live] = [id('bet'), id('bet'), id('bet')];
    expect((await book.place(testSession.id, won, id('place'), '10', { odds: '2.5', potential: '25', twoPhase: true })).outcome).toBe('ok');
    expect((await book.commit(won, id('commit'))).outcome).toBe('ok');
    expect((await book.settle(won, id('settle'), 'won', '25')).outcome).toBe('ok');
    expect((await book.settle(won, id('resettle'), 'won', '10.5')).outcome).toBe('ok');
    expect((await book.close(won, id('close'))).outcome).toBe('ok');
    expect((await book.place(testSession.id, dropped, id('place'), '4.25', { twoPhase: true })).outcome).toBe('ok');
    expect((await book.discard(dropped, id('discard'))).outcome).toBe('ok');
    expect((await book.place(liveSession.id, live, id('place'), '3')).outcome).toBe('ok');
    expect((await book.settle(live, id('settle'), 'lost', '0')).outcome).toBe('ok');

    const test = await reconciliation(testKey);
    expect(test.data.map((l) => `${l.round_id === won ? 'won' : l.round_id === dropped ? 'dropped' : 'live'} ${l.type} ${l.amount} ${l.moved}`)).toEqual([
      'won sportsbook_place 10.0000 -10.0000', 'won sportsbook_commit 0.0000 0.0000', 'won sportsbook_settle 25.0000 25.0000',
      'won sportsbook_settle 10.5000 -14.5000', 'won sportsbook_close 0.0000 0.0000',
      'dropped sportsbook_place 4.2500 -4.2500', 'dropped sportsbook_discard 4.2500 4.2500',
    ]);
    expect(test.data[0]).toMatchObject({ wallet_mode: 'transfer', wallet_call: null, ledger_transaction_id: expect.any(String) });
    const testLedger = await ledger(operator.account.id, false);
    expectLedgerLines(test, testLedger.moves);
    expect(testLedger.net).toBe('0.5000');
    expect(test.totals).toEqual([{ currency: 'EUR', transactions: 7, bets: '0.0000', wins: '0.0000', rollbacks: '0.0000', moved: testLedger.net }]);

    const seen = await reconciliation(operator.key);
    expect(seen.data.map((l) => `${l.round_id === live ? 'live' : 'test'} ${l.type} ${l.moved}`)).toEqual([
      'live sportsbook_place -3.0000', 'live sportsbook_settle 0.0000',
    ]);
    const liveLedger = await ledger(operator.account.id, true);
    expectLedgerLines(seen, liveLedger.moves);
    expect(seen.totals).toEqual([{ currency: 'EUR', transactions: 2, bets: '0.0000', wins: '0.0000', rollbacks: '0.0000', moved: '-3.0000' }]);
    expect(liveLedger.net).toBe('-3.0000');
  });
});
