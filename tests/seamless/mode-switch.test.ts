// A round settles in the wallet it started in, whatever the client's wallet mode is later. A bet
// sent with round_closed and no win is still unsettled, so it can be rolled back after the mode has
// changed (the switch is refused only while a round is open): its money must go back to the wallet
// that was debited, never to the other one. The conservation check at the end of each test holds
// for every round the client ever played, in both wallets.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../helpers/db.ts';
import { type ReferenceWallet, startReferenceWallet } from '../helpers/reference-wallet.ts';
import { newOperator, type Operator, sessionsHandler } from '../helpers/api.ts';
import { launchToken, type ProviderAnswer, providerCalls } from '../helpers/provider-api.ts';

const sql = connect();
const { handle } = await sessionsHandler();
const id = (prefix: string) => `${prefix}-${randomUUID()}`;
let post: (path: 'bets' | 'wins' | 'rollbacks', body: object) => Promise<ProviderAnswer>;

beforeAll(async () => {
  post = providerCalls(handle, (await sql`select key from public.issue_provider_key('pragmatic-play')`)[0].key);
});

interface Client {
  operator: Operator;
  wallet: ReferenceWallet;
  setMode(mode: 'transfer' | 'seamless'): Promise<void>;
}

/** An operator with a float of 100 EUR and a reference wallet (100 EUR a player), in `mode`. */
async function client(mode: 'transfer' | 'seamless'): Promise<Client> {
  const operator = await newOperator(sql, 'mode-switch');
  await sql`insert into public.wallet (client_id, currency_code, is_primary) values (${operator.account.id}, 'EUR', true)`;
  await sql`select * from public.record_transaction(${operator.account.id}::uuid, 'EUR', 'deposit', 100::numeric)`;
  const change = (to: string, url: string | null) => sql`
    select outcome from private.change_wallet_settings(${operator.account.id}, true, ${to}, ${url}, false)`;
  const [{ secret }] = await sql`
    select secret from private.change_wallet_settings(${operator.account.id}, true, 'seamless', 'https://wallet.operator.test/', false)`;
  const wallet = await startReferenceWallet(secret);
  await change('seamless', wallet.url);
  const setMode = async (to: 'transfer' | 'seamless') => {
    expect((await change(to, null))[0].outcome).toBe('updated');
  };
  await setMode(mode);
  return { operator, wallet, setMode };
}

async function launch(c: Client, player = id('player')) {
  return { token: await launchToken(handle, c.operator, { player_id: player }), player };
}

const floatOf = async (c: Client) =>
  (await sql`select balance::text from public.wallet where client_id = ${c.operator.account.id} and currency_code = 'EUR'`)[0].balance;

/**
 * Every movement of every round of the client happened in the round's own wallet: a transfer
 * round's transactions each moved the float and none called the operator; a seamless round's moved
 * no float, and each bet's refund went to the operator that had been debited. The float's ledger
 * and the operator's wallet together account for every round: the float's round movements add up
 * to the transfer rounds' wins less bets, and each player's operator balance to the opening 100 plus
 * its seamless rounds' wins less bets.
 */
async function expectConserved(c: Client) {
  const client = c.operator.account.id;
  const misplaced = await sql`
    select t.transaction_id, t.kind, r.wallet_mode
    from public.round_transaction t
    join public.game_round r on r.id = t.round_id
    where t.client_id = ${client} and t.amount > 0
      and ((r.wallet_mode = 'transfer') <> (t.ledger_transaction_id is not null)
           or (r.wallet_mode = 'transfer') = exists (select 1 from public.wallet_call w where w.round_transaction_id = t.id))`;
  expect(misplaced).toEqual([]);
  const refunds = await sql`
    select rb.transaction_id
    from public.round_transaction rb
    join public.round_transaction bet on bet.id = rb.related_id
    where rb.client_id = ${client} and rb.kind = 'rollback' and rb.amount > 0
      and ((rb.ledger_transaction_id is not null) <> (bet.ledger_transaction_id is not null)
           or exists (select 1 from public.wallet_call w where w.round_transaction_id = rb.id)
              <> exists (select 1 from public.wallet_call w where w.round_transaction_id = bet.id and w.action = 'debit'
                           and w.status = 'accepted'))`;
  expect(refunds).toEqual([]);
  const [{ net, moved }] = await sql`
    select (select coalesce(sum(total_win - total_bet), 0)::numeric(20, 4)::text from public.game_round
            where client_id = ${client} and wallet_mode = 'transfer') as net,
           (select coalesce(sum(l.amount), 0)::numeric(20, 4)::text from public.transaction l
            where l.client_id = ${client} and l.type in ('bet', 'win', 'adjustment')) as moved`;
  expect(moved).toBe(net);
  const players = await sql<{ player_id: string; net: string }[]>`
    select player_id, sum(total_win - total_bet)::numeric(20, 4)::text as net from public.game_round
    where client_id = ${client} and wallet_mode = 'seamless' group by player_id`;
  for (const { player_id, net } of players) {
    expect(c.wallet.balance(player_id)).toBe((100 + Number(net)).toFixed(4));
  }
}

