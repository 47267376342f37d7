// One rule per field (issue 37, item 6; docs/validation.md): every endpoint that takes a currency,
// a country, a player id (or another id the operator chooses), an amount, a URL or a date-time
// refuses the same bad value with the same status, problem code and field code, and writes
// nothing. In-process against the test database; the table is field x endpoint x bad value.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../helpers/db.ts';
import { issueKey, newOperator, type Operator, sessionsHandler } from '../helpers/api.ts';
import { ruleOfSchema } from '../../supabase/functions/v3/contract.ts';

const sql = connect();
const { handle } = await sessionsHandler();
let operator: Operator;
let key: string;
let campaignId: string;

const GAME = 'cgs-sandbox:lucky-sevens';
const days = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString();

async function call(method: string, path: string, body?: unknown) {
  const response = await handle(new Request(`http://api.test/v3${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  }));
  return { status: response.status, body: await response.json() };
}

beforeAll(async () => {
  operator = await newOperator(sql, 'one-rule');
  key = (await issueKey(sql, operator.account, 'Sandbox', false)).key;
  const made = await call('POST', '/free-rounds/campaigns', {
    external_id: 'rules-1', name: 'Rules', game_ids: [GAME], currency: 'EUR', bet_amount: '0.20', rounds: 5, valid_until: days(3),
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  campaignId = made.body.id;
});

/** Every row the operator has anywhere a refused request could have written one. */
async function written() {
  const [row] = await sql`
    select (select count(*)::int from public.game_session where client_id = ${operator.account.id}) as sessions,
           (select count(*)::int from public.sandbox_player where client_id = ${operator.account.id}) as test_players,
           (select count(*)::int from public.player_restriction where client_id = ${operator.account.id}) as restrictions,
           (select count(*)::int from public.player_restriction_audit where client_id = ${operator.account.id}) as audit,
           (select count(*)::int from public.free_round_campaign where client_id = ${operator.account.id}) as campaigns,
           (select count(*)::int from public.free_round_grant where client_id = ${operator.account.id}) as grants,
           (select count(*)::int from public.webhook_endpoint where client_id = ${operator.account.id}) as endpoints,
           (select count(*)::int from public.wallet_setting where client_id = ${operator.account.id}) as wallet_settings,
           (select count(*)::int from public.event where client_id = ${operator.account.id}) as events`;
  return row;
}

/** Where a field goes in a request: a body member (with the rest of a good body), a query parameter, a path segment. */
interface Place {
  name: string;
  method: string;
  /** The request with `value` in the field's place. */
  path: (value: string) => string;
  body?: (value: string) => unknown;
  /** The field error's location: a body pointer or a parameter name. */
  at: { pointer: string } | { parameter: string };
}

const body = (name: string, method: string, path: string, make: (v: string) => unknown, pointer: string): Place =>
  ({ name: `${method} /v3${path} ${pointer}`, method, path: () => path, body: make, at: { pointer } });
const query = (method: string, path: string, parameter: string, rest = ''): Place =>
  ({ name: `${method} /v3${path}?${parameter}`, method, path: (v) => `${path}?${rest}${parameter}=${encodeURIComponent(v)}`, at: { parameter } });
const inPath = (method: string, template: string, make?: (v: string) => unknown): Place =>
  ({ name: `${method} /v3${template}`, method, path: (v) => template.replace('{player_id}', encodeURIComponent(v)), body: make, at: { parameter: 'player_id' } });

const session = (fields: Record<string, string>) => ({ player_id: 'rules-player', game_id: GAME, currency: 'EUR', ...fields });
const campaign = (fields: Record<string, unknown>) => ({
  external_id: `rules-${randomUUID()}`, name: 'Rules', game_ids: [GAME], currency: 'EUR', bet_amount: '0.20', rounds: 5, valid_until: days(3), ...fields,
});

const currencyPlaces: Place[] = [
  body('', 'POST', '/sessions', (v) => session({ currency: v }), '#/currency'),
  body('', 'POST', '/sandbox/players', (v) => ({ player_id: 'rules-player', currency: v, balance: '10' }), '#/currency'),
  body('', 'POST', '/sandbox/wallet-checks', (v) => ({ player_id: 'rules-player', currency: v }), '#/currency'),
  body('', 'POST', '/free-rounds/campaigns', (v) => campaign({ currency: v }), '#/currency'),
  query('GET', '/games', 'currency'),
  query('GET', '/transactions', 'currency'),
  query('GET', '/reports/ggr', 'currency', 'from=2026-11-01&to=2026-11-30&'),
];
// A limit's currency is the member's name: the pointer names the limit.
// (A pointer in its URI fragment form: `€` is `%E2%82%AC`.)
const limitPlaces = (v: string): Place[] => [
  body('', 'PUT', '/players/rules-player/restrictions', () => ({ stake_limits: { [v]: '1' } }), `#/stake_limits/${encodeURIComponent(v)}`),
  body('', 'PUT', '/players/rules-player/restrictions', () => ({ loss_limits: { [v]: { day: '5' } } }), `#/loss_limits/${encodeURIComponent(v)}`),
];
const countryPlaces: Place[] = [
  body('', 'POST', '/sessions', (v) => session({ country: v }), '#/country'),
  query('GET', '/games', 'country'),
];
const playerIdPlaces: Place[] = [
  body('', 'POST', '/sessions', (v) => session({ player_id: v }), '#/player_id'),
  body('', 'POST', '/sandbox/players', (v) => ({ player_id: v, currency: 'EUR', balance: '10' }), '#/player_id'),
  body('', 'POST', '/sandbox/wallet-checks', (v) => ({ player_id: v, currency: 'EUR' }), '#/player_id'),
  body('', 'POST', '/free-rounds/campaigns', (v) => campaign({ player_ids: [v] }), '#/player_ids/0'),
  body('', 'POST', '/free-rounds/campaigns', (v) => campaign({ external_id: v }), '#/external_id'),
  { ...body('', 'POST', '/free-rounds/campaigns/{id}/players', (v) => ({ player_ids: ['ok-player', v] }), '#/player_ids/1'),
    path: () => `/free-rounds/campaigns/${campaignId}/players` },
  inPath('GET', '/players/{player_id}/restrictions'),
  inPath('PUT', '/players/{player_id}/restrictions', () => ({ stake_limits: { EUR: '1' } })),
  inPath('GET', '/sandbox/players/{player_id}'),
  { ...inPath('DELETE', '/free-rounds/campaigns/{id}/players/{player_id}'),
    path: (v) => `/free-rounds/campaigns/${campaignId}/players/${encodeURIComponent(v)}` },
  query('GET', '/sessions', 'player_id'),
  query('GET', '/rounds', 'player_id'),
  query('GET', '/free-rounds/grants', 'player_id'),
];

const fieldOf = (at: Place['at']) => ('pointer' in at ? at : at);
const problemAt = (place: Place, status: 400 | 422) =>
  status === 422 ? 'reference_unavailable' : 'pointer' in place.at ? 'validation_failed' : 'invalid_parameters';

async function expectRefused(place: Place, value: string, status: 400 | 422, fieldCode: string, detail?: RegExp) {
  const answer = await call(place.method, place.path(value), place.body?.(value));
  const label = `${place.name} ${JSON.stringify(value)}: ${JSON.stringify(answer.body)}`;
  expect(answer.status, label).toBe(status);
  expect(answer.body.code, label).toBe(problemAt(place, status));
  const error = answer.body.errors?.find((e: Record<string, string>) => ('pointer' in place.at ? e.pointer === place.at.pointer : e.parameter === place.at.parameter));
  expect(error, label).toMatchObject({ ...fieldOf(place.at), code: fieldCode });
  if (detail) expect(error.detail, label).toMatch(detail);
}

describe('one rule per field, the same at every endpoint', () => {
  it('a currency: malformed is 400 invalid_format, well-formed but not the service\'s is 422 unknown_currency, nothing written', async () => {
    const before = await written();
    for (const value of ['eur', 'EU', 'EURO', 'E1R', '€', ' EUR']) {
      for (const place of [...currencyPlaces, ...limitPlaces(value)]) {
        await expectRefused(place, value, 400, 'invalid_format', / must be an ISO 4217 code in capitals, such as EUR\.$/);
      }
    }
    for (const value of ['XXQ', 'ZZZ', 'ABC']) {
      for (const place of [...currencyPlaces, ...limitPlaces(value)]) {
        await expectRefused(place, value, 422, 'unknown_currency', /^The service does not offer this currency/);
      }
    }
    expect(await written()).toEqual(before);
  });

  it('a country: malformed is 400 invalid_format, a code not assigned to a country is 422 unknown_country, nothing written', async () => {
    const before = await written();
    for (const value of ['mt', 'M', 'MLT', 'M1']) {
      for (const place of countryPlaces) await expectRefused(place, value, 400, 'invalid_format', / must be an ISO 3166-1 alpha-2 code in capitals/);
    }
    for (const value of ['ZZ', 'XK', 'AA', 'QM', 'EU', 'UK']) {
      for (const place of countryPlaces) await expectRefused(place, value, 422, 'unknown_country', /^Not an ISO 3166-1 alpha-2 code assigned/);
    }
    expect(await written()).toEqual(before);
  });

  it('a player id (and every id the operator chooses): white space at either end, control, format, private-use, separator and other invisible characters are 400 invalid_format, nothing written', async () => {
    const rule = ruleOfSchema('OperatorId');
    const before = await written();
    const bad = [
      '', ' player-1', 'player-1 ', '\tplayer-1', 'player-1\u00a0', '\u3000player-1', 'player\u0000-1', 'player\u007f-1', 'player\n1',
      'play\u200ber-1', 'play\u200cer-1', 'play\u200der-1', 'player\u2060-1', '\ufeffplayer-1', 'play\u00ader-1',
      'player-\u202e1', 'player-\u202a1', 'player-\u20661', 'player-\u200f1', 'player-\u061c1',
      'player\u2028-1', 'player\u2029-1', 'player-\ue0001', 'player-\u{F0000}', 'player-\u{E0001}', 'player-1\u{E007F}',
      'player\u3164', 'player\u115f', 'player-1\ufe0f', 'player\u034f-1', 'p'.repeat(129), ' ',
    ];
    for (const value of bad) {
      // An empty path segment is another URL (404), not an empty id.
      for (const place of playerIdPlaces.filter((p) => value !== '' || !p.name.includes('{player_id}'))) await expectRefused(place, value, 400, 'invalid_format', new RegExp(`${rule.replace(/[().]/g, '\\$&')}\\.$`));
    }
    expect(await written()).toEqual(before);
  });

  it('accepts the ids the rule allows: inner spaces, any script, emoji, 128 characters', async () => {
    for (const value of ['Jöns Ågren', '玩家-1', 'игрок_7', '🎰7', 'a@b.example', 'p'.repeat(128)]) {
      const made = await call('POST', '/sandbox/players', { player_id: value, currency: 'EUR', balance: '1' });
      expect(made, value).toMatchObject({ status: 200, body: { player_id: value } });
      const read = await call('GET', `/sandbox/players/${encodeURIComponent(value)}`);
      expect(read, value).toMatchObject({ status: 200, body: { data: [{ player_id: value }] } });
      expect((await call('GET', `/sessions?player_id=${encodeURIComponent(value)}`)).status, value).toBe(200);
    }
  });

  it('an amount: a decimal string of up to 16 and 4 digits, else 400 invalid_format or invalid_type at every endpoint', async () => {
    const before = await written();
    const places: Place[] = [
      body('', 'POST', '/sandbox/players', (v) => ({ player_id: 'rules-player', currency: 'EUR', balance: JSON.parse(v) }), '#/balance'),
      body('', 'PUT', '/players/rules-player/restrictions', (v) => ({ stake_limits: { EUR: JSON.parse(v) } }), '#/stake_limits/EUR'),
      body('', 'PUT', '/players/rules-player/restrictions', (v) => ({ loss_limits: { EUR: { week: JSON.parse(v) } } }), '#/loss_limits/EUR/week'),
      body('', 'POST', '/free-rounds/campaigns', (v) => campaign({ bet_amount: JSON.parse(v) }), '#/bet_amount'),
      body('', 'POST', '/free-rounds/campaigns', (v) => campaign({ max_win: JSON.parse(v) }), '#/max_win'),
    ];
    for (const value of ['"1.23456"', '"-1"', '"1e3"', '"01"', '"1."', '"12345678901234567"', '" 1"']) {
      for (const place of places) await expectRefused(place, value, 400, 'invalid_format');
    }
    for (const place of places) await expectRefused(place, '10', 400, 'invalid_type');
    expect(await written()).toEqual(before);
  });

  it('a URL the platform calls: malformed is 400 invalid_format wherever it is set', async () => {
    const before = await written();
    const places: Place[] = [
      body('', 'PUT', '/wallet-settings', (v) => ({ mode: 'seamless', url: v }), '#/url'),
      body('', 'POST', '/webhook-endpoints', (v) => ({ url: v }), '#/url'),
      { ...body('', 'PATCH', '/webhook-endpoints/{id}', (v) => ({ url: v }), '#/url'), path: () => `/webhook-endpoints/${randomUUID()}` },
    ];
    for (const value of ['ftp://operator.example/', 'https://operator.example/a b', 'operator.example', `https://operator.example/${'a'.repeat(2040)}`]) {
      for (const place of places) await expectRefused(place, value, 400, 'invalid_format', /must be an http\(s\) URL of at most 2048 characters/);
    }
    expect(await written()).toEqual(before);
  });

  it('a date-time: RFC 3339 with its offset, else 400 invalid_format in a body or a query', async () => {
    const before = await written();
    const places: Place[] = [
      body('', 'PUT', '/players/rules-player/restrictions', (v) => ({ cool_off_until: v }), '#/cool_off_until'),
      body('', 'POST', '/free-rounds/campaigns', (v) => campaign({ valid_until: v }), '#/valid_until'),
      query('GET', '/games', 'updated_since'),
      query('GET', '/transactions', 'created_after'),
      query('GET', '/rounds', 'opened_before'),
    ];
    for (const value of ['2026-02-30T00:00:00Z', '2026-12-01', '2026-12-01T00:00:00', '2026-12-01 00:00:00Z']) {
      for (const place of places) await expectRefused(place, value, 400, 'invalid_format');
    }
    expect(await written()).toEqual(before);
  });
});

describe('the database refuses what the API does', () => {
  it('stores no country that is not assigned: a session, a game\'s restricted countries, a jurisdiction\'s', async () => {
    const [game] = await sql`select g.id, g.provider_id from public.game g join public.game_provider p on p.id = g.provider_id where p.slug = 'cgs-sandbox' limit 1`;
    await expect(sql`update public.game set restricted_countries = '{MT,ZZ}' where id = ${game.id}`).rejects.toThrow(/ZZ/);
    await expect(sql`update public.jurisdiction set blocked_countries = '{XK}' where code = 'MT'`).rejects.toThrow(/XK/);
    await expect(sql`update public.jurisdiction set countries = '{QM}' where code = 'MT'`).rejects.toThrow(/QM/);
    await expect(sql`
      insert into public.game_session (client_id, livemode, player_id, provider_id, game, currency_code, country, created_at, expires_at)
      values (${operator.account.id}, false, 'p', ${game.provider_id}, 'lucky-sevens', 'EUR', 'ZZ', now(), now() + interval '1 hour')`)
      .rejects.toThrow(/game_session_country_fkey/);
    const [{ n }] = await sql`select count(*)::int as n from private.country`;
    expect(n).toBe(249);
  });

  it('stores no limit in a currency the service does not have', async () => {
    await expect(sql`
      insert into public.player_restriction (client_id, livemode, player_id, stake_limits)
      values (${operator.account.id}, false, 'p', '{"XXQ": "1.0000"}')`).rejects.toThrow(/XXQ/);
  });
});
