// The sportsbook in the database (private.sportsbook_place, _commit, _discard, _settle, _unsettle,
// _close), in transfer mode: every money rule against a real float, each call one transaction as
// the provider routes make it (and run again when a concurrent movement took the balance).
import { createHash, randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../helpers/db.ts';
import { newOperator, type Operator, recordedSession, type RecordedSessionOptions } from '../helpers/api.ts';
import { engine, sportsbookGame } from './sportsbook.ts';

const sql = connect();
let operator: Operator;
let keyHash: string;
let game: string;
const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const id = (prefix: string) => `${prefix}-${randomUUID()}`;

beforeAll(async () => {
  operator = await newOperator(sql, 'sportsbook');
  await sql`insert into public.wallet (client_id, currency_code, is_primary) values (${operator.account.id}, 'EUR', true)`;
  await sql`select * from public.record_transaction(${operator.account.id}::uuid, 'EUR', 'deposit', 1000::numeric)`;
  const [issued] = await sql`select * from public.issue_provider_key('pragmatic-play', 'Sportsbook tests')`;
  keyHash = sha(issued.key);
  game = await sportsbookGame(sql);
});

const { place, settle, unsettle, commit, discard, close } = engine(sql, () => keyHash);
const session = (options: RecordedSessionOptions & { player?: string } = {}) =>
  recordedSession(sql, operator.account.id, { game, ...options }).then(async (s) => {
    if (options.player) await sql`update public.game_session set player_id = ${options.player} where id = ${s}`;
    return s;
  });
const float = async () =>
  (await sql`select balance::text from public.wallet where client_id = ${operator.account.id} and currency_code = 'EUR'`)[0].balance as string;
const money = (value: number) => value.toFixed(4);
const betOf = async (bet: string) => (await sql`
  select b.*, r.status as round_status, r.total_bet::text as total_bet, r.total_win::text as total_win
  from public.sportsbook_bet b join public.game_round r on r.id = b.round_id where r.provider_round_id = ${bet}`)[0];
const ledgerOf = async (bet: string) => (await sql`
  select t.type, t.amount::text from public.transaction t
  where t.note like ${`sportsbook bet ${bet},%`} order by t.created_at, t.id`)
  .map((t) => `${t.type} ${t.amount}`);
const eventsOf = async (bet: string) => (await sql`
  select type from public.event where client_id = ${operator.account.id} and data->>'bet_id' = ${bet} order by created_at, id`)
  .map((e) => e.type);

describe('placing a bet', () => {
  it('debits the stake once; a repeat replays the first answer; the same id for another request is a conflict', async () => {
    const s = await session();
    const [bet, tx] = [id('bet'), id('place')];
    const before = Number(await float());
    const first = await place(s, bet, tx, '10', { odds: '2.5', potential: '25' });
    expect(first).toEqual({ outcome: 'ok', body: {
      transaction_id: tx, bet_id: bet, status: 'open', result: null, payout: '0.0000', paid: '0.0000', owed: '0.0000',
      balance: money(before - 10), currency: 'EUR' } });
    expect(await place(s, bet, tx, '10', { odds: '2.5', potential: '25' })).toEqual({ outcome: 'replayed', body: first.body });
    expect(await place(s, bet, tx, '11')).toEqual({ outcome: 'duplicate_transaction', body: null });
    expect(await place(s, bet, id('place'), '10')).toEqual({ outcome: 'duplicate_bet', body: null });
    expect(await float()).toBe(money(before - 10));
    expect(await ledgerOf(bet)).toEqual(['bet -10.0000']);
    expect(await betOf(bet)).toMatchObject({ status: 'open', stake: '10.0000', odds: '2.500000', potential_payout: '25.0000',
      round_status: 'closed', total_bet: '10.0000', total_win: '0.0000' });
    expect(await eventsOf(bet)).toEqual(['sportsbook.bet.placed']);
    expect((await sql`select status from public.game_session where id = ${s}`)[0].status).toBe('active');
  });

  it('refuses what the float cannot cover, a game that is no sportsbook, and an unknown key or session: nothing written', async () => {
    const s = await session();
    const bet = id('bet');
    const balance = await float();
    expect(await place(s, bet, id('place'), '100000')).toEqual({ outcome: 'insufficient_funds', body: { balance, currency: 'EUR' } });
    const casino = await recordedSession(sql, operator.account.id);
    expect(await place(casino, bet, id('place'), '1')).toMatchObject({ outcome: 'not_sportsbook' });
    expect(await place(randomUUID(), bet, id('place'), '1')).toMatchObject({ outcome: 'unknown_session' });
    const real = keyHash;
    keyHash = sha('nobody');
    try {
      expect(await place(s, bet, id('place'), '1')).toMatchObject({ outcome: 'invalid_provider_key' });
      expect(await settle(bet, id('settle'), 'lost', '0')).toMatchObject({ outcome: 'invalid_provider_key' });
    } finally {
      keyHash = real;
    }
    expect(await betOf(bet)).toBeUndefined();
    expect(await float()).toBe(balance);
  });

  it('is refused in a closed or expired session, and by the player\'s restrictions and stake limits', async () => {
    expect(await place(await session({ expiresIn: '-1 minute' }), id('bet'), id('place'), '1')).toMatchObject({ outcome: 'session_expired' });
    expect(await place(await session({ status: 'closed' }), id('bet'), id('place'), '1')).toMatchObject({ outcome: 'session_closed' });
    const [excluded, limited] = [id('player'), id('player')];
    await sql`insert into public.player_restriction (client_id, livemode, player_id, self_excluded_indefinitely)
              values (${operator.account.id}, true, ${excluded}, true)`;
    await sql`insert into public.player_restriction (client_id, livemode, player_id, stake_limits)
              values (${operator.account.id}, true, ${limited}, '{"EUR": "5.0000"}')`;
    expect(await place(await session({ player: excluded }), id('bet'), id('place'), '1')).toMatchObject({ outcome: 'player_restricted' });
    const s = await session({ player: limited });
    expect(await place(s, id('bet'), id('place'), '5.01')).toMatchObject({ outcome: 'stake_limit_exceeded' });
    expect(await place(s, id('bet'), id('place'), '5')).toMatchObject({ outcome: 'ok' });
  });

  it('is a round no casino call can reach: no win, no second bet, no rollback of its stake', async () => {
    const s = await session();
    const [bet, tx] = [id('bet'), id('place')];
    await place(s, bet, tx, '2');
    const fp = (parts: unknown[]) => sha(JSON.stringify(parts));
    const [won] = await sql`select outcome from private.round_win(${keyHash}, ${s}, ${id('win')}, ${bet}, 50::numeric, false, null, ${fp(['w'])})`;
    expect(won.outcome).toBe('round_closed');
    const [again] = await sql`select outcome from private.round_bet(${keyHash}, ${s}, ${id('b')}, ${bet}, 1::numeric, false, ${fp(['b'])})`;
    expect(again.outcome).toBe('round_closed');
    const [undone] = await sql`select outcome from private.round_rollback(${keyHash}, ${s}, ${id('rb')}, ${tx}, ${fp(['r'])})`;
    expect(undone.outcome).toBe('invalid_rollback');
    expect(await ledgerOf(bet)).toEqual(['bet -2.0000']);
  });
});

describe('settling a bet', () => {
  it('pays the payout; a resettlement moves only the difference, a fall being a clawback; the same payout again moves nothing', async () => {
    const s = await session();
    const bet = id('bet');
    await place(s, bet, id('place'), '10', { odds: '3', potential: '30' });
    const before = Number(await float());
    expect(await settle(bet, id('settle'), 'won', '30')).toMatchObject({ outcome: 'ok', body: {
      status: 'settled', result: 'won', payout: '30.0000', paid: '30.0000', owed: '0.0000', balance: money(before + 30) } });
    expect(await settle(bet, id('settle'), 'half_won', '20')).toMatchObject({ outcome: 'ok', body: { payout: '20.0000', paid: '20.0000' } });
    expect(await settle(bet, id('settle'), 'half_won', '20')).toMatchObject({ outcome: 'ok', body: { balance: money(before + 20) } });
    expect(await settle(bet, id('settle'), 'lost', '0')).toMatchObject({ outcome: 'ok', body: { result: 'lost', paid: '0.0000' } });
    expect(await ledgerOf(bet)).toEqual(['bet -10.0000', 'win 30.0000', 'adjustment -10.0000', 'adjustment -20.0000']);
    expect(await float()).toBe(money(before));
    expect(await eventsOf(bet)).toEqual(['sportsbook.bet.placed', 'sportsbook.bet.settled', 'sportsbook.bet.resettled',
      'sportsbook.bet.resettled', 'sportsbook.bet.resettled']);
    const history = (await betOf(bet)).settlements as { type: string; moved: string }[];
    expect(history.map((h) => `${h.type} ${h.moved}`)).toEqual(['settlement 30.0000', 'settlement -10.0000', 'settlement 0.0000',
      'settlement -20.0000']);
  });

  it('settled, resettled twenty times between won and lost, and closed, a bet moves exactly its final payout', async () => {
    const s = await session();
    const bet = id('bet');
    const before = Number(await float());
    await place(s, bet, id('place'), '4', { odds: '2.25', potential: '9' });
    for (let i = 0; i < 21; i += 1) {
      const won = i % 2 === 0;
      expect(await settle(bet, id('settle'), won ? 'won' : 'lost', won ? '9' : '0')).toMatchObject({ outcome: 'ok' });
    }
    expect(await close(bet, id('close'))).toMatchObject({ outcome: 'ok', body: { status: 'closed', payout: '9.0000' } });
    expect(await float()).toBe(money(before - 4 + 9));
    expect(await betOf(bet)).toMatchObject({ status: 'closed', result: 'won', payout: '9.0000', paid: '9.0000', owed: '0.0000' });
    expect(await settle(bet, id('settle'), 'lost', '0')).toMatchObject({ outcome: 'bet_closed' });
    expect(await close(bet, id('close'))).toMatchObject({ outcome: 'ok' });
    expect(await float()).toBe(money(before - 4 + 9));
  });

  it('needs no session: a bet settles after its session closed and expired', async () => {
    const s = await session();
    const bet = id('bet');
    await place(s, bet, id('place'), '1');
    await sql`update public.game_session set status = 'closed', expires_at = now() - interval '1 day' where id = ${s}`;
    expect(await settle(bet, id('settle'), 'won', '2')).toMatchObject({ outcome: 'ok', body: { paid: '2.0000' } });
  });

  it('refuses an unknown bet, a payout above the potential one, and a result its payout contradicts: nothing written', async () => {
    const s = await session();
    const bet = id('bet');
    await place(s, bet, id('place'), '2', { odds: '1.5', potential: '3' });
    const before = await float();
    expect(await settle(id('bet'), id('settle'), 'won', '1')).toEqual({ outcome: 'unknown_bet', body: null });
    expect(await settle(bet, id('settle'), 'won', '3.01')).toMatchObject({ outcome: 'invalid_settlement', body: { reason: 'payout_above_potential' } });
    expect(await settle(bet, id('settle'), 'lost', '1')).toMatchObject({ outcome: 'invalid_settlement', body: { reason: 'result_payout_mismatch' } });
    expect(await settle(bet, id('settle'), 'won', '0')).toMatchObject({ outcome: 'invalid_settlement' });
    expect(await settle(bet, id('settle'), 'void', '1')).toMatchObject({ outcome: 'invalid_settlement' });
    expect(await settle(bet, id('settle'), 'void', '2')).toMatchObject({ outcome: 'ok', body: { result: 'void', paid: '2.0000' } });
    expect(await float()).toBe(money(Number(before) + 2));
  });

  it('applies a settlement once when it arrives many times at once', async () => {
    const s = await session();
    const [bet, tx] = [id('bet'), id('settle')];
    await place(s, bet, id('place'), '1', { potential: '5' });
    const answers = await Promise.all(Array.from({ length: 8 }, () => settle(bet, tx, 'won', '5')));
    expect(answers.filter((a) => a.outcome === 'ok')).toHaveLength(1);
    expect(answers.filter((a) => a.outcome === 'replayed')).toHaveLength(7);
    expect(new Set(answers.map((a) => JSON.stringify(a.body))).size).toBe(1);
    expect(await ledgerOf(bet)).toEqual(['bet -1.0000', 'win 5.0000']);
  });
});

describe('clawbacks nothing covers', () => {
  it('are owed, reported, taken first from the player\'s next payouts, and never dropped', async () => {
    const poor = await newOperator(sql, 'sportsbook-poor');
    await sql`insert into public.wallet (client_id, currency_code) values (${poor.account.id}, 'EUR')`;
    await sql`select * from public.record_transaction(${poor.account.id}::uuid, 'EUR', 'deposit', 10::numeric)`;
    const floatOf = async () =>
      (await sql`select balance::text from public.wallet where client_id = ${poor.account.id} and currency_code = 'EUR'`)[0].balance;
    const s = await recordedSession(sql, poor.account.id, { game });
    const other = await recordedSession(sql, poor.account.id, { game });
    await sql`update public.game_session set player_id = 'someone-else' where id = ${other}`;
    const [a, b, c] = [id('bet'), id('bet'), id('bet')];
    await place(s, a, id('place'), '10', { odds: '5', potential: '50' }); // float 0
    await settle(a, id('settle'), 'won', '50'); // float 50
    await place(other, c, id('place'), '5', { potential: '10' }); // float 45
    await sql`select * from public.record_transaction(${poor.account.id}::uuid, 'EUR', 'withdraw', -40::numeric)`; // float 5
    // Resettled as lost: 50 to take back, 5 there.
    expect(await settle(a, id('settle'), 'lost', '0')).toMatchObject({ outcome: 'ok', body: { paid: '45.0000', owed: '45.0000', balance: '0.0000' } });
    expect(await floatOf()).toBe('0.0000');
    const [pending] = await sql`select data from public.event where client_id = ${poor.account.id} and type = 'sportsbook.clawback.pending'`;
    expect(pending.data).toMatchObject({ bet_id: a, player_id: 'player-1', amount: '45.0000', bet_owed: '45.0000', player_owed: '45.0000' });
    // Another player's payout is that player's: nothing is taken from it.
    await sql`select * from public.record_transaction(${poor.account.id}::uuid, 'EUR', 'deposit', 100::numeric)`; // float 100
    expect(await settle(c, id('settle'), 'won', '10')).toMatchObject({ outcome: 'ok', body: { paid: '10.0000', balance: '110.0000' } });
    // The player's next payout pays what a owes first: 30 of b's 40 goes to a's debt.
    await place(s, b, id('place'), '20', { odds: '2', potential: '40' }); // float 90
    expect(await settle(b, id('settle'), 'won', '30')).toMatchObject({ outcome: 'ok', body: { paid: '30.0000', owed: '0.0000', balance: '90.0000' } });
    expect(await betOf(a)).toMatchObject({ paid: '15.0000', owed: '15.0000', payout: '0.0000' });
    expect(await ledgerOf(b)).toEqual(['bet -20.0000', 'win 30.0000']);
    // A rise of the bet's own payout forgives what it owes, moving nothing.
    expect(await settle(a, id('settle'), 'cashout', '10')).toMatchObject({ outcome: 'ok', body: { paid: '15.0000', owed: '5.0000', balance: '90.0000' } });
    expect(await settle(b, id('settle'), 'won', '40')).toMatchObject({ outcome: 'ok', body: { paid: '40.0000', balance: '95.0000' } });
    expect(await betOf(a)).toMatchObject({ paid: '10.0000', owed: '0.0000', payout: '10.0000' });
    const history = (await betOf(a)).settlements as { type: string; moved: string; owed: string }[];
    expect(history.map((h) => `${h.type} ${h.moved} ${h.owed}`)).toEqual([
      'settlement 50.0000 0.0000', 'settlement -5.0000 45.0000', 'recovery -30.0000 15.0000', 'settlement 0.0000 5.0000',
      'recovery -5.0000 0.0000']);
    // The float is its deposits and withdrawals and every bet's stakes and net payouts.
    expect(await floatOf()).toBe(money(10 + 100 - 40 - 10 - 5 - 20 + 10 + 10 + 40));
  });
});

describe('two-phase bets', () => {
  it('reserve takes the stake; commit opens the bet; discard of a reserved bet gives it back, once', async () => {
    const s = await session();
    const [kept, dropped] = [id('bet'), id('bet')];
    const before = Number(await float());
    expect(await place(s, kept, id('place'), '3', { twoPhase: true })).toMatchObject({ outcome: 'ok', body: { status: 'reserved' } });
    expect(await settle(kept, id('settle'), 'won', '6')).toMatchObject({ outcome: 'bet_reserved' });
    expect(await close(kept, id('close'))).toMatchObject({ outcome: 'bet_reserved' });
    expect(await commit(kept, id('commit'))).toMatchObject({ outcome: 'ok', body: { status: 'open' } });
    expect(await commit(kept, id('commit'))).toMatchObject({ outcome: 'ok', body: { status: 'open' } });
    expect(await discard(kept, id('discard'))).toMatchObject({ outcome: 'bet_not_reserved' });
    expect(await eventsOf(kept)).toEqual(['sportsbook.bet.placed']);

    await place(s, dropped, id('place'), '4', { twoPhase: true });
    expect(await float()).toBe(money(before - 7));
    expect(await discard(dropped, id('discard'))).toMatchObject({ outcome: 'ok', body: { status: 'discarded', balance: money(before - 3) } });
    expect(await discard(dropped, id('discard'))).toMatchObject({ outcome: 'ok', body: { status: 'discarded', balance: money(before - 3) } });
    expect(await commit(dropped, id('commit'))).toMatchObject({ outcome: 'bet_discarded' });
    expect(await settle(dropped, id('settle'), 'lost', '0')).toMatchObject({ outcome: 'bet_discarded' });
    expect(await ledgerOf(dropped)).toEqual(['bet -4.0000', 'adjustment 4.0000']);
    expect(await betOf(dropped)).toMatchObject({ status: 'discarded', round_status: 'cancelled', total_bet: '0.0000' });
    expect(await eventsOf(dropped)).toEqual(['sportsbook.bet.discarded']);
  });

  it('a discard before its bet is remembered: answered OK, and the bet is refused when it comes', async () => {
    const s = await session();
    const bet = id('bet');
    const before = await float();
    expect(await discard(bet, id('discard'))).toMatchObject({ outcome: 'ok', body: { bet_id: bet, status: 'discarded', balance: null } });
    expect(await place(s, bet, id('place'), '1', { twoPhase: true })).toEqual({ outcome: 'bet_discarded', body: null });
    expect(await float()).toBe(before);
    expect(await commit(bet, id('commit'))).toMatchObject({ outcome: 'unknown_bet' });
  });

  it('reserved bets left too long are discarded by the engine and reported', async () => {
    const s = await session();
    const bet = id('bet');
    const before = await float();
    await place(s, bet, id('place'), '2', { twoPhase: true });
    await sql`update public.sportsbook_bet b set placed_at = now() - interval '16 minutes'
              from public.game_round r where r.id = b.round_id and r.provider_round_id = ${bet}`;
    expect((await sql`select private.sportsbook_discard_expired() as n`)[0].n).toBeGreaterThanOrEqual(1);
    expect(await float()).toBe(before);
    expect(await betOf(bet)).toMatchObject({ status: 'discarded' });
    const [event] = await sql`select data from public.event where type = 'sportsbook.bet.discarded' and data->>'bet_id' = ${bet}`;
    expect(event.data).toMatchObject({ reason: 'expired', status: 'discarded' });
    expect(await commit(bet, id('commit'))).toMatchObject({ outcome: 'bet_discarded' });
  });
});

describe('unsettling a bet', () => {
  it('opens it again and takes back what it paid; a bet not settled cannot be unsettled without naming a settlement', async () => {
    const s = await session();
    const bet = id('bet');
    await place(s, bet, id('place'), '5', { potential: '10' });
    expect(await unsettle(bet, id('unsettle'))).toMatchObject({ outcome: 'bet_not_settled' });
    const before = Number(await float());
    await settle(bet, id('settle'), 'won', '10');
    expect(await unsettle(bet, id('unsettle'))).toMatchObject({ outcome: 'ok', body: { status: 'open', payout: '0.0000', paid: '0.0000',
      balance: money(before) } });
    expect(await close(bet, id('close'))).toMatchObject({ outcome: 'bet_not_settled' });
    expect(await settle(bet, id('settle'), 'lost', '0')).toMatchObject({ outcome: 'ok', body: { status: 'settled' } });
    expect(await eventsOf(bet)).toEqual(['sportsbook.bet.placed', 'sportsbook.bet.settled', 'sportsbook.bet.unsettled', 'sportsbook.bet.settled']);
  });

  it('naming a settlement nobody has seen is remembered: that settlement is refused when it comes; one replaced changes nothing', async () => {
    const s = await session();
    const bet = id('bet');
    const [early, late, replaced] = [id('settle'), id('settle'), id('settle')];
    await place(s, bet, id('place'), '5', { potential: '10' });
    expect(await unsettle(bet, id('unsettle'), early)).toMatchObject({ outcome: 'ok', body: { status: 'open' } });
    expect(await settle(bet, early, 'won', '10')).toEqual({ outcome: 'settlement_cancelled', body: null });
    await settle(bet, replaced, 'won', '10');
    await settle(bet, late, 'half_won', '7.5');
    const before = await float();
    expect(await unsettle(bet, id('unsettle'), replaced)).toMatchObject({ outcome: 'ok', body: { status: 'settled', payout: '7.5000' } });
    expect(await float()).toBe(before);
    expect(await unsettle(bet, id('unsettle'), late)).toMatchObject({ outcome: 'ok', body: { status: 'open', payout: '0.0000' } });
    expect(await float()).toBe(money(Number(before) - 7.5));
    // Of a bet nobody has seen either: remembered too.
    const [unseen, its] = [id('bet'), id('settle')];
    expect(await unsettle(unseen, id('unsettle'), its)).toMatchObject({ outcome: 'ok', body: { status: null, balance: null } });
    await place(s, unseen, id('place'), '1');
    expect(await settle(unseen, its, 'won', '2')).toMatchObject({ outcome: 'settlement_cancelled' });
    // A settlement of another bet is no settlement of this one.
    expect(await unsettle(bet, id('unsettle'), replaced.replace('settle', 'x'))).toMatchObject({ outcome: 'ok' });
    const other = id('bet');
    const otherSettlement = id('settle');
    await place(s, other, id('place'), '1');
    await settle(other, otherSettlement, 'lost', '0');
    expect(await unsettle(bet, id('unsettle'), otherSettlement)).toMatchObject({ outcome: 'unknown_transaction' });
  });
});

describe('compliance', () => {
  it('loss limits count the stake at placement and each payout as it comes', async () => {
    const player = id('player');
    await sql`insert into public.player_restriction (client_id, livemode, player_id, loss_limits)
              values (${operator.account.id}, true, ${player}, '{"EUR": {"day": "10.0000"}}')`;
    const dayLoss = async () => (await sql`select day_loss::text from private.player_loss where player_id = ${player}`)[0].day_loss;
    const s = await session({ player });
    const [a, b] = [id('bet'), id('bet')];
    expect(await place(s, a, id('place'), '8', { potential: '16' })).toMatchObject({ outcome: 'ok' });
    expect(await dayLoss()).toBe('8.0000');
    expect(await place(s, b, id('place'), '3')).toMatchObject({ outcome: 'loss_limit_reached' });
    expect(await betOf(b)).toBeUndefined();
    await settle(a, id('settle'), 'won', '16');
    expect(await dayLoss()).toBe('-8.0000');
    await settle(a, id('settle'), 'half_lost', '4');
    expect(await dayLoss()).toBe('4.0000');
    expect(await place(s, b, id('place'), '3', { twoPhase: true })).toMatchObject({ outcome: 'ok' });
    expect(await dayLoss()).toBe('7.0000');
    await discard(b, id('discard'));
    expect(await dayLoss()).toBe('4.0000');
  });
});

describe('test sessions', () => {
  it('play with the test player\'s balance, never the float', async () => {
    const floatBefore = await float();
    const player = id('tester');
    await sql`insert into public.sandbox_player (client_id, player_id, currency_code, balance) values (${operator.account.id}, ${player}, 'EUR', 20)`;
    const s = await session({ livemode: false, player });
    const bet = id('bet');
    expect(await place(s, bet, id('place'), '5', { potential: '12' })).toMatchObject({ outcome: 'ok', body: { balance: '15.0000' } });
    expect(await settle(bet, id('settle'), 'won', '12')).toMatchObject({ outcome: 'ok', body: { balance: '27.0000' } });
    expect(await float()).toBe(floatBefore);
    expect(await place(await session({ livemode: false, player: id('nobody') }), id('bet'), id('place'), '1'))
      .toMatchObject({ outcome: 'test_player_unknown' });
  });
});
