// POST /v3/sandbox/reset with the sportsbook in play, in-process against the test database: the
// caller's test bets end as the reset's players go (reserved and open ones discarded, settled ones
// closed, what they owed forgiven), moving no money anywhere (no stake back, no payout or clawback,
// no wallet call, no ledger line, live or test); the calls still due to the test wallet end; the
// demo fixtures' outcomes are cleared, so they settle again, and a new test player of the same id
// pays nothing of the old debts. Live bets, and who reads the bets, are untouched.
import { createHash, randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectResponseMatches, type OperationId } from '../openapi/contract.ts';
import { as, cast, connect, untilBlockedBy } from '../helpers/db.ts';
import { issueKey, newOperator, type Operator, sessionRequest, sessionsHandler } from '../helpers/api.ts';
import { type ReferenceWallet, startReferenceWallet } from '../helpers/reference-wallet.ts';
import { sportsbookGame } from './sportsbook.ts';

const SANDBOX_PROVIDER_KEY = 'cgs_prov_SANDBOX-demo-game-public-key-test-only-0000';
const sql = connect();
const { handle } = await sessionsHandler();
let liveGame: string;
let liveProviderKey: string;

beforeAll(async () => {
  liveGame = `pragmatic-play:${await sportsbookGame(sql)}`;
  liveProviderKey = (await sql`select key from public.issue_provider_key('pragmatic-play')`)[0].key;
});

async function call(path: string, key: string, body?: object, operation?: OperationId) {
  const response = await handle(new Request(`http://api.test/v3${path}`, {
    method: body ? 'POST' : 'GET',
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  }));
  const answer = await response.json();
  if (operation) expectResponseMatches(operation, response, answer);
  return { status: response.status, body: answer };
}

const leg = (fixture_id: string, pick: string, odds: string) => ({ fixture_id, event: fixture_id, market: '1X2', pick, odds });
const fixture = (key: string, id: string, action: 'settle' | 'resettle', outcome: string) =>
  call(`/sandbox/sportsbook/fixtures/${id}/${action}`, key, { outcome },
    action === 'settle' ? 'settleSandboxFixture' : 'resettleSandboxFixture');

/** A session's launch token. */
async function launch(key: string, player: string, game = 'cgs-sandbox:sportsbook'): Promise<string> {
  const session = await handle(sessionRequest({ player_id: player, game_id: game, currency: 'EUR' }, { key }));
  expect(session.status).toBe(201);
  return new URL((await session.json()).launch_url).searchParams.get('token')!;
}

/** A placement through the provider API; the bet's id. */
async function place(providerKey: string, token: string, amount: string, legs: object[], odds: string, potential: string,
  twoPhase = false) {
  const bet = `sb-${randomUUID()}`;
  const placed = await call('/provider/sportsbook/bets', providerKey, {
    session_token: token, bet_id: bet, transaction_id: `tx-${randomUUID()}`, amount, odds, potential_payout: potential,
    selections: legs, two_phase: twoPhase,
  }, 'providerSportsbookPlace');
  expect(placed.status).toBe(200);
  return bet;
}

/** The client's bets in one mode, by the provider's bet_id: status, payout, paid and owed. */
async function bets(clientId: string, livemode: boolean) {
  const rows = await sql<{ bet_id: string; status: string; payout: string; paid: string; owed: string }[]>`
    select r.provider_round_id as bet_id, b.status, b.payout::text, b.paid::text, b.owed::text
    from public.sportsbook_bet b join public.game_round r on r.id = b.round_id
    where b.client_id = ${clientId} and b.livemode = ${livemode}`;
  return Object.fromEntries(rows.map((r) => [r.bet_id, `${r.status} ${r.payout} ${r.paid} ${r.owed}`]));
}

