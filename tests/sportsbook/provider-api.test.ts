// The sportsbook's provider API and the operator's reads, in-process against the test database: a
// provider's key and the launch token of a session POST /v3/sessions made; placements, commits,
// discards, settlements, unsettlements and closes, repeats replayed byte for byte, every refusal a
// problem with its code, 401 before 400; the bets API with every settlement; the events in the
// outbox; each answer as the document says.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectResponseMatches, type OperationId } from '../openapi/contract.ts';
import { connect } from '../helpers/db.ts';
import { cursorOf, newOperator, type Operator, sessionRequest, sessionsHandler, validBody } from '../helpers/api.ts';
import { sportsbookGame } from './sportsbook.ts';

const sql = connect();
const { handle, buildApp } = await sessionsHandler();
let operator: Operator;
let other: Operator;
let providerKey: string;
let gameId: string;

beforeAll(async () => {
  [operator, other] = [await newOperator(sql, 'sportsbook-api'), await newOperator(sql, 'sportsbook-other')];
  await sql`insert into public.wallet (client_id, currency_code, is_primary) values (${operator.account.id}, 'EUR', true)`;
  await sql`select * from public.record_transaction(${operator.account.id}::uuid, 'EUR', 'deposit', 100::numeric)`;
  providerKey = (await sql`select key from public.issue_provider_key('pragmatic-play')`)[0].key;
  gameId = `pragmatic-play:${await sportsbookGame(sql)}`;
});

const id = (prefix: string) => `${prefix}-${randomUUID()}`;

async function launchToken(player = 'player-42'): Promise<string> {
  const response = await handle(sessionRequest({ ...validBody, player_id: player, game_id: gameId }, { key: operator.key }));
  expect(response.status).toBe(201);
  return new URL((await response.json()).launch_url).searchParams.get('token')!;
}

const operations: Record<string, OperationId> = {
  '': 'providerSportsbookPlace', commit: 'providerSportsbookCommit', discard: 'providerSportsbookDiscard',
  settlements: 'providerSportsbookSettle', unsettle: 'providerSportsbookUnsettle', close: 'providerSportsbookClose',
};

