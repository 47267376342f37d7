// POST /v3/sandbox/reset, in-process against the test database: a test key puts its test world back
// (test players and balances, test restrictions, test webhook endpoints, test wallet settings to
// transfer, test sessions closed) and is told how many of each went; live records, and another
// client's test records, are never touched. And a test player's cool-off or self-exclusion can be
// lifted at once, while a live player's still cannot.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectResponseMatches, type OperationId } from '../openapi/contract.ts';
import { connect } from '../helpers/db.ts';
import { runDeliveries } from '../../supabase/functions/deliver/deliveries.ts';
import { createApp } from '../../supabase/functions/v3/app.ts';
import { createSessionTokenSigner } from '../../supabase/functions/v3/session-token.ts';
import { launchToken, providerCalls } from '../helpers/provider-api.ts';
import { ISSUER, isolatedDatabase, issueKey, newOperator, type Operator, sessionRequest, sessionsHandler } from '../helpers/api.ts';

const sql = connect();
const { handle } = await sessionsHandler();
let operator: Operator;
let testKey: string;
let other: { operator: Operator; testKey: string };

beforeAll(async () => {
  operator = await newOperator(sql, 'reset');
  testKey = (await issueKey(sql, operator.account, 'Sandbox', false)).key;
  const otherOperator = await newOperator(sql, 'reset-other');
  other = { operator: otherOperator, testKey: (await issueKey(sql, otherOperator.account, 'Sandbox', false)).key };
});

async function call(operationId: OperationId, method: string, path: string, key: string, body?: object) {
  const response = await handle(new Request(`http://api.test/v3${path}`, {
    method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  }));
  const json = await response.json();
  expectResponseMatches(operationId, response, json);
  return { status: response.status, body: json };
}
const reset = (key: string) => call('resetSandbox', 'POST', '/sandbox/reset', key);
const later = (hours: number) => new Date(Date.now() + hours * 3600_000).toISOString();

/** A client's world in one mode: what a reset may remove, counted. */
async function world(clientId: string, livemode: boolean) {
  const [row] = await sql`
    select (select count(distinct player_id)::int from public.sandbox_player where client_id = ${clientId} and not ${livemode}) as players,
           (select count(*)::int from public.player_restriction where client_id = ${clientId} and livemode = ${livemode}) as restrictions,
           (select count(*)::int from public.webhook_endpoint where client_id = ${clientId} and livemode = ${livemode}) as endpoints,
           (select count(*)::int from public.wallet_setting where client_id = ${clientId} and livemode = ${livemode}) as settings,
           (select count(*)::int from public.game_session
            where client_id = ${clientId} and livemode = ${livemode} and status <> 'closed') as open_sessions`;
  return row;
}

/** Everything a reset removes, made in both modes (the live one cannot have test players). */
async function populate(op: Operator, key: string) {
  for (const [k, livemode] of [[op.key, true], [key, false]] as const) {
    await call('putPlayerRestrictions', 'PUT', '/players/rg-1/restrictions', k, { cool_off_until: later(22) });
    await call('createWebhookEndpoint', 'POST', '/webhook-endpoints', k, { url: 'http://127.0.0.1:9/hooks' });
    await sql`select * from private.change_wallet_settings(${op.account.id}, ${livemode}, 'seamless', 'http://127.0.0.1:9/', false)`;
  }
  for (const player of ['t-1', 't-2']) {
    for (const currency of ['EUR', 'USD']) await call('createSandboxPlayer', 'POST', '/sandbox/players', key, { player_id: player, currency, balance: '5' });
  }
  const session = await handle(sessionRequest({ player_id: 't-1', game_id: 'cgs-sandbox:lucky-sevens', currency: 'EUR' }, { key }));
  expect(session.status).toBe(201);
}