/** What the client's money is, live and test: every ledger line and wallet call, and the float. */
async function money(clientId: string) {
  const [row] = await sql`
    select (select count(*)::int from public.transaction where client_id = ${clientId}) as live_lines,
           (select balance::text from public.wallet where client_id = ${clientId} and currency_code = 'EUR') as float,
           (select count(*)::int from public.wallet_call where client_id = ${clientId}) as wallet_calls,
           (select count(*)::int from public.round_transaction where client_id = ${clientId}) as round_transactions`;
  return row;
}

describe('a reset with the sportsbook in play', () => {
  it('ends the test bets, moving nothing, forgives their debts and clears the fixtures; live bets stand', async () => {
    const op: Operator = await newOperator(sql, 'sb-reset');
    const key = (await issueKey(sql, op.account, 'Sandbox', false)).key;
    const player = `player-${randomUUID()}`;
    const [home, away, later] = ['home', 'away', 'later'].map((name) => `${name}-${randomUUID().slice(0, 8)}`);

    // Live: a float, a bet left open and one settled, on a live sportsbook.
    await sql`insert into public.wallet (client_id, currency_code) values (${op.account.id}, 'EUR')`;
    await sql`select * from public.record_transaction(${op.account.id}::uuid, 'EUR', 'deposit', 100::numeric)`;
    const liveToken = await launch(op.key, 'live-player', liveGame);
    const liveOpen = await place(liveProviderKey, liveToken, '5', [{ event: 'Reds v Blues' }], '2', '10');
    const liveSettled = await place(liveProviderKey, liveToken, '5', [{ event: 'Reds v Blues' }], '2', '10');
    expect((await call(`/provider/sportsbook/bets/${liveSettled}/settlements`, liveProviderKey,
      { transaction_id: `tx-${randomUUID()}`, result: 'won', payout: '10' }, 'providerSportsbookSettle')).status).toBe(200);

    // Test: a reserved bet, an open one, a single settled then resettled against the player once
    // the balance is spent (so it owes its clawback), and the stake that spent it, open.
    expect((await call('/sandbox/players', key, { player_id: player, currency: 'EUR', balance: '100' })).status).toBe(200);
    const token = await launch(key, player);
    const reserved = await place(SANDBOX_PROVIDER_KEY, token, '10', [leg(home, 'home', '2.10')], '2.1', '21', true);
    const open = await place(SANDBOX_PROVIDER_KEY, token, '10', [leg(later, 'home', '2.10')], '2.1', '21');
    const single = await place(SANDBOX_PROVIDER_KEY, token, '10', [leg(home, 'home', '2.10')], '2.1', '21');
    expect((await fixture(key, home, 'settle', 'home')).status).toBe(200);
    const spent = await place(SANDBOX_PROVIDER_KEY, token, '91', [leg(away, 'away', '3')], '3', '273');
    expect((await fixture(key, away, 'settle', 'home')).status).toBe(200);
    expect((await fixture(key, home, 'resettle', 'away')).status).toBe(200);
    expect(await bets(op.account.id, false)).toEqual({
      [reserved]: 'reserved 0.0000 0.0000 0.0000', [open]: 'open 0.0000 0.0000 0.0000',
      [single]: 'settled 0.0000 21.0000 21.0000', [spent]: 'settled 0.0000 0.0000 0.0000',
    });
    const liveBets = await bets(op.account.id, true);
    const before = await money(op.account.id);

    const done = await call('/sandbox/reset', key, {}, 'resetSandbox');
    expect(done).toMatchObject({
      status: 200, body: { sportsbook_bets_discarded: 2, sportsbook_bets_closed: 2, sportsbook_fixtures_cleared: 2 },
    });
    // Nothing is left to change, nothing is owed, and nothing moved: no line, call or transaction.
    expect(await bets(op.account.id, false)).toEqual({
      [reserved]: 'discarded 0.0000 0.0000 0.0000', [open]: 'discarded 0.0000 0.0000 0.0000',
      [single]: 'closed 0.0000 0.0000 0.0000', [spent]: 'closed 0.0000 0.0000 0.0000',
    });
    expect(await money(op.account.id)).toEqual(before);
    const rounds = await sql<{ status: string }[]>`
      select r.status from public.game_round r where r.provider_round_id in ${sql([reserved, open, single, spent])} order by r.status`;
    expect(rounds.map((r) => r.status)).toEqual(['cancelled', 'cancelled', 'closed', 'closed']);
    expect(await bets(op.account.id, true)).toEqual(liveBets);
    expect(liveBets).toEqual({ [liveOpen]: 'open 0.0000 0.0000 0.0000', [liveSettled]: 'settled 10.0000 10.0000 0.0000' });
    const { body: read } = await call(`/sportsbook/bets?player_id=${player}`, key, undefined, 'listSportsbookBets');
    const lastLine = Object.fromEntries(read.data.map((b: { bet_id: string; settlements: { type: string; moved: string; forgiven: string }[] }) => {
      const line = b.settlements.at(-1)!;
      return [b.bet_id, `${line.type} ${line.moved} ${line.forgiven}`];
    }));
    expect(lastLine).toEqual({
      [reserved]: 'sandbox_reset 0.0000 0.0000', [open]: 'sandbox_reset 0.0000 0.0000',
      [single]: 'sandbox_reset 0.0000 21.0000', [spent]: 'sandbox_reset 0.0000 0.0000',
    });
    const events = await sql<{ type: string; bet: string; reason: string | null }[]>`
      select type, data->>'bet_id' as bet, data->>'reason' as reason from public.event
      where client_id = ${op.account.id} and not livemode and type in ('sportsbook.bet.discarded', 'sportsbook.bet.closed')`;
    expect(events.map((e) => `${e.type} ${e.bet} ${e.reason}`).sort()).toEqual([
      `sportsbook.bet.closed ${single} null`, `sportsbook.bet.closed ${spent} null`,
      `sportsbook.bet.discarded ${open} sandbox_reset`, `sportsbook.bet.discarded ${reserved} sandbox_reset`,
    ].sort());
    // The provider's late calls find the bets ended.
    expect(await call(`/provider/sportsbook/bets/${open}/settlements`, SANDBOX_PROVIDER_KEY,
      { transaction_id: `tx-${randomUUID()}`, result: 'won', payout: '21' }, 'providerSportsbookSettle'))
      .toMatchObject({ status: 422, body: { code: 'bet_discarded' } });
    expect(await call(`/provider/sportsbook/bets/${single}/settlements`, SANDBOX_PROVIDER_KEY,
      { transaction_id: `tx-${randomUUID()}`, result: 'won', payout: '21' }, 'providerSportsbookSettle'))
      .toMatchObject({ status: 422, body: { code: 'bet_closed' } });
    expect(await money(op.account.id)).toEqual(before);

    // Who reads the bets is as before: the client its own, another client none of them.
    const other = await newOperator(sql, 'sb-reset-other');
    const seen = (account: Operator['account']) => as(sql, account, (tx) => tx`
      select count(*)::int as n from public.sportsbook_bet where client_id = ${op.account.id}`);
    expect(await seen(op.account)).toEqual([{ n: 6 }]);
    expect(await seen(other.account)).toEqual([{ n: 0 }]);

    // The sandbox from scratch: the same player and fixture again, settled again, its payout whole
    // (the old bet's debt went with the old player).
    expect((await call('/sandbox/players', key, { player_id: player, currency: 'EUR', balance: '100' })).status).toBe(200);
    const again = await place(SANDBOX_PROVIDER_KEY, await launch(key, player), '10', [leg(home, 'home', '2.10')], '2.1', '21');
    const settled = await fixture(key, home, 'settle', 'home');
    expect(settled.status).toBe(200);
    expect(settled.body.bets.map((b: { bet_id: string; status: string; payout: string; paid: string }) =>
      `${b.bet_id} ${b.status} ${b.payout} ${b.paid}`)).toEqual([`${again} settled 21.0000 21.0000`]);
    expect((await call(`/sandbox/players/${player}`, key)).body.data[0].balance).toBe('111.0000');
    expect(await bets(op.account.id, true)).toEqual(liveBets);
  });
});