describe('a round settles in the wallet it started in', () => {
  it('a seamless bet rolled back after a switch to transfer goes back to the operator, not the float', async () => {
    const c = await client('seamless');
    const { token, player } = await launch(c);
    const bet = id('bet');
    const round = id('round');
    expect(await post('bets', { session_token: token, transaction_id: bet, round_id: round, amount: '10', round_closed: true }))
      .toMatchObject({ status: 200, body: { balance: '90.0000' } });
    expect(c.wallet.balance(player)).toBe('90.0000');
    await c.setMode('transfer');

    const back = await post('rollbacks', { session_token: token, transaction_id: id('rb'), rolled_back_transaction_id: bet });
    expect(back).toMatchObject({ status: 200, body: { balance: '100.0000' } });
    expect(c.wallet.balance(player)).toBe('100.0000');
    expect(await floatOf(c)).toBe('100.0000');
    expect(c.wallet.calls.filter((call) => call.action === 'rollback')).toHaveLength(1);
    expect((await sql`select wallet_mode, status from public.game_round where provider_round_id = ${round}`)[0])
      .toEqual({ wallet_mode: 'seamless', status: 'cancelled' });
    await expectConserved(c);
  });

  it('a transfer bet rolled back after a switch to seamless goes back to the float, and no wallet hears of it', async () => {
    const c = await client('transfer');
    const { token } = await launch(c);
    const bet = id('bet');
    expect(await post('bets', { session_token: token, transaction_id: bet, round_id: id('round'), amount: '10', round_closed: true }))
      .toMatchObject({ status: 200, body: { balance: '90.0000' } });
    await c.setMode('seamless');

    const back = await post('rollbacks', { session_token: token, transaction_id: id('rb'), rolled_back_transaction_id: bet });
    expect(back).toMatchObject({ status: 200, body: { balance: '100.0000' } });
    expect(await floatOf(c)).toBe('100.0000');
    expect(c.wallet.calls).toEqual([]);
    await expectConserved(c);
  });

  it('rounds in both wallets, played across switches both ways, each settle where they started', async () => {
    const c = await client('transfer');
    const { token, player } = await launch(c);
    const played: { bet: string; round: string }[] = [];
    for (const [mode, amount] of [['transfer', '3'], ['seamless', '4'], ['transfer', '5'], ['seamless', '6']] as const) {
      await c.setMode(mode);
      const step = { bet: id('bet'), round: id('round') };
      expect((await post('bets', { session_token: token, transaction_id: step.bet, round_id: step.round, amount, round_closed: true })).status)
        .toBe(200);
      played.push(step);
    }
    // A fresh round in the last mode, with a win, then every earlier bet rolled back from there.
    const round = id('round');
    expect((await post('bets', { session_token: token, transaction_id: id('bet'), round_id: round, amount: '2' })).status).toBe(200);
    expect((await post('wins', { session_token: token, transaction_id: id('win'), round_id: round, amount: '7', round_closed: true }))
      .status).toBe(200);
    for (const mode of ['transfer', 'seamless'] as const) {
      await c.setMode(mode);
      for (const { bet } of played) {
        expect((await post('rollbacks', { session_token: token, transaction_id: id('rb'), rolled_back_transaction_id: bet })).status)
          .toBe(200);
      }
    }
    expect(await floatOf(c)).toBe('100.0000');
    expect(c.wallet.balance(player)).toBe('105.0000');
    await expectConserved(c);
  });
});