describe('POST /v3/sandbox/reset', () => {
  it('removes the test world and says how much, leaving live records and other clients alone', async () => {
    await populate(operator, testKey);
    await populate(other.operator, other.testKey);
    const live = await world(operator.account.id, true);
    expect(live).toEqual({ players: 0, restrictions: 1, endpoints: 1, settings: 1, open_sessions: 0 });
    expect(await world(operator.account.id, false)).toEqual({ players: 2, restrictions: 1, endpoints: 1, settings: 1, open_sessions: 1 });

    expect(await reset(testKey)).toEqual({
      status: 200,
      body: {
        livemode: false, removed: { players: 2, restrictions: 1, webhook_endpoints: 1, wallet_settings: 1 }, sessions_closed: 1,
        rounds_cancelled: 0, free_round_campaigns_cancelled: 0, free_round_grants_cancelled: 0, sportsbook_bets_discarded: 0,
        sportsbook_bets_closed: 0, sportsbook_fixtures_cleared: 0, wallet_mode: 'transfer',
      },
    });
    expect(await world(operator.account.id, false)).toEqual({ players: 0, restrictions: 0, endpoints: 0, settings: 0, open_sessions: 0 });
    expect(await world(operator.account.id, true)).toEqual(live);
    expect(await world(other.operator.account.id, false)).toEqual({ players: 2, restrictions: 1, endpoints: 1, settings: 1, open_sessions: 1 });
    expect((await call('getWalletSettings', 'GET', '/wallet-settings', testKey)).body).toMatchObject({ mode: 'transfer', url: null });
    expect((await call('getWalletSettings', 'GET', '/wallet-settings', operator.key)).body).toMatchObject({ mode: 'seamless' });

    // The sandbox works again from scratch, and a second reset finds nothing.
    await call('createSandboxPlayer', 'POST', '/sandbox/players', testKey, { player_id: 'rg-1', currency: 'EUR', balance: '5' });
    const session = await handle(sessionRequest({ player_id: 'rg-1', game_id: 'cgs-sandbox:lucky-sevens', currency: 'EUR' }, { key: testKey }));
    expect(session.status).toBe(201);
    expect((await reset(testKey)).body).toMatchObject({
      removed: { players: 1, restrictions: 0, webhook_endpoints: 0, wallet_settings: 0 }, sessions_closed: 1,
    });
  });

  it('takes test keys only (403 live_key, nothing removed), and a working key before anything (401)', async () => {
    const before = await world(operator.account.id, true);
    expect(await reset(operator.key)).toMatchObject({ status: 403, body: { code: 'live_key', retryable: false } });
    expect(await world(operator.account.id, true)).toEqual(before);
    expect(await reset('cgs_test_unknown-key-00000000000000000000000000000000')).toMatchObject({ status: 401 });
    expect(await call('resetSandbox', 'GET', '/sandbox/reset', testKey)).toMatchObject({ status: 405 });
  });
});

describe('a reset with test rounds in play', () => {
  it('cancels them, so a late win is answered round_closed, not test_player_unknown for ever; live rounds play on', async () => {
    const op = await newOperator(sql, 'reset-rounds');
    const key = (await issueKey(sql, op.account, 'Sandbox', false)).key;
    const provider = providerCalls(handle, (await sql`select key from public.issue_provider_key('cgs-sandbox')`)[0].key);
    const liveProvider = providerCalls(handle, (await sql`select key from public.issue_provider_key('pragmatic-play')`)[0].key);
    await call('createSandboxPlayer', 'POST', '/sandbox/players', key, { player_id: 't-1', currency: 'EUR', balance: '5' });
    await sql`insert into public.wallet (client_id, currency_code) values (${op.account.id}, 'EUR')`;
    await sql`select * from public.record_transaction(${op.account.id}::uuid, 'EUR', 'deposit', 10::numeric)`;
    const testToken = await launchToken(handle, { ...op, key }, { player_id: 't-1', game_id: 'cgs-sandbox:lucky-sevens', currency: 'EUR' });
    const liveToken = await launchToken(handle, op, { currency: 'EUR' });
    const [testRound, liveRound] = [randomUUID(), randomUUID()];
    expect((await provider('bets', { session_token: testToken, transaction_id: randomUUID(), round_id: testRound, amount: '1' })).status).toBe(200);
    expect((await liveProvider('bets', { session_token: liveToken, transaction_id: randomUUID(), round_id: liveRound, amount: '1' })).status)
      .toBe(200);

    expect((await reset(key)).body).toMatchObject({ sessions_closed: 1, rounds_cancelled: 1 });
    const statuses = await sql`select provider_round_id, status from public.game_round where client_id = ${op.account.id}`;
    expect(Object.fromEntries(statuses.map((r) => [r.provider_round_id, r.status]))).toEqual({ [testRound]: 'cancelled', [liveRound]: 'open' });
    const events = await sql`select type from public.event where client_id = ${op.account.id} and not livemode and type like 'round.%'`;
    expect(events.map((e) => e.type)).toEqual(['round.cancelled']);
    expect(await provider('wins', { session_token: testToken, transaction_id: randomUUID(), round_id: testRound, amount: '2' }))
      .toMatchObject({ status: 422, body: { code: 'round_closed' } });
    expect(await liveProvider('wins', { session_token: liveToken, transaction_id: randomUUID(), round_id: liveRound, amount: '2', round_closed: true }))
      .toMatchObject({ status: 200, body: { balance: '11.0000' } });
  });
});