describe('a reset by one client', () => {
  it("leaves another client's test bets and fixture outcomes as they were", async () => {
    const [op, other] = [await newOperator(sql, 'sb-reset-own'), await newOperator(sql, 'sb-reset-theirs')];
    const [key, otherKey] = [(await issueKey(sql, op.account, 'Sandbox', false)).key, (await issueKey(sql, other.account, 'Sandbox', false)).key];
    const match = `shared-${randomUUID().slice(0, 8)}`;
    // Both clients play the same demo fixture; the other client's is settled, with a bet still open.
    const placed: Record<string, string[]> = {};
    for (const [who, k] of [['op', key], ['other', otherKey]] as const) {
      const player = `player-${randomUUID()}`;
      expect((await call('/sandbox/players', k, { player_id: player, currency: 'EUR', balance: '100' })).status).toBe(200);
      const token = await launch(k, player);
      placed[who] = [
        await place(SANDBOX_PROVIDER_KEY, token, '10', [leg(match, 'home', '2')], '2', '20'),
        await place(SANDBOX_PROVIDER_KEY, token, '10', [leg(`${match}-later`, 'home', '2')], '2', '20', who === 'other'),
      ];
    }
    expect((await fixture(otherKey, match, 'settle', 'home')).status).toBe(200);
    const theirs = await bets(other.account.id, false);
    expect(Object.values(theirs).sort()).toEqual(['reserved 0.0000 0.0000 0.0000', 'settled 20.0000 20.0000 0.0000']);

    // The other client's settled bet is being settled again meanwhile (its round locked): the reset
    // never waits for it, since it locks the caller's rounds alone (a lock wait would time out).
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const lockHeld = new Promise<void>((resolve) => (locked = resolve));
    const settling = sql.begin(async (t) => {
      await t`select 1 from public.game_round where provider_round_id = ${placed.other[0]} for update`;
      locked();
      await released;
    });
    await lockHeld;
    try {
      const hash = createHash('sha256').update(key).digest('hex');
      const [answer] = await sql.begin(async (t) => {
        await t`set local lock_timeout = '5s'`;
        return t`select outcome, body from private.reset_sandbox(${hash})`;
      });
      expect(JSON.parse(answer.body)).toMatchObject({ sportsbook_bets_discarded: 2, sportsbook_bets_closed: 0, sportsbook_fixtures_cleared: 0 });
    } finally {
      release();
      await settling;
    }
    expect(await bets(other.account.id, false)).toEqual(theirs);
    expect(await fixture(otherKey, match, 'settle', 'home')).toMatchObject({ status: 409, body: { code: 'fixture_settled' } });
    expect((await fixture(otherKey, match, 'resettle', 'away')).status).toBe(200);
  });
});

