// Free-round campaigns and grants through the operator API, in-process against the test database:
// a campaign made once per external_id (the same request again answers it, another is a conflict),
// every refusal a precise problem with nothing written, each mode and client apart, grants listed
// and read, a cancel that ends the grants not started and leaves one in play, and an ended
// campaign refusing changes. Every answer as the document says. Time is never waited for: an ended
// campaign is one whose window was put in the past.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectResponseMatches, type OperationId } from '../openapi/contract.ts';
import { connect } from '../helpers/db.ts';
import { cursorOf, issueKey, newOperator, type Operator, sessionsHandler } from '../helpers/api.ts';

const sql = connect();
const { handle } = await sessionsHandler();
let operator: Operator;
let testKey: string;
/** Games of pragmatic-play made for this file: with free-round terms (two), in GBP only, and without. */
let games: { a: string; b: string; gbpOnly: string; none: string; lumpSum: string };

const days = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString();

async function newGame(terms: { rounds?: number; days?: number; stakes?: object; mode?: string } | null, currencies: string[] = [],
  provider = 'pragmatic-play'): Promise<string> {
  const code = `fr-${randomUUID().slice(0, 8)}`;
  const [game] = await sql`
    insert into public.game (provider_id, code, name, category, currencies)
    select id, ${code}, 'Free Round Test', 'slots', ${currencies} from public.game_provider where slug = ${provider}
    returning id`;
  if (terms) {
    await sql`insert into public.game_free_rounds (game_id, payout_mode, max_rounds, max_validity_days, stakes)
              values (${game.id}, ${terms.mode ?? 'per_round'}, ${terms.rounds ?? 100}, ${terms.days ?? 30},
                      ${sql.json((terms.stakes ?? { EUR: [0.1, 0.2, 0.5], GBP: [0.1, 0.2] }) as never)})`;
  }
  return `${provider}:${code}`;
}

beforeAll(async () => {
  operator = await newOperator(sql, 'free-rounds');
  testKey = (await issueKey(sql, operator.account, 'Sandbox', false)).key;
  games = {
    a: await newGame({}), b: await newGame({ rounds: 50, days: 14 }), gbpOnly: await newGame({}, ['GBP']), none: await newGame(null),
    lumpSum: await newGame({ mode: 'lump_sum', stakes: { EUR: [1, 2] } }),
  };
});

async function call(method: string, path: string, operation: OperationId, body?: unknown, key: string | null = operator.key) {
  const response = await handle(new Request(`http://api.test/v3${path}`, {
    method,
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  }));
  const json = await response.json();
  expectResponseMatches(operation, response, json);
  return { status: response.status, body: json };
}

const campaign = (overrides: Record<string, unknown> = {}) => ({
  external_id: `ext-${randomUUID()}`, name: 'Welcome spins', game_ids: [games.a, games.b], currency: 'EUR', bet_amount: '0.20',
  rounds: 10, valid_until: days(7), ...overrides,
});
const create = (body: unknown, key?: string | null) => call('POST', '/free-rounds/campaigns', 'createFreeRoundCampaign', body, key);
const countOf = async (table: 'free_round_campaign' | 'free_round_grant') =>
  (await sql`select count(*)::int as n from ${sql(`public.${table}`)} where client_id = ${operator.account.id}`)[0].n as number;
const eventsOf = async (type: string) =>
  sql`select data from public.event where client_id = ${operator.account.id} and type = ${type} order by created_at, id`;

