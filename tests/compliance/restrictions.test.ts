// Responsible gaming, in-process against the test database: GET and PUT
// /v3/players/{player_id}/restrictions (as documented, amounts normalised, a running exclusion never
// lifted or shortened), each change audited and an event; a restricted player's new session refused
// (403); bets in open sessions refused by the round engine in both wallet modes (self-exclusion,
// cool-off, stake limit, the jurisdiction's maximum stake, session time) while wins still settle.
import { createHash, randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectResponseMatches } from '../openapi/contract.ts';
import { connect } from '../helpers/db.ts';
import { newOperator, type Operator, recordedSession, sessionRequest, sessionsHandler, validBody } from '../helpers/api.ts';

const sql = connect();
const { handle } = await sessionsHandler();
const sha = (text: string) => createHash('sha256').update(text).digest('hex');
let operator: Operator;
let providerHash: string;
let providerKey: string;

beforeAll(async () => {
  operator = await newOperator(sql, 'responsible');
  await sql`insert into public.wallet (client_id, currency_code) values (${operator.account.id}, 'EUR')`;
  await sql`select * from public.record_transaction(${operator.account.id}::uuid, 'EUR', 'deposit', 1000::numeric)`;
  providerKey = (await sql`select key from public.issue_provider_key('pragmatic-play')`)[0].key;
  providerHash = sha(providerKey);
});