describe('a reset with seamless test bets in play', () => {
  let wallet: ReferenceWallet;

  it("ends the bets and the calls still due to the test wallet, sends the wallet nothing, and writes each bet's money back to what the wallet took", async () => {
    const op = await newOperator(sql, 'sb-reset-seamless');
    const key = (await issueKey(sql, op.account, 'Sandbox', false)).key;
    const setTo = (url: string) => sql`select * from private.change_wallet_settings(${op.account.id}, false, 'seamless', ${url}, false)`;
    const [{ secret }] = await setTo('https://wallet.operator.test/');
    wallet = await startReferenceWallet(secret);
    try {
      await setTo(wallet.url);
      const player = `player-${randomUUID()}`;
      const match = `seamless-${randomUUID().slice(0, 8)}`;
      const earlier = `${match}-earlier`;
      const token = await launch(key, player);
      const won = await place(SANDBOX_PROVIDER_KEY, token, '10', [leg(match, 'home', '2')], '2', '20');
      const closed = await place(SANDBOX_PROVIDER_KEY, token, '10', [leg(match, 'home', '2')], '2', '20');
      // Its potential payout above what it pays, so no bound of a payout hides a second write-back.
      const clawed = await place(SANDBOX_PROVIDER_KEY, token, '10', [leg(earlier, 'home', '2')], '2', '40');
      const open = await place(SANDBOX_PROVIDER_KEY, token, '10', [leg(`${match}-x`, 'home', '2')], '2', '20');
      const reserved = await place(SANDBOX_PROVIDER_KEY, token, '10', [leg(`${match}-x`, 'home', '2')], '2', '20', true);
      expect(wallet.balance(player)).toBe('50.0000');
      // One bet's payout reaches the wallet.
      expect((await fixture(key, earlier, 'settle', 'home')).status).toBe(200);
      expect(wallet.balance(player)).toBe('70.0000');
      // Then the wallet fails: two payouts' credits and a clawback wait for the runner, and one of
      // the bets whose credit waits is closed by the provider meanwhile.
      wallet.misbehave = 'error';
      expect((await fixture(key, match, 'settle', 'home')).status).toBe(200);
      expect((await fixture(key, earlier, 'resettle', 'away')).status).toBe(200);
      expect((await call(`/provider/sportsbook/bets/${closed}/close`, SANDBOX_PROVIDER_KEY, { transaction_id: `tx-${randomUUID()}` },
        'providerSportsbookClose')).status).toBe(200);
      const pending = async () => (await sql<{ action: string }[]>`
        select action from public.wallet_call where client_id = ${op.account.id} and status = 'pending'`).map((c) => c.action).sort();
      expect(await pending()).toEqual(['clawback', 'credit', 'credit']);
      // The closed bet's credit fails before the reset, its retries spent (as the runner leaves it
      // after the last one).
      await sql`update public.wallet_call c set status = 'failed', completed_at = now(), last_error = 'HTTP 500'
                from public.round_transaction t join public.game_round r on r.id = t.round_id
                where t.id = c.round_transaction_id and r.provider_round_id = ${closed} and c.action = 'credit'`;
      expect(await pending()).toEqual(['clawback', 'credit']);
      // What the bets say before the reset: every call counted as made.
      expect(await bets(op.account.id, false)).toMatchObject({
        [won]: 'settled 20.0000 20.0000 0.0000', [closed]: 'closed 20.0000 20.0000 0.0000', [clawed]: 'settled 0.0000 0.0000 0.0000',
      });
      wallet.misbehave = 'none';
      const sent = wallet.calls.length;

      const done = await call('/sandbox/reset', key, {}, 'resetSandbox');
      expect(done).toMatchObject({ status: 200, body: { sportsbook_bets_discarded: 2, sportsbook_bets_closed: 2, wallet_mode: 'transfer' } });
      expect(await pending()).toEqual([]);
      // Each bet says what the wallet took: the credits it never got are not paid, the clawback it
      // never gave is still paid, and the payout in force is what was paid.
      expect(await bets(op.account.id, false)).toEqual({
        [won]: 'closed 0.0000 0.0000 0.0000', [closed]: 'closed 0.0000 0.0000 0.0000', [clawed]: 'closed 20.0000 20.0000 0.0000',
        [open]: 'discarded 0.0000 0.0000 0.0000', [reserved]: 'discarded 0.0000 0.0000 0.0000',
      });
      expect(wallet.calls.length).toBe(sent);
      expect(wallet.balance(player)).toBe('70.0000');
      const { body: read } = await call(`/sportsbook/bets?player_id=${player}`, key, undefined, 'listSportsbookBets');
      const view = Object.fromEntries(read.data.map((b: {
        bet_id: string; result: string | null; settlements: { type: string; moved: string; payout?: string }[];
      }) => {
        const line = b.settlements.at(-1)!;
        const moved = b.settlements.reduce((sum, l) => sum + Number(l.moved), 0);
        return [b.bet_id, `${b.result} ${line.type} ${line.moved} ${line.payout} ${moved.toFixed(4)}`];
      }));
      // The reset's line gives back what the failed calls' lines counted; every line's `moved` adds up to what moved.
      expect(view).toEqual({
        [won]: 'won sandbox_reset -20.0000 0.0000 0.0000', [closed]: 'won sandbox_reset -20.0000 0.0000 0.0000',
        [clawed]: 'lost sandbox_reset 20.0000 20.0000 20.0000',
        [open]: 'null sandbox_reset 0.0000 0.0000 0.0000', [reserved]: 'null sandbox_reset 0.0000 0.0000 0.0000',
      });
      const rounds = await sql<{ bet: string; total_win: string }[]>`
        select provider_round_id as bet, total_win::text from public.game_round where provider_round_id in ${sql([won, closed, clawed])}`;
      expect(Object.fromEntries(rounds.map((r) => [r.bet, r.total_win]))).toEqual({ [won]: '0.0000', [closed]: '0.0000', [clawed]: '20.0000' });
      const told = await sql<{ bet: string; paid: string }[]>`
        select data->>'bet_id' as bet, data->>'paid' as paid from public.event
        where client_id = ${op.account.id} and not livemode and type = 'sportsbook.bet.closed' and data->>'bet_id' in ${sql([won, clawed])}`;
      expect(Object.fromEntries(told.map((e) => [e.bet, e.paid]))).toEqual({ [won]: '0.0000', [clawed]: '20.0000' });
      // Staff cannot send a written-back call again: it would move what the bet no longer shows.
      const written = await sql<{ id: string }[]>`select c.id from public.wallet_call c
        join public.round_transaction t on t.id = c.round_transaction_id join public.game_round r on r.id = t.round_id
        where r.provider_round_id in ${sql([won, closed, clawed])} and c.status = 'failed' order by c.id`;
      expect(written).toHaveLength(3);
      const people = await cast(sql);
      for (const { id } of written) {
        await expect(as(sql, people.adam, (tx) => tx`select * from public.retry_wallet_call(${id})`)).rejects.toMatchObject({ code: 'P0002' });
      }
      expect(await pending()).toEqual([]);
      // A second reset finds nothing more to write back.
      expect((await call('/sandbox/reset', key, {}, 'resetSandbox')).body).toMatchObject({ sportsbook_bets_discarded: 0, sportsbook_bets_closed: 0 });
      expect(await bets(op.account.id, false)).toMatchObject({ [won]: 'closed 0.0000 0.0000 0.0000', [clawed]: 'closed 20.0000 20.0000 0.0000' });
    } finally {
      await wallet.close();
    }
  });
});