describe('creating a campaign', () => {
  it('makes the campaign and a pending grant per player, each grant an event, amounts as decimal strings', async () => {
    const body = campaign({ player_ids: ['p-2', 'p-1', 'p-2'], max_win: '25.5' });
    const created = await create(body);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      external_id: body.external_id, game_ids: [games.a, games.b], currency: 'EUR', bet_amount: '0.2000', rounds: 10,
      max_win: '25.5000', status: 'active', livemode: true, grants: { pending: 2, in_progress: 0, cancelled: 0 },
      rounds_played: 0, total_paid: '0.0000', cancelled_at: null,
    });
    const grants = await call('GET', `/free-rounds/grants?campaign_id=${created.body.id}`, 'listFreeRoundGrants');
    expect(grants.body.data.map((g: { player_id: string }) => g.player_id).sort()).toEqual(['p-1', 'p-2']);
    expect(grants.body.data[0]).toMatchObject({
      campaign_external_id: body.external_id, game_id: null, rounds_total: 10, rounds_used: 0, rounds_left: 10, total_win: '0.0000',
      status: 'pending', expires_at: created.body.valid_until,
    });
    const events = await eventsOf('free_rounds.grant.created');
    expect(events.filter((e) => e.data.campaign_id === created.body.id)).toHaveLength(2);
  });

  it('answers a repeat of the same request with the campaign as it is (200), however spelt, and writes nothing more', async () => {
    const from = Math.floor(Date.now() / 3_600_000) * 3_600_000 - 3_600_000;
    const body = campaign({ player_ids: ['a', 'b'], valid_from: new Date(from).toISOString(), valid_until: days(3) });
    const first = await create(body);
    expect(first.status).toBe(201);
    const [campaigns, grants] = [await countOf('free_round_campaign'), await countOf('free_round_grant')];
    const respelt = { ...body, bet_amount: '0.2000', player_ids: ['b', 'a', 'a'],
      valid_from: new Date(from + 3_600_000).toISOString().replace('Z', '+01:00') };
    const again = await create(respelt);
    expect(again).toMatchObject({ status: 200, body: { id: first.body.id } });
    expect([await countOf('free_round_campaign'), await countOf('free_round_grant')]).toEqual([campaigns, grants]);
  });

  it('refuses the same external_id with another request (409 external_id_conflict), and each mode has its own ids', async () => {
    const body = campaign();
    await create(body);
    const conflict = await create({ ...body, rounds: 11 });
    expect(conflict).toMatchObject({ status: 409, body: { code: 'external_id_conflict', retryable: false } });
    // A missing valid_from means "now" each time: not the same request as one that names an instant.
    expect((await create({ ...body, valid_from: new Date().toISOString() })).body.code).toBe('external_id_conflict');
    // The same external_id in test mode is another campaign (the sandbox's games, for test keys).
    const test = await create({ ...body, game_ids: ['cgs-sandbox:lucky-sevens'] }, testKey);
    expect(test).toMatchObject({ status: 201, body: { livemode: false, external_id: body.external_id } });
  });

  it('starts a campaign whose valid_from is ahead scheduled', async () => {
    const created = await create(campaign({ valid_from: days(2), valid_until: days(5) }));
    expect(created.body.status).toBe('scheduled');
    expect((await call('GET', '/free-rounds/campaigns?status=scheduled', 'listFreeRoundCampaigns')).body.data
      .map((c: { id: string }) => c.id)).toContain(created.body.id);
  });
});

/** The problem's sentence for each 422 of a campaign's creation. */
const problemDetails: Record<string, string> = {
  reference_unavailable: 'A game or the currency cannot be used; see `errors`.',
  invalid_validity: 'valid_until must be after valid_from and in the future; see `errors`.',
  mixed_providers: 'A campaign\'s games are of one provider.',
  free_rounds_not_supported: 'A game does not support free rounds; see `errors`.',
  stake_not_allowed: 'The stake is not one the games allow in this currency; see `errors`.',
  free_rounds_limit_exceeded: 'The rounds or the validity are beyond what the provider allows; see `errors`.',
};