describe('a reset with test free rounds going', () => {
  it('cancels the test grants not finished and the test campaigns still running; live ones go on', async () => {
    const op = await newOperator(sql, 'reset-free-rounds');
    const key = (await issueKey(sql, op.account, 'Sandbox', false)).key;
    const code = `rfr-${randomUUID().slice(0, 8)}`;
    const [game] = await sql`
      insert into public.game (provider_id, code, name, category, currencies)
      select id, ${code}, 'Reset Free Rounds', 'slots', '{}' from public.game_provider where slug = 'pragmatic-play'
      returning id`;
    await sql`insert into public.game_free_rounds (game_id, payout_mode, max_rounds, max_validity_days, stakes)
              values (${game.id}, 'per_round', 100, 30, ${sql.json({ EUR: [0.2] })})`;
    const provider = providerCalls(handle, (await sql`select key from public.issue_provider_key('pragmatic-play')`)[0].key);
    await call('createSandboxPlayer', 'POST', '/sandbox/players', key, { player_id: 'fr-1', currency: 'EUR', balance: '5' });
    const campaigns: Record<string, string> = {};
    for (const [mode, k] of [['live', op.key], ['test', key]] as const) {
      const made = await call('createFreeRoundCampaign', 'POST', '/free-rounds/campaigns', k, {
        external_id: `reset-${mode}`, name: 'Spins', game_ids: [`pragmatic-play:${code}`], currency: 'EUR', bet_amount: '0.2', rounds: 3,
        valid_until: later(24 * 7), player_ids: ['fr-1', 'fr-2'],
      });
      expect(made.status).toBe(201);
      campaigns[mode] = made.body.id;
    }
    // A test campaign already ended stays as it was (ended, not cancelled).
    const [ended] = await sql`
      insert into public.free_round_campaign (client_id, livemode, external_id, name, provider_id, games, currency_code, bet_amount,
                                              rounds, valid_from, valid_until, request_fingerprint)
      select ${op.account.id}, false, 'reset-ended', 'Old', id, ${[code]}, 'EUR', 0.2, 3, now() - interval '3 days',
             now() - interval '1 day', ${'0'.repeat(64)}
      from public.game_provider where slug = 'pragmatic-play'
      returning id`;
    const [grant] = await sql`select id from public.free_round_grant where campaign_id = ${campaigns.test} and player_id = 'fr-1'`;
    const token = await launchToken(handle, { ...op, key }, { player_id: 'fr-1', game_id: `pragmatic-play:${code}`, currency: 'EUR' });
    expect((await provider('bets', { session_token: token, transaction_id: randomUUID(), round_id: randomUUID(), amount: '0.2',
      free_round_grant_id: grant.id })).status).toBe(200);
    const grants = (id: string) => sql`
      select player_id, status, rounds_open from public.free_round_grant where campaign_id = ${id} order by player_id`;
    expect((await grants(campaigns.test)).map((g) => g.status)).toEqual(['in_progress', 'pending']);

    expect((await reset(key)).body).toMatchObject({ rounds_cancelled: 1, free_round_campaigns_cancelled: 1, free_round_grants_cancelled: 2 });
    expect(await grants(campaigns.test)).toEqual([
      { player_id: 'fr-1', status: 'cancelled', rounds_open: 0 }, { player_id: 'fr-2', status: 'cancelled', rounds_open: 0 },
    ]);
    expect((await grants(campaigns.live)).map((g) => g.status)).toEqual(['pending', 'pending']);
    expect((await call('getFreeRoundCampaign', 'GET', `/free-rounds/campaigns/${campaigns.test}`, key)).body.status).toBe('cancelled');
    expect((await call('getFreeRoundCampaign', 'GET', `/free-rounds/campaigns/${campaigns.live}`, op.key)).body.status).toBe('active');
    expect((await sql`select cancelled_at from public.free_round_campaign where id = ${ended.id}`)[0].cancelled_at).toBeNull();
    const events = await sql`select type from public.event where client_id = ${op.account.id} and not livemode and type like 'free_rounds.%'`;
    expect(events.map((e) => e.type).sort()).toEqual(expect.arrayContaining([
      'free_rounds.campaign.cancelled', 'free_rounds.grant.cancelled', 'free_rounds.grant.cancelled']));
  });
});

