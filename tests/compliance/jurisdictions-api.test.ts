// GET /v3/jurisdictions and /v3/jurisdictions/{code}, in-process against the test database: the
// shipped regimes with their rules, whether the caller holds each licence, 404 for a code that names
// none, 401 first; every answer as the OpenAPI document says.
import { beforeAll, describe, expect, it } from 'vitest';
import { expectResponseMatches } from '../openapi/contract.ts';
import { connect } from '../helpers/db.ts';
import { newOperator, type Operator, sessionsHandler } from '../helpers/api.ts';

const sql = connect();
const { handle } = await sessionsHandler();
let operator: Operator;

beforeAll(async () => {
  operator = await newOperator(sql, 'licensed');
  await sql`insert into public.client_jurisdiction (client_id, jurisdiction_code) values (${operator.account.id}, 'GB')`;
});

async function get(path: string, key: string | null = operator.key) {
  const response = await handle(new Request(`http://api.test/v3${path}`, { headers: key ? { authorization: `Bearer ${key}` } : {} }));
  const body = await response.json();
  expectResponseMatches(path.startsWith('/jurisdictions/') ? 'getJurisdiction' : 'listJurisdictions', response, body);
  return { status: response.status, body };
}

describe('GET /v3/jurisdictions', () => {
  it('lists every jurisdiction with its rules, and which licences the caller holds', async () => {
    const { status, body } = await get('/jurisdictions');
    expect(status).toBe(200);
    expect(body.data.map((j: { code: string }) => j.code)).toEqual(expect.arrayContaining(['CW', 'GB', 'MT', 'ON', 'SE']));
    expect(body.data.filter((j: { licensed: boolean }) => j.licensed).map((j: { code: string }) => j.code)).toEqual(['GB']);
    expect(await get('/jurisdictions?limit=2')).toMatchObject({ status: 200, body: { has_more: true, next_cursor: expect.any(String) } });
  });

  it('reads one with the rules the launch token carries', async () => {
    expect(await get('/jurisdictions/GB')).toEqual({
      status: 200,
      body: {
        code: 'GB', name: 'Great Britain', regulator: 'UK Gambling Commission', kyc_required: true, countries: ['GB'],
        blocked_countries: [], licensed: true, updated_at: expect.any(String),
        rules: {
          autoplay_allowed: false, turbo_allowed: false, bonus_buy_allowed: false, min_round_ms: 2500, show_net_position: true,
          show_session_time: true, max_stake: '5.0000', max_stake_currency: 'GBP', reality_check_minutes: 60,
        },
      },
    });
    expect((await get('/jurisdictions/CW')).body).toMatchObject({ kyc_required: false, licensed: false, rules: { max_stake: null } });
  });

  it('answers 404 for a code that names none, and 401 before anything without a working key', async () => {
    expect(await get('/jurisdictions/XX')).toMatchObject({ status: 404, body: { code: 'not_found' } });
    expect(await get('/jurisdictions/gb')).toMatchObject({ status: 404 });
    expect(await get('/jurisdictions/gb', null)).toMatchObject({ status: 401, body: { code: 'missing_api_key' } });
    expect(await get('/jurisdictions', 'cgs_live_nope')).toMatchObject({ status: 401 });
  });
});