describe('refusing a campaign: a precise problem, and nothing written', () => {
  // Each field error as [pointer, code, detail]: the sentence is the API's word on that reason.
  const refused = async (body: unknown, status: number, code: string, errors?: [string, string, string][]) => {
    const before = await countOf('free_round_campaign');
    const answer = await create(body);
    expect(answer.status, JSON.stringify(answer.body)).toBe(status);
    expect(answer.body.code).toBe(code);
    if (status === 422) expect(answer.body.detail).toBe(problemDetails[code]);
    if (errors) {
      expect(answer.body.errors.map((e: { pointer: string; code: string; detail: string }) => [e.pointer, e.code, e.detail]))
        .toEqual(errors);
    }
    expect(await countOf('free_round_campaign')).toBe(before);
    return answer.body;
  };

  it('an unknown or unavailable game or currency: 422 reference_unavailable, each named', async () => {
    const unknownGame = 'No game with this id in the catalogue.';
    await refused(campaign({ game_ids: [games.a, 'pragmatic-play:no-such-game'] }), 422, 'reference_unavailable',
      [['#/game_ids/1', 'unknown_game', unknownGame]]);
    await refused(campaign({ currency: 'XQQ' }), 422, 'reference_unavailable', [['#/currency', 'unknown_currency',
      'The service does not offer this currency; GET /v3/currencies lists those it does.']]);
    await refused(campaign({ game_ids: [games.gbpOnly] }), 422, 'reference_unavailable',
      [['#/game_ids/0', 'currency_not_supported', 'The game does not play in this currency.']]);
    // The sandbox's games are for test keys only.
    await refused(campaign({ game_ids: ['cgs-sandbox:lucky-sevens'] }), 422, 'reference_unavailable',
      [['#/game_ids/0', 'unknown_game', unknownGame]]);
    const [{ code }] = await sql`update public.game set status = 'maintenance' where code = ${games.b.split(':')[1]} returning code`;
    try {
      await refused(campaign(), 422, 'reference_unavailable',
        [['#/game_ids/1', 'game_unavailable', 'The game is in maintenance or inactive.']]);
    } finally {
      await sql`update public.game set status = 'active' where code = ${code}`;
    }
  });

  it('a game without free rounds, or games of several providers: 422', async () => {
    await refused(campaign({ game_ids: [games.a, games.none] }), 422, 'free_rounds_not_supported',
      [['#/game_ids/1', 'free_rounds_not_supported', 'This game does not support free rounds.']]);
    const other = await newGame({}, [], 'evolution');
    await refused(campaign({ game_ids: [games.a, other] }), 422, 'mixed_providers',
      [['#/game_ids', 'mixed_providers', 'The games are of several providers.']]);
  });

  it('a stake a game does not allow in the currency: 422 stake_not_allowed, naming the stakes it does', async () => {
    await refused(campaign({ bet_amount: '0.30' }), 422, 'stake_not_allowed', [
      ['#/bet_amount', 'stake_not_allowed', `${games.a} allows 0.1, 0.2, 0.5 in this currency.`],
      ['#/bet_amount', 'stake_not_allowed', `${games.b} allows 0.1, 0.2, 0.5 in this currency.`]]);
    await refused(campaign({ game_ids: [games.a, games.lumpSum], bet_amount: '0.2' }), 422, 'stake_not_allowed',
      [['#/bet_amount', 'stake_not_allowed', `${games.lumpSum} allows 1, 2 in this currency.`]]);
    // No stakes at all in the currency: said so, not an empty list.
    await refused(campaign({ game_ids: [games.a], currency: 'USD' }), 422, 'stake_not_allowed',
      [['#/bet_amount', 'stake_not_allowed', `${games.a} has no free-round stakes in this currency.`]]);
  });

  it('rounds or validity beyond the provider\'s limits (the strictest game\'s): 422 free_rounds_limit_exceeded', async () => {
    await refused(campaign({ rounds: 51, valid_until: days(15) }), 422, 'free_rounds_limit_exceeded', [
      ['#/rounds', 'rounds_above_limit', 'The provider allows at most 50 rounds.'],
      ['#/valid_until', 'validity_above_limit', 'The provider allows at most 14 days after valid_from.']]);
    expect((await create(campaign({ rounds: 50, valid_until: days(13.9) }))).status).toBe(201);
  });

  it('a window that is empty or over: 422 invalid_validity', async () => {
    await refused(campaign({ valid_from: days(3), valid_until: days(2) }), 422, 'invalid_validity',
      [['#/valid_until', 'valid_until_not_after_valid_from', 'valid_until must be after valid_from.']]);
    await refused(campaign({ valid_from: days(-3), valid_until: days(-1) }), 422, 'invalid_validity',
      [['#/valid_until', 'valid_until_passed', 'valid_until has passed.']]);
  });

  it('a body the schema refuses: 400 naming each field, over 1,000 players among them; 401 without a key first', async () => {
    const players = Array.from({ length: 1001 }, (_, i) => `p${i}`);
    const body = await refused({ ...campaign({ player_ids: players, bet_amount: 0.2, rounds: 0 }), extra: true }, 400, 'validation_failed');
    expect(body.errors.map((e: { pointer: string }) => e.pointer).sort()).toEqual(['#/bet_amount', '#/extra', '#/player_ids', '#/rounds']);
    expect(body.errors.find((e: { pointer: string }) => e.pointer === '#/player_ids').detail).toBe('player_ids must have at most 1000 items.');
    expect((await create(campaign(), null)).status).toBe(401);
    expect((await create(campaign(), `cgs_live_${'x'.repeat(43)}`)).status).toBe(401);
  });
});

