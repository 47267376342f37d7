// Free rounds played through the provider API, in-process against the test database, transfer
// mode (a live operator's float): a free bet uses one round of its grant and moves no money, every
// refusal is precise and writes nothing, per-round wins are credited up to max_win, a lump-sum grant
// is paid once by its payout, a rollback gives the round back while the grant can be played, a
// round in play settles after a cancel or the expiry, grants complete, restrictions apply but free
// bets are no stakes, and 50 free bets at once on 10 rounds use exactly 10. Expiry is never waited
// for: an expired grant is one whose window was put in the past.
import { createHash, randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectResponseMatches, type OperationId } from '../openapi/contract.ts';
import { connect, outcome } from '../helpers/db.ts';
import { newOperator, type Operator, sessionsHandler } from '../helpers/api.ts';
import { launchToken } from '../helpers/provider-api.ts';

const sql = connect();
const { handle } = await sessionsHandler();
let operator: Operator;
let providerKey: string;
let games: { a: string; b: string; lumpSum: string };

const id = (prefix: string) => `${prefix}-${randomUUID()}`;
const days = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString();

async function newGame(mode = 'per_round'): Promise<string> {
  const code = `frp-${randomUUID().slice(0, 8)}`;
  const [game] = await sql`
    insert into public.game (provider_id, code, name, category, currencies)
    select id, ${code}, 'Free Round Play', 'slots', '{}' from public.game_provider where slug = 'pragmatic-play'
    returning id`;
  await sql`insert into public.game_free_rounds (game_id, payout_mode, max_rounds, max_validity_days, stakes)
            values (${game.id}, ${mode}, 100, 30, ${sql.json({ EUR: [0.2, 1, 2] })})`;
  return `pragmatic-play:${code}`;
}

beforeAll(async () => {
  operator = await newOperator(sql, 'free-round-play');
  await sql`insert into public.wallet (client_id, currency_code, is_primary) values (${operator.account.id}, 'EUR', true)`;
  await sql`select * from public.record_transaction(${operator.account.id}::uuid, 'EUR', 'deposit', 1000::numeric)`;
  providerKey = (await sql`select key from public.issue_provider_key('pragmatic-play', 'Free round play')`)[0].key;
  games = { a: await newGame(), b: await newGame(), lumpSum: await newGame('lump_sum') };
});

interface Answer { status: number; text: string; body: Record<string, unknown>; replayed: string | null }

