// The round engine in the database (private.round_bet, round_win, round_rollback, round_balance),
// in transfer mode: every rule of the provider API's money, against a real float. Each call is one
// transaction, as the provider routes make it.
import { createHash, randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { as, cast, connect, outcome, untilBlockedBy } from '../helpers/db.ts';
import { rerunConflicts } from '../../supabase/functions/_shared/database.ts';
import { issueKey, newOperator, type Operator, recordedSession, type RecordedSessionOptions } from '../helpers/api.ts';

const sql = connect();
let operator: Operator;
let keyHash: string;
const sha = (text: string) => createHash('sha256').update(text).digest('hex');

beforeAll(async () => {
  operator = await newOperator(sql, 'rounds');
  await sql`insert into public.wallet (client_id, currency_code, is_primary) values (${operator.account.id}, 'EUR', true)`;
  await sql`select * from public.record_transaction(${operator.account.id}::uuid, 'EUR', 'deposit', 100::numeric)`;
  const [issued] = await sql`select * from public.issue_provider_key('pragmatic-play', 'Engine tests')`;
  keyHash = sha(issued.key);
});

interface Outcome {
  outcome: string;
  body: Record<string, unknown> | null;
  balance: string | null;
}

const session = (options: RecordedSessionOptions = {}) => recordedSession(sql, operator.account.id, options);

// What the provider routes send: the fingerprint is of the request's meaning.
const bet = async (s: string, tx: string, round: string, amount: string, closed = false, hash = keyHash): Promise<Outcome> =>
  (await sql<Outcome[]>`select * from private.round_bet(${hash}, ${s}, ${tx}, ${round}, ${amount}::numeric, ${closed},
    ${sha(JSON.stringify(['bet', s, tx, round, amount, closed]))})`)[0];
const win = async (s: string, tx: string, round: string, amount: string, closed = false, betTx: string | null = null) =>
  (await sql<Outcome[]>`select * from private.round_win(${keyHash}, ${s}, ${tx}, ${round}, ${amount}::numeric, ${closed},
    ${betTx}, ${sha(JSON.stringify(['win', s, tx, round, amount, closed, betTx]))})`)[0];
const rollback = async (s: string, tx: string, target: string) =>
  (await sql<Outcome[]>`select * from private.round_rollback(${keyHash}, ${s}, ${tx}, ${target},
    ${sha(JSON.stringify(['rollback', s, tx, target]))})`)[0];
const float = async () =>
  (await sql`select balance::text from public.wallet where client_id = ${operator.account.id} and currency_code = 'EUR'`)[0].balance;
const ledgerCount = async () => (await sql`select count(*)::int as n from public.transaction where client_id = ${operator.account.id}`)[0].n;
const roundOf = async (round: string) => (await sql`select * from public.game_round where provider_round_id = ${round}`)[0];
const id = (prefix: string) => `${prefix}-${randomUUID()}`;

describe('the round engine, transfer mode', () => {
  it('answers the float\'s balance in the session\'s currency', async () => {
    const s = await session();
    const [answer] = await sql`select * from private.round_balance(${keyHash}, ${s})`;
    expect(answer).toEqual({ outcome: 'ok', body: { balance: await float(), currency: 'EUR' } });
  });

  it('a bet debits the float once; its repeat replays the first answer; another request with its id is a conflict', async () => {
    const s = await session();
    const before = await float();
    const [tx, round] = [id('bet'), id('round')];
    const first = await bet(s, tx, round, '10.5');
    expect(first.outcome).toBe('ok');
    expect(first.body).toEqual({ transaction_id: tx, round_id: round, balance: (Number(before) - 10.5).toFixed(4), currency: 'EUR' });
    const count = await ledgerCount();
    expect(await bet(s, tx, round, '10.5')).toEqual({ outcome: 'replayed', body: first.body, balance: null });
    expect(await bet(s, tx, round, '11')).toMatchObject({ outcome: 'duplicate_transaction', body: null });
    expect(await ledgerCount()).toBe(count);
    expect(await roundOf(round)).toMatchObject({ status: 'open', total_bet: '10.5000', session_id: s });
    expect((await sql`select status from public.game_session where id = ${s}`)[0].status).toBe('active');
    const [ledger] = await sql`select t.type, t.amount::text from public.transaction t
      join public.round_transaction r on r.ledger_transaction_id = t.id where r.transaction_id = ${tx}`;
    expect(ledger).toEqual({ type: 'bet', amount: '-10.5000' });
  });

  it('a win credits the float, settles its bet and closes the round; nothing more enters a closed round', async () => {
    const s = await session();
    const [b, round] = [id('bet'), id('round')];
    await bet(s, b, round, '5');
    const before = await float();
    const won = await win(s, id('win'), round, '12.25', true, b);
    expect(won).toMatchObject({ outcome: 'ok', balance: (Number(before) + 12.25).toFixed(4) });
    expect(await roundOf(round)).toMatchObject({ status: 'closed', total_bet: '5.0000', total_win: '12.2500' });
    expect(await rollback(s, id('rb'), b)).toMatchObject({ outcome: 'bet_settled' });
    expect(await bet(s, id('bet'), round, '1')).toMatchObject({ outcome: 'round_closed' });
    expect(await win(s, id('win'), round, '1')).toMatchObject({ outcome: 'round_closed' });
  });

  it('a win of 0 closes a lost round without moving money; a win without a bet named settles the round\'s bets', async () => {
    const s = await session();
    const [b, round] = [id('bet'), id('round')];
    await bet(s, b, round, '2');
    const count = await ledgerCount();
    expect(await win(s, id('win'), round, '0', true)).toMatchObject({ outcome: 'ok', balance: await float() });
    expect(await ledgerCount()).toBe(count);
    expect(await rollback(s, id('rb'), b)).toMatchObject({ outcome: 'bet_settled' });
  });

  it('a win of 0 with round_closed closes the round: nothing more enters it', async () => {
    const s = await session();
    const round = id('round');
    await bet(s, id('bet'), round, '1');
    expect(await win(s, id('win'), round, '0', true)).toMatchObject({ outcome: 'ok' });
    expect(await roundOf(round)).toMatchObject({ status: 'closed', total_bet: '1.0000', total_win: '0.0000', closed_at: expect.any(Date) });
    expect(await bet(s, id('bet'), round, '1')).toMatchObject({ outcome: 'round_closed' });
  });

  it('a round closes with the bet that says round_closed, its first or a later one', async () => {
    const s = await session();
    const [first, later] = [id('round'), id('round')];
    expect(await bet(s, id('bet'), first, '1', true)).toMatchObject({ outcome: 'ok' });
    expect(await roundOf(first)).toMatchObject({ status: 'closed', total_bet: '1.0000', closed_at: expect.any(Date) });
    await bet(s, id('bet'), later, '1');
    expect(await roundOf(later)).toMatchObject({ status: 'open', closed_at: null });
    expect(await bet(s, id('bet'), later, '2', true)).toMatchObject({ outcome: 'ok' });
    expect(await roundOf(later)).toMatchObject({ status: 'closed', total_bet: '3.0000', closed_at: expect.any(Date) });
    expect(await bet(s, id('bet'), later, '1')).toMatchObject({ outcome: 'round_closed' });
  });

  it('refuses a rollback naming a win (invalid_rollback) and moves nothing: balance, ledger and round unchanged', async () => {
    const s = await session();
    const [b, w, round] = [id('bet'), id('win'), id('round')];
    await bet(s, b, round, '5');
    // Less than the bet, and the round left open: a rollback that took the win for a bet would go through.
    await win(s, w, round, '2', false, b);
    const [balance, count, before] = [await float(), await ledgerCount(), await roundOf(round)];
    const rb = id('rb');
    expect(await rollback(s, rb, w)).toEqual({ outcome: 'invalid_rollback', body: null, balance: null });
    expect(await float()).toBe(balance);
    expect(await ledgerCount()).toBe(count);
    expect(await roundOf(round)).toEqual(before);
    expect((await sql`select rolled_back from public.round_transaction where transaction_id = ${w}`)[0].rolled_back).toBe(false);
    expect((await sql`select count(*)::int as n from public.round_transaction where transaction_id = ${rb}`)[0].n).toBe(0);
  });

  it('refuses a bet the float cannot cover, with the balance, and writes nothing', async () => {
    const s = await session();
    const round = id('round');
    const count = await ledgerCount();
    const balance = await float();
    expect(await bet(s, id('bet'), round, '1000000')).toEqual({ outcome: 'insufficient_funds', body: { balance, currency: 'EUR' }, balance: null });
    expect(await ledgerCount()).toBe(count);
    expect(await roundOf(round)).toBeUndefined();
  });

  it('a rollback gives the bet back once; the round with nothing left at stake is cancelled; a rolled-back bet cannot be won', async () => {
    const s = await session();
    const [b1, b2, round] = [id('bet'), id('bet'), id('round')];
    const before = await float();
    await bet(s, b1, round, '3');
    await bet(s, b2, round, '4');
    expect(await rollback(s, id('rb'), b1)).toMatchObject({ outcome: 'ok', balance: (Number(before) - 4).toFixed(4) });
    expect(await win(s, id('win'), round, '1', false, b1)).toMatchObject({ outcome: 'transaction_rolled_back' });
    const count = await ledgerCount();
    expect(await rollback(s, id('rb'), b1)).toMatchObject({ outcome: 'ok' }); // again, under another id: nothing moves
    expect(await ledgerCount()).toBe(count);
    expect(await rollback(s, id('rb'), b2)).toMatchObject({ outcome: 'ok', balance: before });
    expect(await roundOf(round)).toMatchObject({ status: 'cancelled', total_bet: '0.0000' });
    const [adjustment] = await sql`select t.type, t.amount::text from public.transaction t
      join public.round_transaction r on r.ledger_transaction_id = t.id where r.related_transaction_id = ${b2}`;
    expect(adjustment).toEqual({ type: 'adjustment', amount: '4.0000' });
  });

  it('a rollback of a transaction nobody has seen is recorded and answered OK; the bet arriving after it is refused', async () => {
    const s = await session();
    const [b, round] = [id('bet'), id('round')];
    const count = await ledgerCount();
    expect(await rollback(s, id('rb'), b)).toMatchObject({ outcome: 'ok', balance: await float() });
    expect(await bet(s, b, round, '1')).toMatchObject({ outcome: 'transaction_rolled_back' });
    expect(await ledgerCount()).toBe(count);
  });

  it('takes bets from a launched session until it closes; wins and rollbacks after that', async () => {
    const expired = await session({ expiresIn: '-1 minute' });
    expect(await bet(expired, id('bet'), id('round'), '1')).toMatchObject({ outcome: 'session_expired' });
    const s = await session();
    const [b, round] = [id('bet'), id('round')];
    await bet(s, b, round, '1');
    await sql`update public.game_session set status = 'closed', expires_at = now() - interval '1 second' where id = ${s}`;
    expect(await bet(s, id('bet'), round, '1')).toMatchObject({ outcome: 'session_closed' });
    expect(await rollback(s, id('rb'), b)).toMatchObject({ outcome: 'ok' });
    const [b2, round2] = [id('bet'), id('round')];
    const launched = await session({ status: 'active', expiresIn: '-1 hour' });
    expect(await bet(launched, b2, round2, '1')).toMatchObject({ outcome: 'ok' });
    await sql`update public.game_session set status = 'closed' where id = ${launched}`;
    expect(await win(launched, id('win'), round2, '2', true)).toMatchObject({ outcome: 'ok' });
  });

  it('refuses an unknown key, a session of another provider or none, and a test session without a test player', async () => {
    expect(await bet(await session(), id('bet'), id('round'), '1', false, sha('nobody'))).toMatchObject({ outcome: 'invalid_provider_key' });
    expect(await bet(await session({ provider: 'spribe' }), id('bet'), id('round'), '1')).toMatchObject({ outcome: 'unknown_session' });
    expect(await bet(randomUUID(), id('bet'), id('round'), '1')).toMatchObject({ outcome: 'unknown_session' });
    expect(await bet(await session({ livemode: false }), id('bet'), id('round'), '1')).toMatchObject({ outcome: 'test_player_unknown' });
  });

  it('applies a transaction_id once when the same bet arrives many times at once', async () => {
    const s = await session();
    const [tx, round] = [id('bet'), id('round')];
    const count = await ledgerCount();
    const answers = await Promise.all(Array.from({ length: 8 }, () => bet(s, tx, round, '1')));
    expect(answers.filter((a) => a.outcome === 'ok')).toHaveLength(1);
    expect(answers.filter((a) => a.outcome === 'replayed')).toHaveLength(7);
    expect(new Set(answers.map((a) => JSON.stringify(a.body))).size).toBe(1);
    expect(await ledgerCount()).toBe(count + 1);
  });

  it('conserves money: the float is deposits minus bets plus wins plus rollbacks', async () => {
    const [row] = await sql`
      select (select balance from public.wallet where client_id = ${operator.account.id} and currency_code = 'EUR') as float,
             100 - coalesce(sum(amount) filter (where kind = 'bet'), 0)
                 + coalesce(sum(amount) filter (where kind = 'win'), 0)
                 + coalesce(sum(amount) filter (where kind = 'rollback' and ledger_transaction_id is not null), 0) as expected
      from public.round_transaction where client_id = ${operator.account.id}`;
    expect(row.float).toBe(row.expected);
  });
});

describe('stuck rounds', () => {
  it('staff cancel an open round: its unsettled bets come back, each a rollback and an adjustment', async () => {
    const s = await session();
    const [b1, b2, round] = [id('bet'), id('bet'), id('round')];
    const before = await float();
    await bet(s, b1, round, '4');
    await bet(s, b2, round, '6');
    const { id: roundId } = await roundOf(round);
    const people = await cast(sql);
    expect(await outcome(() => as(sql, people.alice, (tx) => tx`select * from public.resolve_round(${roundId}, 'cancel')`))).toBe('42501');
    const [resolved] = await as(sql, people.adam, (tx) => tx`select * from public.resolve_round(${roundId}, 'cancel')`);
    expect(resolved).toMatchObject({ status: 'cancelled', total_bet: '0.0000' });
    expect(await float()).toBe(before);
    const kinds = await sql`select kind, amount::text, rolled_back from public.round_transaction where round_id = ${roundId} order by created_at, kind`;
    expect(kinds.filter((t) => t.kind === 'rollback').map((t) => t.amount).sort()).toEqual(['4.0000', '6.0000']);
    // Again the same way: unchanged; the other way: refused.
    expect((await sql`select status from public.resolve_round(${roundId}, 'cancel')`)[0].status).toBe('cancelled');
    await expect(sql`select * from public.resolve_round(${roundId}, 'close')`).rejects.toMatchObject({ code: '55000' });
    expect(await bet(s, id('bet'), round, '1')).toMatchObject({ outcome: 'round_closed' });
  });

  it('staff cancelling a round gives its bets\' loss-limit room back', async () => {
    const s = await session();
    const player = id('player');
    await sql`update public.game_session set player_id = ${player} where id = ${s}`;
    await sql`insert into public.player_restriction (client_id, livemode, player_id, loss_limits)
              values (${operator.account.id}, true, ${player}, '{"EUR": {"day": "10.0000"}}')`;
    const dayLoss = async () => (await sql`select day_loss::text from private.player_loss where player_id = ${player}`)[0].day_loss;
    const round = id('round');
    expect(await bet(s, id('bet'), round, '6')).toMatchObject({ outcome: 'ok' });
    expect(await bet(s, id('bet'), round, '4')).toMatchObject({ outcome: 'ok' });
    expect(await bet(s, id('bet'), id('round'), '0.01')).toMatchObject({ outcome: 'loss_limit_reached' });
    expect(await dayLoss()).toBe('10.0000');
    await sql`select * from public.resolve_round(${(await roundOf(round)).id}, 'cancel')`;
    expect(await dayLoss()).toBe('0.0000');
    expect(await bet(s, id('bet'), id('round'), '10')).toMatchObject({ outcome: 'ok' });
  });

  it('staff close a round as played; a round that paid a win cannot be cancelled', async () => {
    const s = await session();
    const round = id('round');
    await bet(s, id('bet'), round, '1');
    await win(s, id('win'), round, '2');
    const { id: roundId } = await roundOf(round);
    await expect(sql`select * from public.resolve_round(${roundId}, 'cancel')`).rejects.toMatchObject({ code: '55000' });
    const before = await float();
    expect((await sql`select status from public.resolve_round(${roundId}, 'close')`)[0].status).toBe('closed');
    expect(await float()).toBe(before);
    await expect(sql`select * from public.resolve_round(${roundId}, 'void')`).rejects.toMatchObject({ code: '22023' });
  });
});

describe('found in review', () => {
  it('refuses amounts that would take a balance or a round total past 16 digits, never a 500', async () => {
    const rich = await newOperator(sql, 'rich');
    await sql`insert into public.wallet (client_id, currency_code) values (${rich.account.id}, 'EUR')`;
    await sql`select * from public.record_transaction(${rich.account.id}::uuid, 'EUR', 'deposit', 9000000000000000::numeric)`;
    const s = { id: await recordedSession(sql, rich.account.id) };
    const round = id('round');
    expect(await bet(s.id, id('bet'), round, '8000000000000000')).toMatchObject({ outcome: 'ok' });
    expect(await win(s.id, id('win'), round, '9999999999999999')).toMatchObject({ outcome: 'amount_too_large' });
    expect(await win(s.id, id('win'), round, '8000000000000000')).toMatchObject({ outcome: 'ok' });
    expect(await bet(s.id, id('bet'), round, '8000000000000000')).toMatchObject({ outcome: 'amount_too_large' });
  });

  it('replays a first answer whatever changed since: a bet repeated after the operator turned seamless', async () => {
    const op = await newOperator(sql, 'turns-seamless');
    await sql`insert into public.wallet (client_id, currency_code) values (${op.account.id}, 'EUR')`;
    await sql`select * from public.record_transaction(${op.account.id}::uuid, 'EUR', 'deposit', 10::numeric)`;
    const s = { id: await recordedSession(sql, op.account.id) };
    const [tx, round] = [id('bet'), id('round')];
    const first = await bet(s.id, tx, round, '1', true);
    expect(first.outcome).toBe('ok');
    await sql`select * from private.change_wallet_settings(${op.account.id}, true, 'seamless', 'https://w.test/', false)`;
    expect(await bet(s.id, tx, round, '1', true)).toEqual({ outcome: 'replayed', body: first.body, balance: null });
    // A new bet is now the operator's wallet's to take.
    expect(await bet(s.id, id('bet'), id('round'), '1')).toMatchObject({ outcome: 'wallet_call', body: { url: 'https://w.test/' } });
  });

  it('a change of mode waits for a bet in flight, then sees its open round', async () => {
    const op = await newOperator(sql, 'race');
    await sql`insert into public.wallet (client_id, currency_code) values (${op.account.id}, 'EUR')`;
    await sql`select * from public.record_transaction(${op.account.id}::uuid, 'EUR', 'deposit', 10::numeric)`;
    const s = { id: await recordedSession(sql, op.account.id) };
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let betApplied!: () => void;
    const applied = new Promise<void>((resolve) => (betApplied = resolve));
    const inFlight = sql.begin(async (tx) => {
      await tx`select * from private.round_bet(${keyHash}, ${s.id}, ${id('bet')}, ${id('round')}, 1, false, ${sha('race')})`;
      betApplied();
      await held;
    });
    await applied;
    const change = sql`select outcome from private.change_wallet_settings(${op.account.id}, true, 'seamless', 'https://w.test/', false)`;
    const early = await Promise.race([change.then(() => 'done'), new Promise((resolve) => setTimeout(() => resolve('waiting'), 300))]);
    expect(early).toBe('waiting');
    release();
    await inFlight;
    expect((await change)[0].outcome).toBe('rounds_open');
  });

  it('keeps transaction and round locks apart whatever the ids: no deadlock between crossed names', async () => {
    const s = await session();
    const [a, b] = [id('R'), id('R')];
    const answers = await Promise.all([bet(s, `round/${a}`, b, '0.01'), bet(s, `round/${b}`, a, '0.01')]);
    expect(answers.map((x) => x.outcome)).toEqual(['ok', 'ok']);
  });

  it('rolls back only a bet of the rollback\'s own session, and a repeated rollback records no amount', async () => {
    const [s1, s2] = [await session(), await session()];
    const [b, round] = [id('bet'), id('round')];
    await bet(s1, b, round, '1');
    expect(await rollback(s2, id('rb'), b)).toMatchObject({ outcome: 'invalid_rollback' });
    await rollback(s1, id('rb'), b);
    const again = id('rb');
    expect(await rollback(s1, again, b)).toMatchObject({ outcome: 'ok' });
    expect((await sql`select amount::text from public.round_transaction where transaction_id = ${again}`)[0].amount).toBe('0.0000');
  });

  it('a round closed by staff is final; a round a win settled cannot be cancelled', async () => {
    const s = await session();
    const [b, round] = [id('bet'), id('round')];
    await bet(s, b, round, '1');
    const { id: roundId } = await roundOf(round);
    await sql`select * from public.resolve_round(${roundId}, 'close')`;
    expect(await rollback(s, id('rb'), b)).toMatchObject({ outcome: 'bet_settled' });
    const round2 = id('round');
    await bet(s, id('bet'), round2, '1');
    await win(s, id('win'), round2, '0');
    await expect(sql`select * from public.resolve_round(${(await roundOf(round2)).id}, 'cancel')`).rejects.toMatchObject({ code: '55000' });
  });
});

describe('bounds and scopes the mutation campaign asked for', () => {
  it('a bet of the whole balance is taken, leaving 0', async () => {
    const op = await newOperator(sql, 'all-in');
    await sql`insert into public.wallet (client_id, currency_code) values (${op.account.id}, 'EUR')`;
    await sql`select * from public.record_transaction(${op.account.id}::uuid, 'EUR', 'deposit', 10::numeric)`;
    const s = await recordedSession(sql, op.account.id);
    expect(await bet(s, id('bet'), id('round'), '10')).toMatchObject({ outcome: 'ok', balance: '0.0000' });
  });

  it("a round's bets totalling exactly 1e16 are refused as amount_too_large, never a 500", async () => {
    const rich = await newOperator(sql, 'rich-bets');
    await sql`insert into public.wallet (client_id, currency_code) values (${rich.account.id}, 'EUR')`;
    const deposit = (amount: string) =>
      sql`select * from public.record_transaction(${rich.account.id}::uuid, 'EUR', 'deposit', ${amount}::numeric)`;
    await deposit('9999999999999999');
    const s = await recordedSession(sql, rich.account.id);
    const round = id('round');
    expect(await bet(s, id('bet'), round, '1')).toMatchObject({ outcome: 'ok' });
    await deposit('1');
    expect(await bet(s, id('bet'), round, '9999999999999999')).toMatchObject({ outcome: 'amount_too_large' });
    expect((await roundOf(round)).total_bet).toBe('1.0000');
  });

  it('a win naming one bet settles that bet alone: another bet of its round can still be rolled back', async () => {
    const s = await session();
    const [first, second, round] = [id('bet'), id('bet'), id('round')];
    await bet(s, first, round, '1');
    await bet(s, second, round, '2');
    expect(await win(s, id('win'), round, '3', false, first)).toMatchObject({ outcome: 'ok' });
    expect(await rollback(s, id('rb'), first)).toMatchObject({ outcome: 'bet_settled' });
    expect(await rollback(s, id('rb'), second)).toMatchObject({ outcome: 'ok' });
  });

  it('staff cancelling a round give back only the bets not already rolled back', async () => {
    const s = await session();
    const [b1, b2, round] = [id('bet'), id('bet'), id('round')];
    const before = await float();
    await bet(s, b1, round, '4');
    await bet(s, b2, round, '6');
    expect(await rollback(s, id('rb'), b1)).toMatchObject({ outcome: 'ok' });
    const { id: roundId } = await roundOf(round);
    expect((await sql`select status from public.resolve_round(${roundId}, 'cancel')`)[0].status).toBe('cancelled');
    expect(await float()).toBe(before);
    const given = await sql`select amount::text from public.round_transaction where round_id = ${roundId} and kind = 'rollback'`;
    expect(given.map((t) => t.amount).sort()).toEqual(['4.0000', '6.0000']);
  });
  it("a round's movements touch the wallet in the session's currency alone", async () => {
    const op = await newOperator(sql, 'two-currencies');
    for (const currency of ['EUR', 'USD']) {
      await sql`insert into public.wallet (client_id, currency_code) values (${op.account.id}, ${currency})`;
      await sql`select * from public.record_transaction(${op.account.id}::uuid, ${currency}, 'deposit', 50::numeric)`;
    }
    const s = await recordedSession(sql, op.account.id);
    const round = id('round');
    expect(await bet(s, id('bet'), round, '10')).toMatchObject({ outcome: 'ok', balance: '40.0000' });
    expect(await win(s, id('win'), round, '3', true)).toMatchObject({ outcome: 'ok', balance: '43.0000' });
    expect(await sql`select currency_code, balance::text from public.wallet where client_id = ${op.account.id} order by currency_code`)
      .toEqual([{ currency_code: 'EUR', balance: '43.0000' }, { currency_code: 'USD', balance: '50.0000' }]);
  });
});

describe('the balance locked last', () => {
  it('a bet whose balance another movement took between its read and its debit is rolled back whole, and refused when run again', async () => {
    const own = await newOperator(sql, 'locked-last');
    await sql`insert into public.wallet (client_id, currency_code) values (${own.account.id}, 'EUR')`;
    await sql`select * from public.record_transaction(${own.account.id}::uuid, 'EUR', 'deposit', 100::numeric)`;
    const s = await recordedSession(sql, own.account.id);
    const [tx, round] = [id('bet'), id('round')];
    // A movement of 60 holds the wallet's row, not yet committed: the bet reads 100 and goes on.
    let commit!: () => void;
    const committing = new Promise<void>((resolve) => (commit = resolve));
    let holding!: (pid: number) => void;
    const holder = new Promise<number>((resolve) => (holding = resolve));
    const movement = sql.begin(async (t) => {
      await t`select * from public.record_transaction(${own.account.id}::uuid, 'EUR', 'withdraw', -60::numeric)`;
      holding((await t`select pg_backend_pid() as pid`)[0].pid);
      await committing;
    });
    const pid = await holder;
    const attempt = bet(s, tx, round, '50').then(() => 'answered', (error: { code?: string }) => error.code);
    // The bet is at its debit once it waits on the row the movement holds.
    await untilBlockedBy(sql, pid);
    commit();
    await movement;
    expect(await attempt).toBe('40001');
    expect(await sql`select 1 from public.game_round where provider_round_id = ${round}`).toHaveLength(0);
    expect(await sql`select 1 from public.round_transaction where transaction_id = ${tx}`).toHaveLength(0);
    expect((await sql`select count(*)::int as n from public.transaction where client_id = ${own.account.id}`)[0].n).toBe(2);
    // Run again, as the provider API runs it: refused on the balance as it is now.
    expect(await rerunConflicts(() => bet(s, tx, round, '50'))).toEqual({
      outcome: 'insufficient_funds', body: { balance: '40.0000', currency: 'EUR' }, balance: null,
    });
    expect(await rerunConflicts(() => bet(s, tx, round, '40'))).toMatchObject({ outcome: 'ok', balance: '0.0000' });
  });
});