describe('reading campaigns and grants', () => {
  it('lists a page at a time, newest first, and reads one; another client or mode sees none of them', async () => {
    const other = await newOperator(sql, 'free-rounds-other');
    const made = [];
    for (let i = 0; i < 3; i++) made.push((await create(campaign({ player_ids: [`page-${i}`] }))).body.id);
    const first = await call('GET', '/free-rounds/campaigns?limit=2', 'listFreeRoundCampaigns');
    expect(first.body.data.map((c: { id: string }) => c.id)).toEqual([made[2], made[1]]);
    expect(first.body.has_more).toBe(true);
    const second = await call('GET', `/free-rounds/campaigns?limit=1&cursor=${first.body.next_cursor}`, 'listFreeRoundCampaigns');
    expect(second.body.data[0].id).toBe(made[0]);
    const read = await call('GET', `/free-rounds/campaigns/${made[0]}`, 'getFreeRoundCampaign');
    expect(read.body).toEqual(second.body.data[0]);
    // A uuid in either case is the same campaign.
    expect((await call('GET', `/free-rounds/campaigns/${made[0].toUpperCase()}`, 'getFreeRoundCampaign')).body).toEqual(read.body);
    expect((await call('GET', `/free-rounds/campaigns/${made[0]}`, 'getFreeRoundCampaign', undefined, other.key)).status).toBe(404);
    expect((await call('GET', `/free-rounds/campaigns/${made[0]}`, 'getFreeRoundCampaign', undefined, testKey)).status).toBe(404);
    expect((await call('GET', '/free-rounds/campaigns', 'listFreeRoundCampaigns', undefined, other.key)).body.data).toEqual([]);
    expect((await call('GET', '/free-rounds/campaigns/not-a-uuid', 'getFreeRoundCampaign')).status).toBe(404);
    expect((await call('GET', '/free-rounds/campaigns?cursor=abc', 'listFreeRoundCampaigns')).body.code).toBe('invalid_parameters');

    const grants = await call('GET', '/free-rounds/grants?player_id=page-1', 'listFreeRoundGrants');
    expect(grants.body.data).toHaveLength(1);
    const grant = await call('GET', `/free-rounds/grants/${grants.body.data[0].id}`, 'getFreeRoundGrant');
    expect(grant.body).toEqual(grants.body.data[0]);
    expect((await call('GET', `/free-rounds/grants/${grant.body.id}`, 'getFreeRoundGrant', undefined, other.key)).status).toBe(404);
    expect((await call('GET', `/free-rounds/grants/${grant.body.id}`, 'getFreeRoundGrant', undefined, testKey)).status).toBe(404);
    expect((await call('GET', '/free-rounds/grants?status=finished', 'listFreeRoundGrants')).body.code).toBe('invalid_parameters');
  });
});