describe('a rollback of a bet nobody has seen (a tombstone)', () => {
  it("follows the mode in force: a seamless client's reaches the operator and refuses the bet after it, a transfer client's is the float's", async () => {
    const c = await client('seamless');
    const { token, player } = await launch(c);
    const unseen = id('bet');
    const rollback = { session_token: token, transaction_id: id('rb'), rolled_back_transaction_id: unseen };
    const tombstone = await post('rollbacks', rollback);
    expect(tombstone).toMatchObject({ status: 200, body: { balance: '100.0000' } });
    expect(c.wallet.calls.map((call) => call.action)).toEqual(['rollback']);
    expect(await post('rollbacks', rollback)).toMatchObject({ status: 200, text: tombstone.text, replayed: 'true' });
    expect(await post('bets', { session_token: token, transaction_id: unseen, round_id: id('round'), amount: '10' }))
      .toMatchObject({ status: 422, body: { code: 'transaction_rolled_back' } });
    expect(c.wallet.balance(player)).toBe('100.0000');
    expect(await sql`
      select t.transaction_id from public.round_transaction t
      where t.client_id = ${c.operator.account.id} and t.response_body is not null
        and not exists (select 1 from public.wallet_call w where w.round_transaction_id = t.id)`).toEqual([]);
    await c.setMode('transfer');
    expect(await post('rollbacks', { session_token: token, transaction_id: id('rb'), rolled_back_transaction_id: id('bet') }))
      .toMatchObject({ status: 200, body: { balance: '100.0000' } });
    expect(c.wallet.calls.filter((call) => call.action === 'rollback')).toHaveLength(1);
  });
});

describe('a round open when the mode changed under it', () => {
  // The switch is refused while a round is open (rounds_open), so this state is written by hand:
  // the engine itself must still settle the round where it started, whatever the setting says.
  const forceMode = (c: Client, mode: 'transfer' | 'seamless') =>
    sql`update public.wallet_setting set mode = ${mode} where client_id = ${c.operator.account.id} and livemode`;

  it('takes its bets and pays its wins in its own wallet, and staff cancelling it give the bets back there', async () => {
    const c = await client('seamless');
    const { token, player } = await launch(c);
    const round = id('round');
    expect(await post('bets', { session_token: token, transaction_id: id('bet'), round_id: round, amount: '10' }))
      .toMatchObject({ status: 200, body: { balance: '90.0000' } });
    await forceMode(c, 'transfer');
    expect(await post('bets', { session_token: token, transaction_id: id('bet'), round_id: round, amount: '5' }))
      .toMatchObject({ status: 200, body: { balance: '85.0000' } });
    expect(await post('wins', { session_token: token, transaction_id: id('win'), round_id: round, amount: '20', round_closed: true }))
      .toMatchObject({ status: 200, body: { balance: '105.0000' } });
    expect(c.wallet.balance(player)).toBe('105.0000');
    expect(await floatOf(c)).toBe('100.0000');
    await expectConserved(c);

    await forceMode(c, 'seamless');
    const stuck = id('round');
    const stuckBet = id('bet');
    expect(await post('bets', { session_token: token, transaction_id: stuckBet, round_id: stuck, amount: '4' }))
      .toMatchObject({ status: 200, body: { balance: '101.0000' } });
    await forceMode(c, 'transfer');
    const [{ id: roundId }] = await sql`select id from public.game_round where provider_round_id = ${stuck}`;
    expect((await sql`select status from public.resolve_round(${roundId}, 'cancel')`)[0].status).toBe('cancelled');
    expect(await floatOf(c)).toBe('100.0000');
    expect(await sql`
      select w.action, w.request->>'rolled_back_transaction_id' as bet from public.wallet_call w
      join public.round_transaction t on t.id = w.round_transaction_id
      where t.round_id = ${roundId} and t.kind = 'rollback'`).toEqual([{ action: 'rollback', bet: `pragmatic-play:${stuckBet}` }]);
  });
});