async function api(method: string, path: string, operation: OperationId, body?: unknown, key = providerKey): Promise<Answer> {
  const response = await handle(new Request(`http://api.test/v3${path}`, {
    method, headers: { authorization: `Bearer ${key}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  }));
  const text = await response.text();
  expectResponseMatches(operation, response, JSON.parse(text));
  return { status: response.status, text, body: JSON.parse(text), replayed: response.headers.get('idempotent-replayed') };
}

const bet = (body: object) => api('POST', '/provider/bets', 'providerBet', body);
const win = (body: object) => api('POST', '/provider/wins', 'providerWin', body);
const rollback = (body: object) => api('POST', '/provider/rollbacks', 'providerRollback', body);
const payout = (grant: string, body: object) => api('POST', `/provider/free-rounds/${grant}/payout`, 'providerFreeRoundPayout', body);
const usable = (token: string) => api('GET', `/provider/free-rounds?session_token=${token}`, 'providerFreeRounds');

interface CampaignOptions { games?: string[]; rounds?: number; bet?: string; maxWin?: string; validFrom?: string }

/** A campaign for `players` (POST /v3/free-rounds/campaigns); its id and each player's grant id. */
async function campaign(players: string[], options: CampaignOptions = {}): Promise<{ id: string; grants: string[] }> {
  const created = await api('POST', '/free-rounds/campaigns', 'createFreeRoundCampaign', {
    external_id: id('campaign'), name: 'Play', game_ids: options.games ?? [games.a], currency: 'EUR', bet_amount: options.bet ?? '0.2',
    rounds: options.rounds ?? 3, valid_until: days(7), player_ids: players,
    ...(options.validFrom ? { valid_from: options.validFrom } : {}), ...(options.maxWin ? { max_win: options.maxWin } : {}),
  }, operator.key);
  expect(created.status).toBe(201);
  const campaignId = created.body.id as string;
  const rows = await sql`select id, player_id from public.free_round_grant where campaign_id = ${campaignId}`;
  return { id: campaignId, grants: players.map((p) => rows.find((r) => r.player_id === p)!.id as string) };
}

/** A player with a grant of a new campaign, and a session of theirs on `game`. */
async function granted(options: CampaignOptions = {}, game = (options.games ?? [games.a])[0]) {
  const player = id('player');
  const made = await campaign([player], options);
  return { player, campaign: made.id, grant: made.grants[0], token: await launchToken(handle, operator, { player_id: player, game_id: game }) };
}

const grantRow = async (grant: string) => (await sql`select * from public.free_round_grant where id = ${grant}`)[0];
const float = async () =>
  (await sql`select balance::text from public.wallet where client_id = ${operator.account.id} and currency_code = 'EUR'`)[0].balance as string;
const ledgerCount = async () => (await sql`select count(*)::int as n from public.transaction where client_id = ${operator.account.id}`)[0].n;
const written = async (tx: string) => (await sql`select count(*)::int as n from public.round_transaction where transaction_id = ${tx}`)[0].n;
const eventsOf = async (grant: string) => (await sql`
  select type from public.event where client_id = ${operator.account.id} and type like 'free_rounds.grant.%' and data->>'id' = ${grant}
  order by created_at, id`).map((e) => e.type);
const money = (n: number) => n.toFixed(4);

describe('free bets', () => {
  it('a free bet uses one round, moves no money, records its grant and locks the grant\'s game', async () => {
    const g = await granted({ games: [games.a, games.b] });
    const [before, count] = [await float(), await ledgerCount()];
    const [tx, round] = [id('fb'), id('round')];
    const first = await bet({ session_token: g.token, transaction_id: tx, round_id: round, amount: '0.20', free_round_grant_id: g.grant });
    expect(first).toMatchObject({ status: 200, body: { transaction_id: tx, round_id: round, balance: before, currency: 'EUR' } });
    expect(await float()).toBe(before);
    expect(await ledgerCount()).toBe(count);
    expect(await grantRow(g.grant)).toMatchObject({ rounds_used: 1, rounds_open: 1, status: 'in_progress', game: games.a.split(':')[1] });
    expect((await sql`select free_round_grant_id, ledger_transaction_id from public.round_transaction where transaction_id = ${tx}`)[0])
      .toEqual({ free_round_grant_id: g.grant, ledger_transaction_id: null });
    expect((await sql`select free_round_grant_id, total_bet::text from public.game_round where provider_round_id = ${round}`)[0])
      .toEqual({ free_round_grant_id: g.grant, total_bet: '0.0000' });
    // Its repeat replays the first answer, byte for byte, and uses no other round.
    const again = await bet({ session_token: g.token, transaction_id: tx, round_id: round, amount: '0.2', free_round_grant_id: g.grant });
    expect(again).toMatchObject({ status: 200, text: first.text, replayed: 'true' });
    expect((await grantRow(g.grant)).rounds_used).toBe(1);
    expect(await eventsOf(g.grant)).toEqual(['free_rounds.grant.created', 'free_rounds.grant.started']);
    // Locked to its first game: a session of the campaign's other game cannot play it.
    const other = await launchToken(handle, operator, { player_id: g.player, game_id: games.b });
    const refused = await bet({ session_token: other, transaction_id: id('fb'), round_id: id('round'), amount: '0.2', free_round_grant_id: g.grant });
    expect(refused).toMatchObject({ status: 422, body: { code: 'free_round_wrong_game' } });
  });

  it('refuses, writing nothing: unknown grant, another player\'s, another game or currency, another stake', async () => {
    const g = await granted();
    const stranger = await granted();
    const otherGame = await launchToken(handle, operator, { player_id: g.player, game_id: games.b });
    // The grant's game, in another currency than the campaign's.
    const otherCurrency = await launchToken(handle, operator, { player_id: g.player, game_id: games.a, currency: 'GBP' });
    const cases: [string, object, string][] = [
      ['free_round_wrong_game', { session_token: otherCurrency, free_round_grant_id: g.grant }, 'currency'],
      ['free_round_grant_unknown', { session_token: g.token, free_round_grant_id: randomUUID() }, 'unknown'],
      ['free_round_wrong_player', { session_token: g.token, free_round_grant_id: stranger.grant }, 'player'],
      ['free_round_wrong_game', { session_token: otherGame, free_round_grant_id: g.grant }, 'game'],
      ['free_round_stake_mismatch', { session_token: g.token, free_round_grant_id: g.grant, amount: '1' }, 'stake'],
    ];
    for (const [code, fields] of cases) {
      const tx = id('fb');
      const answer = await bet({ transaction_id: tx, round_id: id('round'), amount: '0.2', ...fields });
      expect(answer, code).toMatchObject({ status: 422, body: { code } });
      expect(await written(tx)).toBe(0);
    }
    expect(await grantRow(g.grant)).toMatchObject({ rounds_used: 0, status: 'pending' });
  });

  it('refuses a grant used up, expired (by the clock alone), of a cancelled or not yet started campaign', async () => {
    const used = await granted({ rounds: 1 });
    await bet({ session_token: used.token, transaction_id: id('fb'), round_id: id('round'), amount: '0.2', free_round_grant_id: used.grant });
    const expired = await granted();
    // Its window put in the past; nothing recorded it (no job ran).
    await sql`update public.free_round_grant set expires_at = now() - interval '1 second' where id = ${expired.grant}`;
    const cancelled = await granted();
    expect((await api('POST', `/free-rounds/campaigns/${cancelled.campaign}/cancel`, 'cancelFreeRoundCampaign', undefined, operator.key)).status)
      .toBe(200);
    const scheduled = await granted({ validFrom: days(1) });
    for (const [g, code] of [[used, 'free_rounds_exhausted'], [expired, 'free_round_grant_expired'],
      [cancelled, 'free_round_campaign_cancelled'], [scheduled, 'free_round_campaign_scheduled']] as const) {
      const tx = id('fb');
      expect(await bet({ session_token: g.token, transaction_id: tx, round_id: id('round'), amount: '0.2', free_round_grant_id: g.grant }), code)
        .toMatchObject({ status: 422, body: { code } });
      expect(await written(tx)).toBe(0);
    }
    expect((await grantRow(expired.grant)).status).toBe('pending');
  });

  it('a round is funded by cash or by one grant: mixing is free_round_mismatch', async () => {
    const g = await granted();
    const other = await campaign([g.player]);
    const round = id('round');
    await bet({ session_token: g.token, transaction_id: id('fb'), round_id: round, amount: '0.2', free_round_grant_id: g.grant });
    expect(await bet({ session_token: g.token, transaction_id: id('cash'), round_id: round, amount: '1' }))
      .toMatchObject({ status: 422, body: { code: 'free_round_mismatch' } });
    expect(await bet({ session_token: g.token, transaction_id: id('fb'), round_id: round, amount: '0.2', free_round_grant_id: other.grants[0] }))
      .toMatchObject({ status: 422, body: { code: 'free_round_mismatch' } });
    expect(await win({ session_token: g.token, transaction_id: id('w'), round_id: round, amount: '1', free_round_grant_id: other.grants[0] }))
      .toMatchObject({ status: 422, body: { code: 'free_round_mismatch' } });
    const cash = id('round');
    await bet({ session_token: g.token, transaction_id: id('cash'), round_id: cash, amount: '1' });
    expect(await bet({ session_token: g.token, transaction_id: id('fb'), round_id: cash, amount: '0.2', free_round_grant_id: g.grant }))
      .toMatchObject({ status: 422, body: { code: 'free_round_mismatch' } });
    expect(await win({ session_token: g.token, transaction_id: id('w'), round_id: cash, amount: '1', free_round_grant_id: g.grant }))
      .toMatchObject({ status: 422, body: { code: 'free_round_mismatch' } });
  });

  it('restrictions apply (a self-excluded player plays none); free bets are no stakes for stake or loss limits', async () => {
    const excluded = await granted();
    await sql`insert into public.player_restriction (client_id, livemode, player_id, self_excluded_indefinitely)
              values (${operator.account.id}, true, ${excluded.player}, true)`;
    const tx = id('fb');
    expect(await bet({ session_token: excluded.token, transaction_id: tx, round_id: id('round'), amount: '0.2', free_round_grant_id: excluded.grant }))
      .toMatchObject({ status: 403, body: { code: 'player_restricted' } });
    expect(await written(tx)).toBe(0);
    // A stake limit below the free stake, and a loss limit a free bet would cross: neither refuses it.
    const limited = await granted({ bet: '2' });
    await sql`insert into public.player_restriction (client_id, livemode, player_id, stake_limits, loss_limits)
              values (${operator.account.id}, true, ${limited.player}, ${sql.json({ EUR: 1 })}, ${sql.json({ EUR: { day: 1 } })})`;
    const ok = await bet({ session_token: limited.token, transaction_id: id('fb'), round_id: id('round'), amount: '2', free_round_grant_id: limited.grant });
    expect(ok.status).toBe(200);
    const [loss] = await sql`select coalesce(sum(day_loss), 0)::text as day from private.player_loss
                             where client_id = ${operator.account.id} and player_id = ${limited.player}`;
    expect(loss.day).toBe('0');
  });

  it('50 free bets at once on a grant of 10 rounds use exactly 10', async () => {
    const g = await granted({ rounds: 10 });
    const answers = await Promise.all(Array.from({ length: 50 }, () =>
      bet({ session_token: g.token, transaction_id: id('fb'), round_id: id('round'), amount: '0.2', free_round_grant_id: g.grant })));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(10);
    expect(answers.filter((a) => a.status === 422).every((a) => a.body.code === 'free_rounds_exhausted')).toBe(true);
    expect(await grantRow(g.grant)).toMatchObject({ rounds_used: 10, rounds_open: 10 });
    expect((await sql`select count(*)::int as n from public.round_transaction where free_round_grant_id = ${g.grant}`)[0].n).toBe(10);
  });
});

describe('free wins, rollbacks and completion', () => {
  it('per round: each win is credited as a win, up to max_win; the grant completes when every round is used and settled', async () => {
    const g = await granted({ rounds: 3, maxWin: '5' });
    const before = await float();
    const play = async (amount: string) => {
      const [b, round] = [id('fb'), id('round')];
      await bet({ session_token: g.token, transaction_id: b, round_id: round, amount: '0.2', free_round_grant_id: g.grant });
      return win({ session_token: g.token, transaction_id: id('w'), round_id: round, amount, round_closed: true, bet_transaction_id: b });
    };
    expect((await play('3')).body.balance).toBe(money(Number(before) + 3));
    // 4 won, 2 left under max_win: 2 paid, 2 capped.
    expect((await play('4')).body.balance).toBe(money(Number(before) + 5));
    expect(await grantRow(g.grant)).toMatchObject({ total_win: '5.0000', capped_win: '2.0000', rounds_used: 2, status: 'in_progress' });
    // Past max_win: nothing paid, no ledger row, and the last round completes the grant.
    const count = await ledgerCount();
    expect((await play('1')).body.balance).toBe(money(Number(before) + 5));
    expect(await ledgerCount()).toBe(count);
    expect(await grantRow(g.grant)).toMatchObject({ total_win: '5.0000', capped_win: '3.0000', rounds_used: 3, rounds_open: 0, status: 'completed' });
    const ledger = await sql`select t.type, t.amount::text from public.transaction t
      join public.round_transaction r on r.ledger_transaction_id = t.id where r.free_round_grant_id = ${g.grant} order by t.created_at`;
    expect(ledger).toEqual([{ type: 'win', amount: '3.0000' }, { type: 'win', amount: '2.0000' }]);
    expect(await eventsOf(g.grant)).toEqual(['free_rounds.grant.created', 'free_rounds.grant.started', 'free_rounds.grant.completed']);
    expect((await api('GET', `/free-rounds/grants/${g.grant}`, 'getFreeRoundGrant', undefined, operator.key)).body).toMatchObject({ status: 'completed', rounds_left: 0, total_win: '5.0000' });
  });

  it('a rollback of a free bet gives its round back while the grant can be played, and moves no money', async () => {
    const g = await granted({ rounds: 2 });
    const [b, round] = [id('fb'), id('round')];
    await bet({ session_token: g.token, transaction_id: b, round_id: round, amount: '0.2', free_round_grant_id: g.grant });
    const [before, count] = [await float(), await ledgerCount()];
    const rb = await rollback({ session_token: g.token, transaction_id: id('rb'), rolled_back_transaction_id: b });
    expect(rb).toMatchObject({ status: 200, body: { balance: before } });
    expect(await ledgerCount()).toBe(count);
    expect(await grantRow(g.grant)).toMatchObject({ rounds_used: 0, rounds_open: 0 });
    expect((await sql`select status from public.game_round where provider_round_id = ${round}`)[0].status).toBe('cancelled');
    // Once the grant has expired, a rollback settles the bet but the round stays used.
    const [b2, round2] = [id('fb'), id('round')];
    await bet({ session_token: g.token, transaction_id: b2, round_id: round2, amount: '0.2', free_round_grant_id: g.grant });
    await sql`update public.free_round_grant set expires_at = now() - interval '1 second' where id = ${g.grant}`;
    expect((await rollback({ session_token: g.token, transaction_id: id('rb'), rolled_back_transaction_id: b2 })).status).toBe(200);
    expect(await grantRow(g.grant)).toMatchObject({ rounds_used: 1, rounds_open: 0 });
  });

  it('a round in play when its campaign is cancelled still settles, and the grant ends cancelled', async () => {
    const g = await granted({ rounds: 3 });
    const [b, round] = [id('fb'), id('round')];
    await bet({ session_token: g.token, transaction_id: b, round_id: round, amount: '0.2', free_round_grant_id: g.grant });
    await api('POST', `/free-rounds/campaigns/${g.campaign}/cancel`, 'cancelFreeRoundCampaign', undefined, operator.key);
    expect((await grantRow(g.grant)).status).toBe('in_progress');
    expect(await bet({ session_token: g.token, transaction_id: id('fb'), round_id: round, amount: '0.2', free_round_grant_id: g.grant }))
      .toMatchObject({ status: 422, body: { code: 'free_round_campaign_cancelled' } });
    const before = await float();
    expect((await win({ session_token: g.token, transaction_id: id('w'), round_id: round, amount: '1.5', round_closed: true })).body.balance)
      .toBe(money(Number(before) + 1.5));
    expect(await grantRow(g.grant)).toMatchObject({ status: 'cancelled', total_win: '1.5000', rounds_open: 0 });
    expect(await eventsOf(g.grant)).toEqual(['free_rounds.grant.created', 'free_rounds.grant.started', 'free_rounds.grant.cancelled']);
  });

  it('a player removed from the campaign: no new free bet, the round in play settles and is credited, a rollback gives no round back', async () => {
    const g = await granted({ rounds: 3 });
    const [b, round, b2, round2] = [id('fb'), id('round'), id('fb'), id('round')];
    await bet({ session_token: g.token, transaction_id: b, round_id: round, amount: '0.2', free_round_grant_id: g.grant });
    await bet({ session_token: g.token, transaction_id: b2, round_id: round2, amount: '0.2', free_round_grant_id: g.grant });
    const removed = await api('DELETE', `/free-rounds/campaigns/${g.campaign}/players/${g.player}`, 'cancelFreeRoundGrant', undefined, operator.key);
    expect(removed).toMatchObject({ status: 200, body: { status: 'cancelled', rounds_used: 2, rounds_left: 0, total_win: '0.0000' } });
    expect(await bet({ session_token: g.token, transaction_id: id('fb'), round_id: id('round'), amount: '0.2', free_round_grant_id: g.grant }))
      .toMatchObject({ status: 422, body: { code: 'free_round_campaign_cancelled' } });
    expect((await usable(g.token)).body.data).toEqual([]);
    const before = await float();
    expect((await win({ session_token: g.token, transaction_id: id('w'), round_id: round, amount: '1.5', round_closed: true })).body.balance)
      .toBe(money(Number(before) + 1.5));
    expect((await rollback({ session_token: g.token, transaction_id: id('rb'), rolled_back_transaction_id: b2 })).status).toBe(200);
    expect(await grantRow(g.grant)).toMatchObject({ status: 'cancelled', total_win: '1.5000', rounds_used: 2, rounds_open: 0 });
    expect(await eventsOf(g.grant)).toEqual(['free_rounds.grant.created', 'free_rounds.grant.started', 'free_rounds.grant.cancelled']);
  });

  it('a round in play when the grant expires still settles and is credited', async () => {
    const g = await granted();
    const [b, round] = [id('fb'), id('round')];
    await bet({ session_token: g.token, transaction_id: b, round_id: round, amount: '0.2', free_round_grant_id: g.grant });
    await sql`update public.free_round_grant set expires_at = now() - interval '1 second' where id = ${g.grant}`;
    const before = await float();
    expect((await win({ session_token: g.token, transaction_id: id('w'), round_id: round, amount: '2', round_closed: true, free_round_grant_id: g.grant }))
      .body.balance).toBe(money(Number(before) + 2));
    expect((await grantRow(g.grant)).total_win).toBe('2.0000');
  });
});

describe('staff and free rounds', () => {
  it('staff cannot cancel a free round (it took no money to give back); closing one settles it for its grant', async () => {
    const g = await granted({ rounds: 1 });
    const round = id('round');
    await bet({ session_token: g.token, transaction_id: id('fb'), round_id: round, amount: '0.2', free_round_grant_id: g.grant });
    const [{ id: roundId }] = await sql`select id from public.game_round where provider_round_id = ${round}`;
    const [before, count] = [await float(), await ledgerCount()];
    expect(await outcome(() => sql`select * from public.resolve_round(${roundId}, 'cancel')`)).toBe('55000');
    expect((await sql`select status from public.resolve_round(${roundId}, 'close')`)[0].status).toBe('closed');
    expect([await float(), await ledgerCount()]).toEqual([before, count]);
    expect(await grantRow(g.grant)).toMatchObject({ rounds_open: 0, status: 'completed' });
  });
});

describe('lump-sum grants', () => {
  it('free wins are tracking only; the payout credits once, forever, capped by max_win', async () => {
    const g = await granted({ games: [games.lumpSum], rounds: 2, bet: '1', maxWin: '10' });
    const count = await ledgerCount();
    for (let n = 0; n < 2; n += 1) {
      const [b, round] = [id('fb'), id('round')];
      await bet({ session_token: g.token, transaction_id: b, round_id: round, amount: '1', free_round_grant_id: g.grant });
      // A payout while rounds are left or in play comes too early.
      expect(await payout(g.grant, { transaction_id: id('pay'), amount: '1' })).toMatchObject({ status: 422, body: { code: 'free_rounds_left' } });
      expect((await win({ session_token: g.token, transaction_id: id('w'), round_id: round, amount: '7', round_closed: true })).status).toBe(200);
    }
    expect(await ledgerCount()).toBe(count);
    expect(await grantRow(g.grant)).toMatchObject({ total_win: '0.0000', rounds_used: 2, status: 'in_progress' });
    const before = await float();
    const pay = id('pay');
    const paid = await payout(g.grant, { transaction_id: pay, amount: '14' });
    expect(paid).toMatchObject({ status: 200, body: { transaction_id: pay, balance: money(Number(before) + 10), currency: 'EUR' } });
    expect(await payout(g.grant, { transaction_id: pay, amount: '14.00' })).toMatchObject({ status: 200, text: paid.text, replayed: 'true' });
    expect(await payout(g.grant, { transaction_id: pay, amount: '13' })).toMatchObject({ status: 409, body: { code: 'duplicate_transaction' } });
    expect(await payout(g.grant, { transaction_id: id('pay'), amount: '14' })).toMatchObject({ status: 422, body: { code: 'free_round_already_paid' } });
    expect(await float()).toBe(money(Number(before) + 10));
    expect(await ledgerCount()).toBe(count + 1);
    expect(await grantRow(g.grant)).toMatchObject({ total_win: '10.0000', capped_win: '4.0000', status: 'completed' });
    expect(await eventsOf(g.grant)).toEqual(['free_rounds.grant.created', 'free_rounds.grant.started', 'free_rounds.grant.completed']);
  });

  it('a payout is refused for a per-round game, an unknown grant and a grant never played', async () => {
    const perRound = await granted({ rounds: 1 });
    const b = id('fb');
    const round = id('round');
    await bet({ session_token: perRound.token, transaction_id: b, round_id: round, amount: '0.2', free_round_grant_id: perRound.grant });
    await win({ session_token: perRound.token, transaction_id: id('w'), round_id: round, amount: '0', round_closed: true });
    expect(await payout(perRound.grant, { transaction_id: id('pay'), amount: '1' })).toMatchObject({ status: 422, body: { code: 'free_round_not_lump_sum' } });
    expect(await payout(randomUUID(), { transaction_id: id('pay'), amount: '1' })).toMatchObject({ status: 422, body: { code: 'free_round_grant_unknown' } });
    const idle = await granted({ games: [games.lumpSum], bet: '1' });
    expect(await payout(idle.grant, { transaction_id: id('pay'), amount: '1' })).toMatchObject({ status: 422, body: { code: 'free_round_not_played' } });
  });
});

describe('what the provider reads, and the job that records ends', () => {
  it('GET /v3/provider/free-rounds lists the grants the session can play now', async () => {
    const g = await granted({ rounds: 2 });
    const extra = await campaign([g.player], { games: [games.b] });
    const listed = await usable(g.token);
    expect(listed.status).toBe(200);
    expect((listed.body.data as { id: string }[]).map((x) => x.id)).toEqual([g.grant]);
    expect(listed.body.data).toEqual([expect.objectContaining({ rounds_left: 2, bet_amount: '0.2000', status: 'pending' })]);
    expect(extra.grants).toHaveLength(1);
    for (let n = 0; n < 2; n += 1) {
      await bet({ session_token: g.token, transaction_id: id('fb'), round_id: id('round'), amount: '0.2', free_round_grant_id: g.grant });
    }
    expect((await usable(g.token)).body.data).toEqual([]);
  });

  it('record_free_round_ends records expired grants and ended campaigns, each once, with their events', async () => {
    const g = await granted();
    await sql`update public.free_round_grant set expires_at = now() - interval '1 second' where id = ${g.grant}`;
    await sql`update public.free_round_campaign set valid_from = now() - interval '2 days', valid_until = now() - interval '1 second'
              where id = ${g.campaign}`;
    let recorded = 0;
    for (let n; (n = (await sql`select private.record_free_round_ends() as n`)[0].n) > 0;) recorded += n;
    expect(recorded).toBeGreaterThanOrEqual(2);
    expect((await grantRow(g.grant)).status).toBe('expired');
    expect(await eventsOf(g.grant)).toEqual(['free_rounds.grant.created', 'free_rounds.grant.expired']);
    expect((await sql`select count(*)::int as n from public.event where type = 'free_rounds.campaign.ended' and data->>'id' = ${g.campaign}`)[0].n)
      .toBe(1);
  });
});

describe('what the operator reads of a free round', () => {
  it('GET /v3/rounds and /v3/rounds/{id} name the grant of a free round and of each of its transactions, null for cash', async () => {
    const g = await granted({ rounds: 2 });
    const [free, cash] = [id('round'), id('round')];
    const [fb, fw, cb] = [id('fb'), id('w'), id('cb')];
    await bet({ session_token: g.token, transaction_id: fb, round_id: free, amount: '0.2', free_round_grant_id: g.grant });
    await win({ session_token: g.token, transaction_id: fw, round_id: free, amount: '1.5', round_closed: true });
    await bet({ session_token: g.token, transaction_id: cb, round_id: cash, amount: '1' });
    const listed = await api('GET', `/rounds?player_id=${g.player}`, 'listRounds', undefined, operator.key);
    expect((listed.body.data as { round_id: string; free_round_grant_id: string | null; total_bet: string; total_win: string }[])
      .map((r) => [r.round_id, r.free_round_grant_id, r.total_bet, r.total_win]))
      .toEqual([[cash, null, '1.0000', '0.0000'], [free, g.grant, '0.0000', '1.5000']]);
    const [freeId, cashId] = [free, cash].map((round) => (listed.body.data as { id: string; round_id: string }[]).find((r) => r.round_id === round)!.id);
    const read = await api('GET', `/rounds/${freeId}`, 'getRound', undefined, operator.key);
    expect(read.body).toMatchObject({ free_round_grant_id: g.grant, total_bet: '0.0000', total_win: '1.5000' });
    expect((read.body.transactions as object[]).map((t) => t)).toMatchObject([
      { transaction_id: fb, type: 'bet', amount: '0.2000', free_round_grant_id: g.grant },
      { transaction_id: fw, type: 'win', amount: '1.5000', free_round_grant_id: g.grant },
    ]);
    const cashRead = await api('GET', `/rounds/${cashId}`, 'getRound', undefined, operator.key);
    expect(cashRead.body).toMatchObject({ free_round_grant_id: null, transactions: [{ transaction_id: cb, free_round_grant_id: null }] });
    // The round's event says it too.
    const [closed] = await sql`select data from public.event where client_id = ${operator.account.id} and type = 'round.closed'
                               and data->>'round_id' = ${free}`;
    expect(closed.data.free_round_grant_id).toBe(g.grant);
  });
});

describe('free rounds, as the mutation campaign asked', () => {
  const sha = (text: string) => createHash('sha256').update(text).digest('hex');
  const fingerprint = async (tx: string) =>
    (await sql`select request_fingerprint from public.round_transaction where transaction_id = ${tx}`)[0].request_fingerprint as string;

  it("fingerprints a free bet, a free win and a payout by a fixed recipe, the grant's id in it, so a retry across a release still replays", async () => {
    const g = await granted({ games: [games.lumpSum], rounds: 1, bet: '1' });
    const [b, round, w, pay] = [id('fb'), id('round'), id('w'), id('pay')];
    expect((await bet({ session_token: g.token, transaction_id: b, round_id: round, amount: '1.00', free_round_grant_id: g.grant })).status)
      .toBe(200);
    const [{ session_id: sessionId }] = await sql`select session_id from public.game_round where provider_round_id = ${round}`;
    expect(await fingerprint(b)).toBe(sha(JSON.stringify(['bet', sessionId, b, round, '1', false, g.grant])));
    expect((await win({ session_token: g.token, transaction_id: w, round_id: round, amount: '2.50', round_closed: true, free_round_grant_id: g.grant }))
      .status).toBe(200);
    expect(await fingerprint(w)).toBe(sha(JSON.stringify(['win', sessionId, w, round, '2.5', true, null, g.grant])));
    expect((await payout(g.grant, { transaction_id: pay, amount: '2.50' })).status).toBe(200);
    expect(await fingerprint(pay)).toBe(sha(JSON.stringify(['payout', g.grant, pay, '2.5'])));
  });
});