describe('pages and cursors', () => {
  const at = '2026-12-08T02:00:00.000000Z';
  const uuid = '0b0f8a3e-0c1d-4e2f-8a9b-1c2d3e4f5a6b';

  it('pages a campaign\'s grants one at a time, newest first, each once (made in one call, so at one instant), then ends', async () => {
    const { body: made } = await create(campaign({ player_ids: ['pg-1', 'pg-2', 'pg-3'] }));
    const path = `/free-rounds/grants?campaign_id=${made.id}`;
    const all = (await call('GET', path, 'listFreeRoundGrants')).body;
    expect(all).toMatchObject({ next_cursor: null, has_more: false });
    expect(all.data.map((g: { player_id: string }) => g.player_id).sort()).toEqual(['pg-1', 'pg-2', 'pg-3']);
    // A page of exactly the limit, with one more to come, says so.
    const first = (await call('GET', `${path}&limit=2`, 'listFreeRoundGrants')).body;
    expect(first.data.map((g: { id: string }) => g.id)).toEqual(all.data.slice(0, 2).map((g: { id: string }) => g.id));
    expect(first.has_more).toBe(true);
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 3; page++) {
      const { body } = await call('GET', `${path}&limit=1${cursor ? `&cursor=${cursor}` : ''}`, 'listFreeRoundGrants');
      expect(body.data).toHaveLength(1);
      seen.push(body.data[0].id);
      expect(body.has_more).toBe(page < 2);
      cursor = body.next_cursor;
    }
    expect(seen).toEqual(all.data.map((g: { id: string }) => g.id));
    expect(cursor).toBeNull();
    // A page of the whole list at its limit has nothing more.
    expect((await call('GET', `${path}&limit=3`, 'listFreeRoundGrants')).body).toMatchObject({ next_cursor: null, has_more: false });
  });

  it('an empty page is exactly that, for campaigns and grants', async () => {
    const other = await newOperator(sql, 'free-rounds-empty');
    const empty = { data: [], next_cursor: null, has_more: false };
    for (const [path, operation] of [['/free-rounds/campaigns', 'listFreeRoundCampaigns'], ['/free-rounds/grants', 'listFreeRoundGrants']] as const) {
      const response = await handle(new Request(`http://api.test/v3${path}`, { headers: { authorization: `Bearer ${other.key}` } }));
      const text = await response.text();
      expect(text).toBe(JSON.stringify(empty));
      expectResponseMatches(operation, response, JSON.parse(text));
    }
  });

  it('refuses a cursor it could not have made (400 invalid_cursor), on either list: a malformed instant or id, or another shape', async () => {
    const { body: made } = await create(campaign({ player_ids: ['cur-1', 'cur-2'] }));
    const firstGrants = (await call('GET', `/free-rounds/grants?campaign_id=${made.id}&limit=1`, 'listFreeRoundGrants')).body;
    const firstCampaigns = (await call('GET', '/free-rounds/campaigns?limit=1', 'listFreeRoundCampaigns')).body;
    for (const [path, operation, good] of [
      ['/free-rounds/campaigns?', 'listFreeRoundCampaigns', firstCampaigns.next_cursor],
      [`/free-rounds/grants?campaign_id=${made.id}&`, 'listFreeRoundGrants', firstGrants.next_cursor],
    ] as const) {
      // The cursor a page gave is taken.
      expect((await call('GET', `${path}cursor=${good}`, operation)).status).toBe(200);
      for (const parts of [['not-an-instant', uuid], [at, 'not-a-uuid'], [at, uuid.toUpperCase()], ['', ''], [at], [at, uuid, uuid]]) {
        const answer = await call('GET', `${path}cursor=${cursorOf(parts)}`, operation);
        expect(answer, JSON.stringify(parts)).toMatchObject({ status: 400, body: {
          code: 'invalid_parameters', detail: 'The query has invalid parameters; see `errors`.',
          errors: [{ parameter: 'cursor', code: 'invalid_cursor', detail: 'cursor must be a next_cursor this endpoint returned.' }],
        } });
      }
    }
  });
});