describe('a reset meeting a fixture being settled', () => {
  it('waits for it, then clears its outcome: a fixture is never settled under a reset', async () => {
    const op = await newOperator(sql, 'sb-reset-race');
    const key = (await issueKey(sql, op.account, 'Sandbox', false)).key;
    const hash = createHash('sha256').update(key).digest('hex');
    const match = `race-${randomUUID().slice(0, 8)}`;
    // A fixture's first outcome is written, not yet committed; a reset comes meanwhile.
    let commit!: () => void;
    const committing = new Promise<void>((resolve) => (commit = resolve));
    let holding!: (pid: number) => void;
    const holder = new Promise<number>((resolve) => (holding = resolve));
    const settling = sql.begin(async (t) => {
      await t`select * from private.sandbox_fixture_outcome(${hash}, ${match}, 'settle', 'home')`;
      holding((await t`select pg_backend_pid() as pid`)[0].pid);
      await committing;
    });
    const pid = await holder;
    // postgres.js sends a query when it is awaited or then'd: then, so it is sent now.
    const resetting = sql`select outcome, body from private.reset_sandbox(${hash})`.then((rows) => rows);
    const first = await untilBlockedBy(sql, pid, resetting);
    commit();
    await settling;
    const [answer] = await resetting;
    expect(first).toBe('blocked');
    expect(JSON.parse(answer.body).sportsbook_fixtures_cleared).toBe(1);
    expect((await fixture(key, match, 'settle', 'home')).status).toBe(200);
  });
});
