// POST /v3/sessions under a client's licences, in-process against the test database: the
// jurisdiction named (required once the client holds any, one it holds), the game certified there,
// the player's country covered and not blocked, KYC verified where required (403), and the
// jurisdiction's rules, the KYC status and the reality-check interval carried in the launch token.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectResponseMatches } from '../openapi/contract.ts';
import { connect } from '../helpers/db.ts';
import { newOperator, type Operator, sessionRequest, sessionsHandler, writesBy } from '../helpers/api.ts';

const sql = connect();
const { handle } = await sessionsHandler();
let licensed: Operator;
let unlicensed: Operator;
const slug = `certified-${randomUUID().slice(0, 8)}`;
const body = (fields: object = {}) => ({ player_id: 'p-1', game_id: `${slug}:everywhere`, currency: 'EUR', ...fields });

beforeAll(async () => {
  [licensed, unlicensed] = [await newOperator(sql, 'licensed'), await newOperator(sql, 'unlicensed')];
  await sql`insert into public.client_jurisdiction (client_id, jurisdiction_code)
            values (${licensed.account.id}, 'GB'), (${licensed.account.id}, 'MT'), (${licensed.account.id}, 'CW')`;
  await sql`insert into public.game_provider (name, slug, sort_order, jurisdictions) values ('Certified', ${slug}, 60, '{GB,MT,CW}')`;
  await sql`select * from public.import_games(${sql.json([
    { game_id: `${slug}:everywhere`, name: 'Everywhere', category: 'slots' },
    { game_id: `${slug}:malta-only`, name: 'Malta only', category: 'slots' },
  ])})`;
  await sql`update public.game set jurisdictions = '{MT}' where code = 'malta-only'
            and provider_id = (select id from public.game_provider where slug = ${slug})`;
});

async function create(fields: object, operator = licensed) {
  const response = await handle(sessionRequest(body(fields), { key: operator.key }));
  const json = await response.json();
  expectResponseMatches('createSession', response, json);
  return { status: response.status, body: json };
}
const reasons = (answer: { body: { errors?: { code: string }[] } }) => answer.body.errors?.map((e) => e.code);
const claimsOf = (launchUrl: string) =>
  JSON.parse(Buffer.from(new URL(launchUrl).searchParams.get('token')!.split('.')[1], 'base64url').toString());

describe('sessions under a licence', () => {
  it('needs the jurisdiction named once the client holds a licence, and one it holds', async () => {
    expect(reasons(await create({ country: 'GB', kyc_status: 'verified' }))).toEqual(['jurisdiction_required']);
    expect(reasons(await create({ jurisdiction: 'SE', country: 'SE', kyc_status: 'verified' }))).toEqual(['jurisdiction_not_held']);
    expect(reasons(await create({ jurisdiction: 'GB' }, unlicensed))).toEqual(['jurisdiction_not_held']);
    // A client holding none plays under no jurisdiction.
    expect((await create({}, unlicensed)).status).toBe(201);
  });

  it('refuses a game not certified there, and a country the licence does not cover or blocks', async () => {
    const before = await writesBy(sql, licensed.account);
    expect(reasons(await create({ game_id: `${slug}:malta-only`, jurisdiction: 'GB', country: 'GB', kyc_status: 'verified' })))
      .toEqual(['game_not_certified']);
    expect(reasons(await create({ jurisdiction: 'GB', kyc_status: 'verified' }))).toEqual(['country_required']);
    expect(reasons(await create({ jurisdiction: 'GB', country: 'FR', kyc_status: 'verified' }))).toEqual(['country_restricted']);
    expect(reasons(await create({ jurisdiction: 'MT', country: 'US', kyc_status: 'verified' }))).toEqual(['country_restricted']);
    expect(await writesBy(sql, licensed.account)).toEqual(before);
  });

  it('refuses a player not KYC-verified where the jurisdiction requires it, with 403 and nothing written', async () => {
    const before = await writesBy(sql, licensed.account);
    for (const kyc_status of [undefined, 'unverified', 'pending', 'rejected']) {
      expect(await create({ jurisdiction: 'GB', country: 'GB', kyc_status })).toMatchObject({
        status: 403, body: { code: 'kyc_required', retryable: false },
      });
    }
    const refusals = await sql`select detail->>'reason' as reason from public.player_restriction_audit
      where client_id = ${licensed.account.id} and action = 'session_refused'`;
    expect(refusals.map((row) => row.reason)).toEqual(['kyc_required', 'kyc_required', 'kyc_required', 'kyc_required']);
    // A wrong request is told so before the player is refused.
    expect(await create({ jurisdiction: 'GB', country: 'FR' })).toMatchObject({ status: 422 });
    expect(await writesBy(sql, licensed.account)).toEqual(before);
    expect(await create({ jurisdiction: 'CW', country: 'MT' })).toMatchObject({ status: 201 });
  });

  it('carries the jurisdiction\'s rules, the KYC status and the reality-check interval in the token, on reads too', async () => {
    const created = await create({ jurisdiction: 'GB', country: 'GB', kyc_status: 'verified' });
    expect(created).toMatchObject({ status: 201, body: { jurisdiction: 'GB', kyc_status: 'verified', reality_check_minutes: 60 } });
    const rules = {
      autoplay_allowed: false, turbo_allowed: false, bonus_buy_allowed: false, min_round_ms: 2500, show_net_position: true,
      show_session_time: true, max_stake: '5.0000', max_stake_currency: 'GBP', reality_check_minutes: 60,
    };
    expect(claimsOf(created.body.launch_url)).toMatchObject({ jurisdiction: 'GB', rules, kyc_status: 'verified', reality_check_minutes: 60 });
    const read = await handle(new Request(`http://api.test/v3/sessions/${created.body.id}`, { headers: { authorization: `Bearer ${licensed.key}` } }));
    const again = await read.json();
    expect(again).toMatchObject({ jurisdiction: 'GB', kyc_status: 'verified', reality_check_minutes: 60 });
    expect(claimsOf(again.launch_url)).toMatchObject({ jurisdiction: 'GB', rules });
    const own = await create({ jurisdiction: 'MT', country: 'MT', kyc_status: 'verified', reality_check_minutes: 30 });
    expect(claimsOf(own.body.launch_url)).toMatchObject({ jurisdiction: 'MT', reality_check_minutes: 30, rules: { autoplay_allowed: true } });
    const [stored] = await sql`select jurisdiction, kyc_status, reality_check_minutes from public.game_session where id = ${own.body.id}`;
    expect(stored).toEqual({ jurisdiction: 'MT', kyc_status: 'verified', reality_check_minutes: 30 });
  });
});