describe('granting players', () => {
  it('adds up to 1,000 players a call, a repeat harmless, each new grant an event; over 1,000 is a 400', async () => {
    const { body: made } = await create(campaign({ player_ids: ['g-1'] }));
    const add = (players: string[]) => call('POST', `/free-rounds/campaigns/${made.id}/players`, 'addFreeRoundPlayers', { player_ids: players });
    const added = await add(['g-1', 'g-2', 'g-3', 'g-3']);
    expect(added).toMatchObject({ status: 200, body: { campaign_id: made.id, created: 2, unchanged: 1 } });
    expect((await add(['g-2'])).body).toMatchObject({ created: 0, unchanged: 1 });
    const thousand = Array.from({ length: 1000 }, (_, i) => `bulk-${i}`);
    expect((await add(thousand)).body).toMatchObject({ created: 1000, unchanged: 0 });
    expect((await call('GET', `/free-rounds/campaigns/${made.id}`, 'getFreeRoundCampaign')).body.grants.pending).toBe(1003);
    const events = await sql`select count(*)::int as n from public.event where client_id = ${operator.account.id}
                             and type = 'free_rounds.grant.created' and data->>'campaign_id' = ${made.id}`;
    expect(events[0].n).toBe(1003);
    const tooMany = await add([...thousand, 'one-more']);
    expect(tooMany).toMatchObject({ status: 400, body: { code: 'validation_failed' } });
    expect((await add([])).status).toBe(400);
  });
});

describe('cancelling and ending', () => {
  it('cancels: grants not started end cancelled, one in play keeps its rounds, each an event; a repeat answers it as it is', async () => {
    const { body: made } = await create(campaign({ player_ids: ['c-1', 'c-2', 'c-3'] }));
    // c-3's first free round is in play (as the engine records it): it settles after the cancel.
    await sql`update public.free_round_grant set status = 'in_progress', rounds_used = 1, rounds_open = 1, game = ${games.a.split(':')[1]}
              where campaign_id = ${made.id} and player_id = 'c-3'`;
    const cancelled = await call('POST', `/free-rounds/campaigns/${made.id}/cancel`, 'cancelFreeRoundCampaign');
    expect(cancelled).toMatchObject({ status: 200, body: { status: 'cancelled', grants: { pending: 0, cancelled: 2, in_progress: 1 } } });
    expect(cancelled.body.cancelled_at).not.toBeNull();
    const grants = await call('GET', `/free-rounds/grants?campaign_id=${made.id}&status=in_progress`, 'listFreeRoundGrants');
    // No new free bet: no round is left to play.
    expect(grants.body.data).toMatchObject([{ player_id: 'c-3', game_id: games.a, rounds_left: 0 }]);
    const campaignEvents = (await eventsOf('free_rounds.campaign.cancelled')).filter((e) => e.data.id === made.id);
    expect(campaignEvents).toMatchObject([{ data: { status: 'cancelled', grants: { cancelled: 2 } } }]);
    expect((await eventsOf('free_rounds.grant.cancelled')).filter((e) => e.data.campaign_id === made.id)).toHaveLength(2);
    expect((await eventsOf('free_rounds.grant.started')).filter((e) => e.data.campaign_id === made.id)).toHaveLength(1);

    const again = await call('POST', `/free-rounds/campaigns/${made.id}/cancel`, 'cancelFreeRoundCampaign');
    expect(again.body).toEqual(cancelled.body);
    expect((await eventsOf('free_rounds.campaign.cancelled')).filter((e) => e.data.id === made.id)).toHaveLength(1);
    const add = await call('POST', `/free-rounds/campaigns/${made.id}/players`, 'addFreeRoundPlayers', { player_ids: ['late'] });
    expect(add).toMatchObject({ status: 409, body: { code: 'campaign_cancelled' } });
  });

  it('an ended campaign is ended, its unfinished grants expired whatever their column says, and it takes no cancel or grant', async () => {
    const { body: made } = await create(campaign({ player_ids: ['e-1'] }));
    await sql`update public.free_round_campaign set valid_from = now() - interval '2 days', valid_until = now() - interval '1 second'
              where id = ${made.id}`;
    await sql`update public.free_round_grant set expires_at = now() - interval '1 second' where campaign_id = ${made.id}`;
    const read = await call('GET', `/free-rounds/campaigns/${made.id}`, 'getFreeRoundCampaign');
    expect(read.body).toMatchObject({ status: 'ended', grants: { pending: 0, expired: 1 } });
    const [grant] = (await call('GET', `/free-rounds/grants?campaign_id=${made.id}`, 'listFreeRoundGrants')).body.data;
    expect(grant).toMatchObject({ status: 'expired', rounds_left: 0 });
    const [stored] = await sql`select status from public.free_round_grant where id = ${grant.id}`;
    expect(stored.status).toBe('pending');
    expect((await call('POST', `/free-rounds/campaigns/${made.id}/cancel`, 'cancelFreeRoundCampaign')).body.code).toBe('campaign_ended');
    expect((await call('POST', `/free-rounds/campaigns/${made.id}/players`, 'addFreeRoundPlayers', { player_ids: ['x'] })).body.code)
      .toBe('campaign_ended');
    expect((await call('POST', `/free-rounds/campaigns/${randomUUID()}/cancel`, 'cancelFreeRoundCampaign')).status).toBe(404);
  });
});