/** A provider call: POST /v3/provider/sportsbook/bets, or .../bets/{bet_id}/{what}. */
async function post(bet: string | null, what: keyof typeof operations, body: object | string, key: string | null = providerKey) {
  const path = bet === null ? '' : `/${encodeURIComponent(bet)}/${what}`;
  const response = await handle(new Request(`http://api.test/v3/provider/sportsbook/bets${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  }));
  const text = await response.text();
  expectResponseMatches(operations[what], response, JSON.parse(text));
  return { status: response.status, text, body: JSON.parse(text), replayed: response.headers.get('idempotent-replayed') };
}

async function get(path: string, key = operator.key) {
  const response = await handle(new Request(`http://api.test/v3${path}`, { headers: { authorization: `Bearer ${key}` } }));
  const body = await response.json();
  expectResponseMatches(path.includes('?') || path === '/sportsbook/bets' ? 'listSportsbookBets' : 'getSportsbookBet', response, body);
  return { status: response.status, body };
}

const placement = (token: string, bet: string, extra: object = {}) => ({
  session_token: token, bet_id: bet, transaction_id: id('tx'), amount: '10.00', odds: '2.50', potential_payout: '25.00',
  selections: [{ event: 'Northport v Eastbay', market: '1X2', pick: '1' }], ...extra,
});

describe('the operator\'s bet reads', () => {
  // The app is built inside the test, so what the routes are (their paths and handlers) is the
  // test's own: an app built when the file loads is built before a mutant under test is on.
  it('answers at each of its paths, with the handler of its method', async () => {
    const app = buildApp();
    const read = async (path: string, method = 'GET') => {
      const response = await app(new Request(`http://api.test/v3${path}`, { method, headers: { authorization: `Bearer ${operator.key}` } }));
      return { status: response.status, body: await response.json() };
    };
    const player = id('punter');
    const bet = id('bet');
    await post(null, '', placement(await launchToken(player), bet));
    const listed = await read(`/sportsbook/bets?player_id=${player}`);
    expect(listed).toMatchObject({ status: 200, body: { data: [expect.objectContaining({ bet_id: bet, player_id: player })] } });
    expect(await read(`/sportsbook/bets/${listed.body.data[0].id}`)).toEqual({ status: 200, body: listed.body.data[0] });
    expect((await read('/sportsbook/bets', 'POST')).status).toBe(405);
  });
});

describe('the sportsbook provider API', () => {
  it('places a bet and settles it; a repeat gets the first answer byte for byte, however spelt', async () => {
    const token = await launchToken();
    const bet = id('bet');
    const body = placement(token, bet);
    const placed = await post(null, '', body);
    expect(placed.status).toBe(200);
    expect(placed.replayed).toBeNull();
    expect(placed.body).toEqual({ transaction_id: body.transaction_id, bet_id: bet, status: 'open', result: null, payout: '0.0000',
      paid: '0.0000', owed: '0.0000', balance: expect.stringMatching(/^\d+\.\d{4}$/), currency: 'EUR' });
    const again = await post(null, '', { ...body, amount: '10', odds: '2.5', selections: [{ pick: '1', market: '1X2', event: 'Northport v Eastbay' }] });
    expect(again).toMatchObject({ status: 200, text: placed.text, replayed: 'true' });
    const conflict = await post(null, '', { ...body, amount: '11' });
    expect(conflict).toMatchObject({ status: 409, body: { code: 'duplicate_transaction' } });
    expect(await post(null, '', { ...body, transaction_id: id('tx') })).toMatchObject({ status: 409, body: { code: 'duplicate_bet' } });

    const settlement = { transaction_id: id('tx'), result: 'won', payout: '25.00' };
    const settled = await post(bet, 'settlements', settlement);
    expect(settled).toMatchObject({ status: 200, body: { status: 'settled', result: 'won', payout: '25.0000', paid: '25.0000' } });
    expect(Number(settled.body.balance)).toBe(Number(placed.body.balance) + 25);
    expect(await post(bet, 'settlements', { ...settlement, payout: '25' })).toMatchObject({ text: settled.text, replayed: 'true' });
    expect(await post(bet, 'settlements', { ...settlement, result: 'lost', payout: '0' }))
      .toMatchObject({ status: 409, body: { code: 'duplicate_transaction' } });
  });

  it('settles, resettles, unsettles and closes with the provider key alone, long after the session', async () => {
    const token = await launchToken();
    const bet = id('bet');
    await post(null, '', placement(token, bet));
    await sql`update public.game_session set status = 'closed' where id = (select session_id from public.game_round where provider_round_id = ${bet})`;
    expect((await post(bet, 'settlements', { transaction_id: id('tx'), result: 'half_won', payout: '17.50' })).body).toMatchObject({ paid: '17.5000' });
    expect((await post(bet, 'settlements', { transaction_id: id('tx'), result: 'lost', payout: '0' })).body).toMatchObject({ paid: '0.0000' });
    const settlement = id('tx');
    await post(bet, 'settlements', { transaction_id: settlement, result: 'won', payout: '25' });
    expect((await post(bet, 'unsettle', { transaction_id: id('tx'), settlement_transaction_id: settlement })).body)
      .toMatchObject({ status: 'open', payout: '0.0000' });
    expect(await post(bet, 'close', { transaction_id: id('tx') })).toMatchObject({ status: 422, body: { code: 'bet_not_settled' } });
    await post(bet, 'settlements', { transaction_id: id('tx'), result: 'void', payout: '10' });
    expect((await post(bet, 'close', { transaction_id: id('tx') })).body).toMatchObject({ status: 'closed', result: 'void' });
    expect(await post(bet, 'settlements', { transaction_id: id('tx'), result: 'won', payout: '25' }))
      .toMatchObject({ status: 422, body: { code: 'bet_closed', retryable: false } });
  });

  it('reserves, commits and discards; a discard before its bet is remembered', async () => {
    const token = await launchToken();
    const [kept, dropped, early] = [id('bet'), id('bet'), id('bet')];
    expect((await post(null, '', placement(token, kept, { two_phase: true }))).body).toMatchObject({ status: 'reserved' });
    expect(await post(kept, 'settlements', { transaction_id: id('tx'), result: 'lost', payout: '0' })).toMatchObject({ status: 422, body: { code: 'bet_reserved' } });
    expect((await post(kept, 'commit', { transaction_id: id('tx') })).body).toMatchObject({ status: 'open' });
    expect(await post(kept, 'discard', { transaction_id: id('tx') })).toMatchObject({ status: 422, body: { code: 'bet_not_reserved' } });
    const reserved = await post(null, '', placement(token, dropped, { two_phase: true }));
    expect((await post(dropped, 'discard', { transaction_id: id('tx') })).body)
      .toMatchObject({ status: 'discarded', balance: (Number(reserved.body.balance) + 10).toFixed(4) });
    expect(await post(dropped, 'commit', { transaction_id: id('tx') })).toMatchObject({ status: 422, body: { code: 'bet_discarded' } });
    expect((await post(early, 'discard', { transaction_id: id('tx') })).body).toMatchObject({ status: 'discarded', balance: null, currency: null });
    expect(await post(null, '', placement(token, early))).toMatchObject({ status: 422, body: { code: 'bet_discarded' } });
    expect(await post(id('bet'), 'commit', { transaction_id: id('tx') })).toMatchObject({ status: 422, body: { code: 'unknown_bet' } });
  });

  it('refuses with a precise problem and writes nothing', async () => {
    const token = await launchToken();
    const bet = id('bet');
    const funds = await post(null, '', placement(token, bet, { amount: '1000000', potential_payout: '2000000' }));
    expect(funds).toMatchObject({ status: 422, body: { code: 'insufficient_funds', currency: 'EUR' } });
    await post(null, '', placement(token, bet, { potential_payout: '12' }));
    expect(await post(bet, 'settlements', { transaction_id: id('tx'), result: 'won', payout: '12.01' }))
      .toMatchObject({ status: 422, body: { code: 'invalid_settlement', reason: 'payout_above_potential' } });
    expect(await post(bet, 'settlements', { transaction_id: id('tx'), result: 'lost', payout: '1' }))
      .toMatchObject({ status: 422, body: { code: 'invalid_settlement', reason: 'result_payout_mismatch' } });
    // A casino game's session takes no sportsbook bet.
    const casino = await handle(sessionRequest(validBody, { key: operator.key }));
    const casinoToken = new URL((await casino.json()).launch_url).searchParams.get('token')!;
    expect(await post(null, '', placement(casinoToken, id('bet')))).toMatchObject({ status: 422, body: { code: 'not_sportsbook' } });
    expect((await sql`select count(*)::int as n from public.sportsbook_bet b join public.game_round r on r.id = b.round_id
                      where r.provider_round_id = ${bet}`)[0].n).toBe(1);
  });

  it('checks the key first, then the body, then the token', async () => {
    const token = await launchToken();
    expect(await post(null, '', placement(token, id('bet')), null)).toMatchObject({ status: 401, body: { code: 'missing_api_key' } });
    expect(await post(null, '', { nonsense: true }, `cgs_prov_${'A'.repeat(43)}`)).toMatchObject({ status: 401, body: { code: 'invalid_provider_key' } });
    expect(await post(id('bet'), 'settlements', { nonsense: true }, `cgs_prov_${'A'.repeat(43)}`))
      .toMatchObject({ status: 401, body: { code: 'invalid_provider_key' } });
    const invalid = await post(null, '', { ...placement(token, id('bet')), odds: '0.5', potential_payout: '5', extra: 1 });
    expect(invalid.status).toBe(400);
    expect(invalid.body.errors.map((e: { pointer: string }) => e.pointer)).toEqual(['#/odds', '#/extra']);
    const below = await post(null, '', placement(token, id('bet'), { potential_payout: '9.99', selections: [{ blob: 'x'.repeat(10_000) }] }));
    expect(below.body.errors.map((e: { pointer: string; code: string }) => `${e.pointer} ${e.code}`))
      .toEqual(['#/selections invalid_format', '#/potential_payout invalid_range']);
    expect(await post(id('bet'), 'settlements', { transaction_id: id('tx'), result: 'maybe', payout: '1' }))
      .toMatchObject({ status: 400, body: { code: 'validation_failed' } });
    expect(await post(null, '', placement(`${token}x`, id('bet')))).toMatchObject({ status: 403, body: { code: 'invalid_session_token' } });
    expect(await post('x'.repeat(129), 'commit', { transaction_id: id('tx') })).toMatchObject({ status: 422, body: { code: 'unknown_bet' } });
  });
});

describe('the sportsbook provider API, exactly', () => {
  it('holds the body to its bounds exactly: a potential payout of the amount, selections of the byte limit', async () => {
    const token = await launchToken();
    // `[{"blob":"…"}]`: 13 bytes around the blob.
    const sized = (bytes: number) => [{ blob: 'x'.repeat(bytes - 13) }];
    expect(new TextEncoder().encode(JSON.stringify(sized(8_192))).length).toBe(8_192);
    expect(await post(null, '', placement(token, id('bet'), { odds: '1', potential_payout: '10', selections: sized(8_192) })))
      .toMatchObject({ status: 200, body: { status: 'open' } });
    const refused = await post(null, '', placement(token, id('bet'), { odds: '1', potential_payout: '9.9999', selections: sized(8_193) }));
    expect(refused).toMatchObject({ status: 400, body: { code: 'validation_failed', detail: 'The request body has invalid fields; see `errors`.' } });
    expect(refused.body.errors).toEqual([
      { pointer: '#/selections', code: 'invalid_format', detail: 'selections must be at most 8192 bytes of JSON.' },
      { pointer: '#/potential_payout', code: 'invalid_range', detail: 'potential_payout must be at least the amount.' },
    ]);
  });

  it("fingerprints each call's meaning: a changed field is a conflict, the same request replays", async () => {
    const token = await launchToken();
    const bet = id('bet');
    const body = placement(token, bet, { two_phase: true });
    await post(null, '', body);
    expect(await post(null, '', { ...body, selections: [{ event: 'Northport v Eastbay', market: '1X2', pick: '2' }] }))
      .toMatchObject({ status: 409, body: { code: 'duplicate_transaction' } });
    // One transaction_id for two kinds of call on one bet: the second is another request.
    const commit = { transaction_id: id('tx') };
    const committed = await post(bet, 'commit', commit);
    expect(committed).toMatchObject({ status: 200, body: { status: 'open' } });
    expect(await post(bet, 'commit', commit)).toMatchObject({ text: committed.text, replayed: 'true' });
    for (const what of ['discard', 'close'] as const) {
      expect(await post(bet, what, commit), what).toMatchObject({ status: 409, body: { code: 'duplicate_transaction' } });
    }
    const settlement = id('tx');
    await post(bet, 'settlements', { transaction_id: settlement, result: 'won', payout: '25' });
    const unsettle = { transaction_id: id('tx'), settlement_transaction_id: settlement };
    const undone = await post(bet, 'unsettle', unsettle);
    expect(undone).toMatchObject({ status: 200, body: { status: 'open' } });
    expect(await post(bet, 'unsettle', unsettle)).toMatchObject({ text: undone.text, replayed: 'true' });
    expect(await post(bet, 'unsettle', { ...unsettle, settlement_transaction_id: id('tx') }))
      .toMatchObject({ status: 409, body: { code: 'duplicate_transaction' } });
    expect(await post(bet, 'unsettle', { transaction_id: unsettle.transaction_id }))
      .toMatchObject({ status: 409, body: { code: 'duplicate_transaction' } });
  });

  it("says why a settlement is invalid, with the bet's figures", async () => {
    const token = await launchToken();
    const bet = id('bet');
    await post(null, '', placement(token, bet, { potential_payout: '12' }));
    expect((await post(bet, 'settlements', { transaction_id: id('tx'), result: 'won', payout: '12.01' })).body).toMatchObject({
      code: 'invalid_settlement', reason: 'payout_above_potential',
      detail: "The payout is above the bet's potential payout, 12.0000.",
    });
    expect((await post(bet, 'settlements', { transaction_id: id('tx'), result: 'lost', payout: '1' })).body).toMatchObject({
      code: 'invalid_settlement', reason: 'result_payout_mismatch',
      detail: 'The result and the payout disagree: lost pays 0, won more than 0, void the stake (10.0000).',
    });
  });

  it('names no bet by a bet_id that cannot be one: not even a discard remembers it', async () => {
    for (const bet of ['x'.repeat(129), 'bet id']) {
      for (const what of ['discard', 'commit', 'close'] as const) {
        expect(await post(bet, what, { transaction_id: id('tx') }), `${what} ${bet}`).toMatchObject({ status: 422, body: {
          code: 'unknown_bet', detail: "No bet of this provider's with this bet_id: a bet starts with its placement.",
        } });
      }
      expect((await sql`select count(*)::int as n from public.game_round where provider_round_id = ${bet}`)[0].n).toBe(0);
    }
  });
});

describe('the operator\'s sportsbook bets', () => {
  it('lists the caller\'s bets newest first with every settlement, filtered; reads one; another client\'s is 404', async () => {
    const player = id('punter');
    const token = await launchToken(player);
    const [first, second] = [id('bet'), id('bet')];
    await post(null, '', placement(token, first));
    const before = new Date().toISOString();
    await post(first, 'settlements', { transaction_id: id('tx'), result: 'won', payout: '25' });
    await post(first, 'settlements', { transaction_id: id('tx'), result: 'half_won', payout: '17.5' });
    await post(null, '', placement(token, second, { two_phase: true }));
    const page = await get(`/sportsbook/bets?player_id=${player}`);
    expect(page.status).toBe(200);
    expect(page.body.data.map((b: { bet_id: string }) => b.bet_id)).toEqual([second, first]);
    const [, settled] = page.body.data;
    expect(settled).toMatchObject({ status: 'settled', result: 'half_won', stake: '10.0000', odds: '2.5', potential_payout: '25.0000',
      payout: '17.5000', paid: '17.5000', owed: '0.0000', game_id: gameId, player_id: player, wallet_mode: 'transfer', livemode: true });
    expect(settled.settlements.map((s: { type: string; moved: string }) => `${s.type} ${s.moved}`))
      .toEqual(['settlement 25.0000', 'settlement -7.5000']);
    expect((await get(`/sportsbook/bets?player_id=${player}&status=reserved`)).body.data.map((b: { bet_id: string }) => b.bet_id)).toEqual([second]);
    expect((await get(`/sportsbook/bets?player_id=${player}&settled_after=${before}`)).body.data).toHaveLength(1);
    const limited = await get(`/sportsbook/bets?player_id=${player}&limit=1`);
    expect(limited.body).toMatchObject({ has_more: true });
    expect((await get(`/sportsbook/bets?player_id=${player}&limit=1&cursor=${limited.body.next_cursor}`)).body.data[0].bet_id).toBe(first);
    const one = await get(`/sportsbook/bets/${settled.id}`);
    expect(one).toEqual({ status: 200, body: settled });
    expect(await get(`/sportsbook/bets/${settled.id}`, other.key)).toMatchObject({ status: 404, body: { code: 'not_found' } });
    expect((await get(`/sportsbook/bets?player_id=${player}`, other.key)).body).toEqual({ data: [], next_cursor: null, has_more: false });
    // A cursor this endpoint could not have made: a position that is not a time, or an id that is not a uuid.
    for (const parts of [['yesterday', settled.id], [before, 'not-a-uuid'], ['yesterday', 'not-a-uuid']]) {
      const refused = await get(`/sportsbook/bets?cursor=${cursorOf(parts)}`);
      expect(refused, parts.join()).toMatchObject({ status: 400, body: { code: 'invalid_parameters' } });
      expect(refused.body.errors).toEqual([expect.objectContaining({ parameter: 'cursor', code: 'invalid_cursor' })]);
    }
    expect((await get(`/sportsbook/bets?player_id=${player}&cursor=${cursorOf([before, settled.id])}`)).status).toBe(200);
    expect((await get('/sportsbook/bets?status=won')).status).toBe(400);
  });

  it('tells the operator through the outbox: placed, settled, resettled, unsettled, closed, discarded', async () => {
    const token = await launchToken();
    const [bet, reserved] = [id('bet'), id('bet')];
    await post(null, '', placement(token, bet));
    await post(bet, 'settlements', { transaction_id: id('tx'), result: 'won', payout: '25' });
    await post(bet, 'settlements', { transaction_id: id('tx'), result: 'half_won', payout: '20' });
    await post(bet, 'unsettle', { transaction_id: id('tx') });
    await post(bet, 'settlements', { transaction_id: id('tx'), result: 'lost', payout: '0' });
    await post(bet, 'close', { transaction_id: id('tx') });
    await post(null, '', placement(token, reserved, { two_phase: true }));
    await post(reserved, 'discard', { transaction_id: id('tx') });
    const events = await sql`select type, data from public.event where client_id = ${operator.account.id}
                             and data->>'bet_id' in (${bet}, ${reserved}) order by created_at, id`;
    expect(events.map((e) => e.type)).toEqual(['sportsbook.bet.placed', 'sportsbook.bet.settled', 'sportsbook.bet.resettled',
      'sportsbook.bet.unsettled', 'sportsbook.bet.settled', 'sportsbook.bet.closed', 'sportsbook.bet.discarded']);
    expect(events[5].data).toMatchObject({ bet_id: bet, status: 'closed', result: 'lost', settlements: expect.any(Array) });
    expect(events[6].data).toMatchObject({ bet_id: reserved, status: 'discarded', reason: 'discarded' });
  });

  it("carries in each event the bet as the bets API showed it then, every member", async () => {
    const player = id('punter');
    const bet = id('bet');
    const token = await launchToken(player);
    const eventOf = async (type: string) => (await sql`select data from public.event where client_id = ${operator.account.id}
                                                       and type = ${type} and data->>'bet_id' = ${bet}`)[0].data;
    await post(null, '', placement(token, bet));
    const [listed] = (await get(`/sportsbook/bets?player_id=${player}`)).body.data;
    expect(await eventOf('sportsbook.bet.placed')).toEqual(listed);
    await post(bet, 'settlements', { transaction_id: id('tx'), result: 'won', payout: '25' });
    const settled = (await get(`/sportsbook/bets/${listed.id}`)).body;
    expect(settled).toMatchObject({ status: 'settled', payout: '25.0000', paid: '25.0000', settlements: [expect.objectContaining({ type: 'settlement' })] });
    expect(await eventOf('sportsbook.bet.settled')).toEqual(settled);
    await post(bet, 'settlements', { transaction_id: id('tx'), result: 'half_won', payout: '17.5' });
    expect(await eventOf('sportsbook.bet.resettled')).toEqual((await get(`/sportsbook/bets/${listed.id}`)).body);
  });
});