async function restrictions(method: 'GET' | 'PUT', player: string, body?: object) {
  const response = await handle(new Request(`http://api.test/v3/players/${encodeURIComponent(player)}/restrictions`, {
    method, headers: { authorization: `Bearer ${operator.key}`, 'content-type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  }));
  const json = await response.json();
  expectResponseMatches(method === 'GET' ? 'getPlayerRestrictions' : 'putPlayerRestrictions', response, json);
  return { status: response.status, body: json };
}
const bet = async (session: string, amount: string, round = randomUUID()) =>
  (await sql`select outcome from private.round_bet(${providerHash}, ${session}::uuid, ${randomUUID()}, ${round},
    ${amount}::numeric, false, ${sha(randomUUID())})`)[0].outcome as string;
const later = (hours: number) => new Date(Date.now() + hours * 3600_000).toISOString();
async function recordedPlayerSession(player: string, options: { createdAgo?: string } = {}): Promise<string> {
  const id = await recordedSession(sql, operator.account.id);
  await sql`update public.game_session set player_id = ${player}, created_at = now() - ${options.createdAgo ?? '1 second'}::interval
            where id = ${id}`;
  return id;
}

describe('a player\'s restrictions through the API', () => {
  it('reads none at first, then sets the whole set, amounts with four places, audited and an event', async () => {
    const player = `p-${randomUUID()}`;
    expect(await restrictions('GET', player)).toEqual({
      status: 200,
      body: {
        player_id: player, self_excluded_until: null, self_excluded_indefinitely: false, cool_off_until: null, loss_limits: {},
        stake_limits: {}, session_time_limit_minutes: null, livemode: true, updated_at: null,
      },
    });
    const set = await restrictions('PUT', player, {
      loss_limits: { EUR: { day: '50', month: '500.5' } }, stake_limits: { EUR: '2' }, session_time_limit_minutes: 90,
    });
    expect(set).toMatchObject({
      status: 200, body: { loss_limits: { EUR: { day: '50.0000', month: '500.5000' } }, stake_limits: { EUR: '2.0000' }, session_time_limit_minutes: 90 },
    });
    expect((await restrictions('GET', player)).body).toEqual(set.body);
    const [audit] = await sql`select action, detail from public.player_restriction_audit where player_id = ${player}`;
    expect(audit).toMatchObject({ action: 'restrictions_changed', detail: { stake_limits: { EUR: '2.0000' } } });
    const [event] = await sql`select data from public.event where type = 'player.restrictions_updated' and data->>'player_id' = ${player}`;
    expect(event.data).toMatchObject({ session_time_limit_minutes: 90 });
    expect(await restrictions('PUT', player, { stake_limits: { EUR: '-1' } })).toMatchObject({ status: 400 });
    expect(await restrictions('PUT', player, { cool_off: true })).toMatchObject({ status: 400 });
  });

  it('never lifts or shortens a running self-exclusion or cool-off, and lets one be extended', async () => {
    const player = `p-${randomUUID()}`;
    await restrictions('PUT', player, { self_excluded_until: later(24 * 180) });
    expect(await restrictions('PUT', player, {})).toMatchObject({ status: 409, body: { code: 'exclusion_active' } });
    expect(await restrictions('PUT', player, { self_excluded_until: later(24) })).toMatchObject({ status: 409 });
    expect((await restrictions('PUT', player, { self_excluded_indefinitely: true })).status).toBe(200);
    expect(await restrictions('PUT', player, { self_excluded_until: later(24 * 365 * 5) })).toMatchObject({ status: 409 });
    const other = `p-${randomUUID()}`;
    await restrictions('PUT', other, { cool_off_until: later(24) });
    expect(await restrictions('PUT', other, { cool_off_until: later(1) })).toMatchObject({ status: 409 });
    expect((await restrictions('PUT', other, { cool_off_until: later(48) })).status).toBe(200);
  });

  it('never lifts a running cool-off when a later update leaves it out', async () => {
    const player = `p-${randomUUID()}`;
    const cooling = await restrictions('PUT', player, { cool_off_until: later(24) });
    expect(await restrictions('PUT', player, { stake_limits: { EUR: '5' } })).toMatchObject({ status: 409, body: { code: 'exclusion_active' } });
    expect(await restrictions('PUT', player, {})).toMatchObject({ status: 409, body: { code: 'exclusion_active' } });
    expect((await restrictions('GET', player)).body).toEqual(cooling.body);
    expect(await bet(await recordedPlayerSession(player), '1')).toBe('player_restricted');
  });

  it('says why a running exclusion refuses the change', async () => {
    const player = `p-${randomUUID()}`;
    await restrictions('PUT', player, { cool_off_until: later(24) });
    expect((await restrictions('PUT', player, {})).body.detail).toBe(
      'A self-exclusion or cool-off is running: it cannot be lifted or shortened before it ends.');
  });

  it('refuses a limit in a currency the service does not offer with 422, at each limit, writing nothing', async () => {
    const player = `p-${randomUUID()}`;
    const refused = await restrictions('PUT', player, { stake_limits: { EUR: '1', QQQ: '2' }, loss_limits: { QQQ: { day: '5' } } });
    expect(refused).toMatchObject({ status: 422, body: { code: 'reference_unavailable' } });
    expect(refused.body.errors.map((e: { pointer: string; code: string }) => [e.pointer, e.code]).sort()).toEqual([
      ['#/loss_limits/QQQ', 'unknown_currency'], ['#/stake_limits/QQQ', 'unknown_currency'],
    ]);
    expect((await restrictions('GET', player)).body.updated_at).toBeNull();
  });

  it('answers are never stored by a cache (a player\'s own limits), at the path with or without a trailing slash', async () => {
    const player = `p-${randomUUID()}`;
    for (const [method, body] of [['PUT', '{"stake_limits":{"EUR":"3"}}'], ['GET', undefined]] as const) {
      for (const path of [`/v3/players/${player}/restrictions`, `/v3/players/${player}/restrictions/`]) {
        const response = await handle(new Request(`http://api.test${path}`, {
          method, headers: { authorization: `Bearer ${operator.key}`, 'content-type': 'application/json' }, body,
        }));
        expect([method, path, response.status, response.headers.get('cache-control')]).toEqual([method, path, 200, 'no-store']);
        expect((await response.json()).stake_limits).toEqual({ EUR: '3.0000' });
      }
    }
  });
});

describe('restrictions enforced', () => {
  it('refuses a restricted player\'s new session with 403, writing no session, audited and an event', async () => {
    const player = `p-${randomUUID()}`;
    await restrictions('PUT', player, { cool_off_until: later(24) });
    const response = await handle(sessionRequest({ ...validBody, player_id: player }, { key: operator.key }));
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ code: 'player_restricted' });
    expect((await sql`select count(*)::int as n from public.game_session where player_id = ${player}`)[0].n).toBe(0);
    expect((await sql`select action from public.player_restriction_audit where player_id = ${player} order by created_at`)
      .map((row) => row.action)).toEqual(['restrictions_changed', 'session_refused']);
    const [event] = await sql`select data from public.event where type = 'player.refused' and data->>'player_id' = ${player}`;
    expect(event.data).toMatchObject({ reason: 'player_restricted', refused: 'session' });
  });

  it('refuses bets in an open session once the player cools off, while the round\'s win still settles', async () => {
    const player = `p-${randomUUID()}`;
    const session = await recordedPlayerSession(player);
    const round = randomUUID();
    expect(await bet(session, '1', round)).toBe('ok');
    await restrictions('PUT', player, { cool_off_until: later(1) });
    expect(await bet(session, '1', round)).toBe('player_restricted');
    const [win] = await sql`select outcome from private.round_win(${providerHash}, ${session}::uuid, ${randomUUID()}, ${round},
      2, true, null, ${sha(randomUUID())})`;
    expect(win.outcome).toBe('ok');
    // Through the provider API: 403 with the code.
    const token = new URL((await (await handle(sessionRequest({ ...validBody, player_id: `q-${player}` }, { key: operator.key }))).json())
      .launch_url).searchParams.get('token')!;
    await restrictions('PUT', `q-${player}`, { self_excluded_indefinitely: true });
    const refused = await handle(new Request('http://api.test/v3/provider/bets', {
      method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${providerKey}` },
      body: JSON.stringify({ session_token: token, transaction_id: randomUUID(), round_id: randomUUID(), amount: '1' }),
    }));
    const body = await refused.json();
    expectResponseMatches('providerBet', refused, body);
    expect({ status: refused.status, code: body.code }).toEqual({ status: 403, code: 'player_restricted' });
  });

  it('refuses a bet over the stake limit, or once the session has lasted past the time limit', async () => {
    const player = `p-${randomUUID()}`;
    await restrictions('PUT', player, { stake_limits: { EUR: '2', USD: '0' }, session_time_limit_minutes: 30 });
    const fresh = await recordedPlayerSession(player);
    expect(await bet(fresh, '2.0001')).toBe('stake_limit_exceeded');
    expect(await bet(fresh, '2')).toBe('ok');
    const old = await recordedPlayerSession(player, { createdAgo: '31 minutes' });
    expect(await bet(old, '1')).toBe('session_time_exceeded');
    expect((await sql`select detail from public.player_restriction_audit where player_id = ${player} and action = 'bet_refused'
                      order by created_at, id`)
      .map((row) => row.detail.reason)).toEqual(['stake_limit_exceeded', 'session_time_exceeded']);
  });

  it('holds a session to its jurisdiction\'s maximum stake in that currency', async () => {
    const session = await recordedPlayerSession(`p-${randomUUID()}`);
    await sql`insert into public.jurisdiction (code, name, regulator, max_stake, max_stake_currency)
              values ('ZZ-EUR', 'Test', 'Test', 5, 'EUR') on conflict (code) do nothing`;
    await sql`update public.game_session set jurisdiction = 'ZZ-EUR' where id = ${session}`;
    expect(await bet(session, '5.01')).toBe('stake_limit_exceeded');
    expect(await bet(session, '5')).toBe('ok');
  });

  it.each([
    ['the player\'s stake limit', '2', '2'],
    ['the jurisdiction\'s maximum stake', '10', '5'],
  ])('holds a bet to the lower of the stake limit and the jurisdiction\'s maximum when %s is lower', async (_, stake, limit) => {
    const player = `p-${randomUUID()}`;
    await restrictions('PUT', player, { stake_limits: { EUR: stake } });
    const session = await recordedPlayerSession(player);
    await sql`insert into public.jurisdiction (code, name, regulator, max_stake, max_stake_currency)
              values ('ZZ-EUR', 'Test', 'Test', 5, 'EUR') on conflict (code) do nothing`;
    await sql`update public.game_session set jurisdiction = 'ZZ-EUR' where id = ${session}`;
    expect(await bet(session, (Number(limit) + 0.0001).toFixed(4))).toBe('stake_limit_exceeded');
    expect(await bet(session, limit)).toBe('ok');
  });

  it('refuses a restricted player\'s bet in seamless mode too, before any call to the wallet', async () => {
    const seamless = await newOperator(sql, 'seamless-restricted');
    await sql`select * from private.change_wallet_settings(${seamless.account.id}, true, 'seamless', 'https://w.test/', false)`;
    const session = await recordedSession(sql, seamless.account.id);
    await sql`insert into public.player_restriction (client_id, livemode, player_id, cool_off_until)
              values (${seamless.account.id}, true, 'player-1', now() + interval '1 hour')`;
    expect(await bet(session, '1')).toBe('player_restricted');
    expect((await sql`select count(*)::int as n from public.wallet_call where client_id = ${seamless.account.id}`)[0].n).toBe(0);
  });
});

describe('loss limits', () => {
  const lossOf = async (player: string, period: 'day' | 'week' | 'month') =>
    (await sql`select ${sql(`${period}_loss`)}::text as loss from private.player_loss where player_id = ${player}`)[0]?.loss;

  it('refuses the bet that would cross a limit, writing nothing; wins and bets given back make room again', async () => {
    const player = `p-${randomUUID()}`;
    await restrictions('PUT', player, { loss_limits: { EUR: { day: '10', month: '100' } } });
    const session = await recordedPlayerSession(player);
    const round = randomUUID();
    expect(await bet(session, '6', round)).toBe('ok');
    const ledger = (await sql`select count(*)::int as n from public.transaction where client_id = ${operator.account.id}`)[0].n;
    expect(await bet(session, '4.0001', round)).toBe('loss_limit_reached');
    expect((await sql`select count(*)::int as n from public.transaction where client_id = ${operator.account.id}`)[0].n).toBe(ledger);
    expect(await lossOf(player, 'day')).toBe('6.0000');
    expect(await bet(session, '4', round)).toBe('ok');
    expect(await lossOf(player, 'day')).toBe('10.0000');
    // A win of 3 makes room for a bet of 3, and no more.
    await sql`select * from private.round_win(${providerHash}, ${session}::uuid, ${randomUUID()}, ${round}, 3, true, null, ${sha(randomUUID())})`;
    expect(await bet(session, '3.01')).toBe('loss_limit_reached');
    const given = randomUUID();
    const [placed] = await sql`select outcome from private.round_bet(${providerHash}, ${session}::uuid, ${given}, ${randomUUID()},
      3, false, ${sha(randomUUID())})`;
    expect(placed.outcome).toBe('ok');
    await sql`select * from private.round_rollback(${providerHash}, ${session}::uuid, ${randomUUID()}, ${given}, ${sha(randomUUID())})`;
    expect(await lossOf(player, 'day')).toBe('7.0000');
    expect(await lossOf(player, 'month')).toBe('7.0000');
    const [refusal] = await sql`select detail from public.player_restriction_audit where player_id = ${player} and action = 'bet_refused'
      order by created_at limit 1`;
    expect(refusal.detail).toMatchObject({ reason: 'loss_limit_reached', amount: '4.0001' });
  });

  it('never lets concurrent bets of one player overshoot a limit', async () => {
    const player = `p-${randomUUID()}`;
    await restrictions('PUT', player, { loss_limits: { EUR: { day: '10' } } });
    const session = await recordedPlayerSession(player);
    const pool = connect();
    const outcomes = await Promise.all(Array.from({ length: 20 }, () =>
      pool`select outcome from private.round_bet(${providerHash}, ${session}::uuid, ${randomUUID()}, ${randomUUID()},
        1, false, ${sha(randomUUID())})`.then(([row]) => row.outcome as string)));
    expect(outcomes.filter((o) => o === 'ok')).toHaveLength(10);
    expect(outcomes.filter((o) => o === 'loss_limit_reached')).toHaveLength(10);
    expect(await lossOf(player, 'day')).toBe('10.0000');
  });

  it('gives a seamless bet its room back when the operator refuses it or does not answer', async () => {
    const seamless = await newOperator(sql, 'seamless-limits');
    await sql`select * from private.change_wallet_settings(${seamless.account.id}, true, 'seamless', 'https://w.test/', false)`;
    const session = await recordedSession(sql, seamless.account.id);
    await sql`insert into public.player_restriction (client_id, livemode, player_id, loss_limits)
              values (${seamless.account.id}, true, 'player-1', '{"EUR": {"day": "10.0000"}}')`;
    const loss = async () => (await sql`select day_loss::text from private.player_loss where client_id = ${seamless.account.id}`)[0].day_loss;
    for (const answer of ['refused', 'failed']) {
      const [queued] = await sql`select outcome, body from private.round_bet(${providerHash}, ${session}::uuid, ${randomUUID()},
        ${randomUUID()}, 8, false, ${sha(randomUUID())})`;
      expect(queued.outcome).toBe('wallet_call');
      expect(await loss()).toBe('8.0000');
      await sql`select * from private.finish_wallet_call(${queued.body.call_id}, 1, ${answer}, '0', 'insufficient_funds', 'down')`;
      expect(await loss()).toBe('0.0000');
    }
  });
});

describe('limits the mutation campaign asked for', () => {
  const tally = async (player: string) =>
    (await sql`select day_loss::text as day, week_loss::text as week from private.player_loss where player_id = ${player}`)[0];

  it("a new day starts the day's loss tally afresh, while the week's carries on to its own limit", async () => {
    const player = `p-${randomUUID()}`;
    await restrictions('PUT', player, { loss_limits: { EUR: { day: '10', week: '15' } } });
    const session = await recordedPlayerSession(player);
    expect(await bet(session, '10')).toBe('ok');
    expect(await bet(session, '0.01')).toBe('loss_limit_reached');
    // The tally as a new day finds it: yesterday's.
    await sql`update private.player_loss set day_start = day_start - 1 where player_id = ${player}`;
    expect(await bet(session, '5')).toBe('ok');
    expect(await tally(player)).toEqual({ day: '5.0000', week: '15.0000' });
    expect(await bet(session, '0.01')).toBe('loss_limit_reached');
  });

  it('the monthly loss limit holds on its own', async () => {
    const player = `p-${randomUUID()}`;
    await restrictions('PUT', player, { loss_limits: { EUR: { month: '5' } } });
    const session = await recordedPlayerSession(player);
    expect(await bet(session, '5')).toBe('ok');
    expect(await bet(session, '0.01')).toBe('loss_limit_reached');
  });

  it("a jurisdiction's maximum stake set while its session plays holds the session's next bet", async () => {
    const session = await recordedPlayerSession(`p-${randomUUID()}`);
    const code = `ZY-${randomUUID().slice(0, 3).toUpperCase()}`;
    await sql`insert into public.jurisdiction (code, name, regulator) values (${code}, 'Test', 'Test')`;
    await sql`update public.game_session set jurisdiction = ${code} where id = ${session}`;
    expect(await bet(session, '7')).toBe('ok');
    await sql`update public.jurisdiction set max_stake = 5, max_stake_currency = 'EUR' where code = ${code}`;
    expect(await bet(session, '7')).toBe('stake_limit_exceeded');
    expect(await bet(session, '5')).toBe('ok');
  });

  it("a jurisdiction's maximum stake in one currency does not cap stakes in another", async () => {
    const session = await recordedPlayerSession(`p-${randomUUID()}`);
    await sql`insert into public.jurisdiction (code, name, regulator, max_stake, max_stake_currency)
              values ('ZZ-USD', 'Test', 'Test', 5, 'USD') on conflict (code) do nothing`;
    await sql`update public.game_session set jurisdiction = 'ZZ-USD' where id = ${session}`;
    expect(await bet(session, '6')).toBe('ok');
    // The same for a player with restrictions of their own, whose bets the full check judges.
    const player = `p-${randomUUID()}`;
    expect((await restrictions('PUT', player, { stake_limits: { EUR: '100' } })).status).toBe(200);
    const restricted = await recordedPlayerSession(player);
    await sql`update public.game_session set jurisdiction = 'ZZ-USD' where id = ${restricted}`;
    expect(await bet(restricted, '6')).toBe('ok');
    expect(await bet(restricted, '101')).toBe('stake_limit_exceeded');
  });

  it('a player self-excluded until a date is refused bets until then', async () => {
    const player = `p-${randomUUID()}`;
    const session = await recordedPlayerSession(player);
    await restrictions('PUT', player, { self_excluded_until: later(24) });
    expect(await bet(session, '1')).toBe('player_restricted');
  });
});