describe('a test player\'s restrictions', () => {
  it('can be lifted at once, a cool-off or a self-exclusion; a live player\'s still cannot (409 exclusion_active)', async () => {
    const player = `rg-${randomUUID()}`;
    const put = (key: string, body: object, id = player) => call('putPlayerRestrictions', 'PUT', `/players/${id}/restrictions`, key, body);
    for (const running of [{ cool_off_until: later(22) }, { self_excluded_indefinitely: true }, { self_excluded_until: later(48) }]) {
      expect((await put(testKey, running)).status).toBe(200);
      expect(await put(testKey, {})).toMatchObject({
        status: 200, body: { cool_off_until: null, self_excluded_until: null, self_excluded_indefinitely: false },
      });
      const livePlayer = `rg-${randomUUID()}`;
      expect((await put(operator.key, running, livePlayer)).status).toBe(200);
      expect(await put(operator.key, {}, livePlayer)).toMatchObject({ status: 409, body: { code: 'exclusion_active' } });
    }
    const session = await handle(sessionRequest({ player_id: player, game_id: 'cgs-sandbox:lucky-sevens', currency: 'EUR' }, { key: testKey }));
    expect(session.status).toBe(201);
  });
});

describe('a reset with calls to the test wallet still due', () => {
  it('ends them, so the delivery runner, which serves every client, never meets a call with no wallet to send it to', async () => {
    const { owner, endpoint } = await isolatedDatabase('reset_wallet_calls');
    const app = createApp({ sql: endpoint, signer: await createSessionTokenSigner({ issuer: ISSUER }), config: { allowPrivateUrls: true } });
    const client = await newOperator(owner, 'reset-calls');
    const key = (await issueKey(owner, client.account, 'Sandbox', false)).key;
    const provider = (await owner`select key from public.issue_provider_key('cgs-sandbox')`)[0].key;
    // A test wallet nobody answers at: the debit fails, and its compensating rollback waits for the runner.
    await owner`select * from private.change_wallet_settings(${client.account.id}, false, 'seamless', 'http://127.0.0.1:9/', false)`;
    const session = await app(sessionRequest({ player_id: 't-1', game_id: 'cgs-sandbox:lucky-sevens', currency: 'EUR' }, { key }));
    const token = new URL((await session.json()).launch_url).searchParams.get('token')!;
    const bet = await app(new Request('http://api.test/v3/provider/bets', {
      method: 'POST', headers: { authorization: `Bearer ${provider}`, 'content-type': 'application/json' },
      body: JSON.stringify({ session_token: token, transaction_id: randomUUID(), round_id: randomUUID(), amount: '1' }),
    }));
    expect(bet.status).toBe(502);
    const pending = () => owner`select action, status from public.wallet_call where client_id = ${client.account.id} and status = 'pending'`;
    expect(await pending()).toEqual([{ action: 'rollback', status: 'pending' }]);

    const done = await app(new Request('http://api.test/v3/sandbox/reset', { method: 'POST', headers: { authorization: `Bearer ${key}` } }));
    expect(done.status).toBe(200);
    expect(await pending()).toEqual([]);
    await expect(runDeliveries(endpoint, { allowPrivateUrls: true })).resolves.toMatchObject({ claimed: 0 });
  });
});