describe('removing a player (DELETE /v3/free-rounds/campaigns/{id}/players/{player_id})', () => {
  const remove = (campaignId: string, player: string, key?: string | null) =>
    call('DELETE', `/free-rounds/campaigns/${campaignId}/players/${encodeURIComponent(player)}`, 'cancelFreeRoundGrant', undefined, key);

  it('cancels the player\'s grant, started or not, with its event; a repeat answers it as it is and writes nothing', async () => {
    const { body: made } = await create(campaign({ player_ids: ['r-1', 'r-2', 'r 3'] }));
    // r-2's grant is in play (as the engine records it), a round open.
    await sql`update public.free_round_grant set status = 'in_progress', rounds_used = 1, rounds_open = 1, game = ${games.a.split(':')[1]}
              where campaign_id = ${made.id} and player_id = 'r-2'`;
    const removed = await remove(made.id, 'r-1');
    expect(removed).toMatchObject({ status: 200, body: { campaign_id: made.id, player_id: 'r-1', status: 'cancelled', rounds_left: 0, rounds_used: 0 } });
    const inPlay = await remove(made.id, 'r-2');
    expect(inPlay).toMatchObject({ status: 200, body: { player_id: 'r-2', status: 'cancelled', rounds_left: 0, rounds_used: 1 } });
    expect((await remove(made.id, 'r 3')).body).toMatchObject({ player_id: 'r 3', status: 'cancelled' });
    const cancelledEvents = () => eventsOf('free_rounds.grant.cancelled').then((events) => events.filter((e) => e.data.campaign_id === made.id));
    expect((await cancelledEvents()).map((e) => e.data.player_id).sort()).toEqual(['r 3', 'r-1', 'r-2']);
    expect((await cancelledEvents())[0].data).toMatchObject({ status: 'cancelled', rounds_left: 0 });

    const events = (await cancelledEvents()).length;
    const again = await remove(made.id, 'r-1');
    expect(again).toEqual(removed);
    expect((await cancelledEvents()).length).toBe(events);
    // The campaign goes on for the others, and its counts show the cancels.
    expect((await call('GET', `/free-rounds/campaigns/${made.id}`, 'getFreeRoundCampaign')).body)
      .toMatchObject({ status: 'active', grants: { pending: 0, in_progress: 0, cancelled: 3 } });
    // Added again, a removed player keeps its cancelled grant: a repeat grant is harmless, not a new one.
    expect((await call('POST', `/free-rounds/campaigns/${made.id}/players`, 'addFreeRoundPlayers', { player_ids: ['r-1'] })).body)
      .toMatchObject({ created: 0, unchanged: 1 });
  });

  it('a grant of a cancelled campaign is answered as it is (cancelled)', async () => {
    const { body: made } = await create(campaign({ player_ids: ['rc-1'] }));
    await call('POST', `/free-rounds/campaigns/${made.id}/cancel`, 'cancelFreeRoundCampaign');
    expect(await remove(made.id, 'rc-1')).toMatchObject({ status: 200, body: { status: 'cancelled' } });
  });

  it('refuses, writing nothing: unknown campaign or player (404), a grant over (409), a bad player id (400), another client or mode (404)', async () => {
    const { body: made } = await create(campaign({ player_ids: ['x-1', 'x-2'] }));
    const before = [await countOf('free_round_grant'), (await eventsOf('free_rounds.grant.cancelled')).length];
    const states = async () => (await sql`select player_id, status from public.free_round_grant where campaign_id = ${made.id} order by player_id`)
      .map((g) => `${g.player_id} ${g.status}`);
    const was = await states();
    expect(await remove(randomUUID(), 'x-1')).toMatchObject({ status: 404, body: { code: 'not_found', detail: 'No free-round campaign with this id.' } });
    expect(await remove('not-a-uuid', 'x-1')).toMatchObject({ status: 404, body: { code: 'not_found' } });
    expect(await remove(made.id, 'nobody')).toMatchObject({ status: 404, body: { code: 'not_found', detail: 'The campaign has no grant for this player.' } });
    expect(await remove(made.id, ' x-1')).toMatchObject({ status: 400, body: { code: 'invalid_parameters', errors: [{ parameter: 'player_id', code: 'invalid_format' }] } });
    const other = await newOperator(sql, 'free-rounds-remove-other');
    expect((await remove(made.id, 'x-1', other.key)).status).toBe(404);
    expect((await remove(made.id, 'x-1', testKey)).status).toBe(404);
    expect((await remove(made.id, 'x-1', null)).status).toBe(401);
    // x-1 completed every round: over.
    await sql`update public.free_round_grant set status = 'completed', rounds_used = rounds_total where campaign_id = ${made.id} and player_id = 'x-1'`;
    const completed = await remove(made.id, 'x-1');
    expect(completed).toMatchObject({ status: 409, body: { code: 'grant_completed', retryable: false } });
    // The campaign past valid_until: its unfinished grants expired, whatever their column says.
    await sql`update public.free_round_campaign set valid_from = now() - interval '2 days', valid_until = now() - interval '1 second' where id = ${made.id}`;
    await sql`update public.free_round_grant set expires_at = now() - interval '1 second' where campaign_id = ${made.id}`;
    expect(await remove(made.id, 'x-2')).toMatchObject({ status: 409, body: { code: 'campaign_ended' } });
    expect(await states()).toEqual(was.map((s) => (s === 'x-1 pending' ? 'x-1 completed' : s)));
    expect([await countOf('free_round_grant'), (await eventsOf('free_rounds.grant.cancelled')).length]).toEqual(before);
    // Only DELETE: another method is 405.
    const response = await handle(new Request(`http://api.test/v3/free-rounds/campaigns/${made.id}/players/x-2`, {
      method: 'GET', headers: { authorization: `Bearer ${operator.key}` },
    }));
    expect([response.status, response.headers.get('allow')]).toEqual([405, 'DELETE']);
  });
});
