// Property: whatever body and headers a caller throws at POST /v3/sessions, the answer is never a
// 500, and nothing is written unless a session was created (201, not replayed).
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { Problem } from '../../supabase/functions/v3/problem.ts';
import { type ParsedSessionRequest, parseSessionRequest } from '../../supabase/functions/v3/session-request.ts';
import { connect } from '../helpers/db.ts';
import { newOperator, type Operator, revokedKey as revokedKeyOf, sessionsHandler, SESSIONS_URL, validBody, writesBy } from '../helpers/api.ts';

const sql = connect();
let handle: (request: Request) => Promise<Response>;
let alice: Operator;
let revokedKey: string;

beforeAll(async () => {
  ({ handle } = await sessionsHandler());
  alice = await newOperator(sql, 'alice');
  revokedKey = await revokedKeyOf(sql, alice.account);
});

const text = fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary' }));
const plausible = fc.record(
  {
    player_id: fc.oneof({ arbitrary: fc.constantFrom('player-1', ' player 1 ', ' '), weight: 3 }, text, fc.jsonValue()),
    game_id: fc.oneof(
      text,
      { arbitrary: fc.constantFrom(validBody.game_id, 'evolution:crazy-time', 'nope:x', 'spribe:'), weight: 3 },
      fc.tuple(fc.stringMatching(/^[a-z0-9-]{1,8}$/), fc.stringMatching(/^[A-Za-z0-9._~-]{1,8}$/)).map(([p, g]) => `${p}:${g}`),
    ),
    currency: fc.oneof({ arbitrary: fc.constantFrom('EUR', 'USD', 'XXX', 'eur', 'EURO', ''), weight: 3 }, text, fc.integer()),
    country: fc.oneof({ arbitrary: fc.constantFrom('MT', 'GB', 'mt', 'GBR', ''), weight: 3 }, text, fc.jsonValue()),
    // Mostly valid, so that requests with several of them are accepted often enough too.
    jurisdiction: fc.oneof({ arbitrary: fc.constantFrom('MT', 'ON', 'CA-ON'), weight: 8 }, fc.constantFrom('gb', 'GBR', ''), text),
    kyc_status: fc.oneof({ arbitrary: fc.constantFrom('verified', 'pending'), weight: 8 }, fc.constantFrom('Verified', ''), fc.jsonValue()),
    reality_check_minutes: fc.oneof({ arbitrary: fc.constantFrom(1, 60, 1440), weight: 8 }, fc.constantFrom(0, 1441, 2.5, '60'), fc.jsonValue()),
    extra: fc.jsonValue(),
  },
  { requiredKeys: ['player_id', 'game_id', 'currency'] },
).map(({ extra, ...fields }) => (extra === undefined ? fields : { ...fields, extra }));
const valid = fc.record({
  player_id: fc.stringMatching(/^[A-Za-z0-9_-]{1,24}$/),
  game_id: fc.constantFrom(validBody.game_id, 'evolution:crazy-time', 'spribe:aviator'),
  currency: fc.constantFrom('EUR', 'USD', 'GBP'),
});
const body = fc.oneof(
  { arbitrary: valid.map((value) => JSON.stringify(value)), weight: 4 },
  { arbitrary: plausible.map((value) => JSON.stringify(value)), weight: 6 },
  fc.jsonValue().map((value) => JSON.stringify(value)),
  text,
  fc.uint8Array({ maxLength: 64 }),
  fc.constant(JSON.stringify({ ...validBody, player_id: 'x'.repeat(20_000) })),
);
const header = fc.option(fc.string({ maxLength: 40 }), { nil: undefined });
const headers = fc.record({
  'content-type': fc.oneof(
    { arbitrary: fc.constantFrom('application/json', 'application/json; charset=utf-8'), weight: 6 }, fc.constant('text/plain'), header,
  ),
  authorization: fc.oneof(
    { arbitrary: fc.constant('valid'), weight: 6 }, fc.constant('revoked'), header, fc.stringMatching(/^[A-Za-z0-9_-]{43}$/).map((r) => `Bearer cgs_live_${r}`),
  ),
  'idempotency-key': fc.oneof(header, fc.constantFrom('k1', 'k2')),
  'content-length': fc.option(fc.nat({ max: 20_000 }).map(String), { nil: undefined, freq: 2 }),
});
const method = fc.oneof({ arbitrary: fc.constant('POST'), weight: 8 }, fc.constantFrom('GET', 'PUT', 'DELETE', 'PATCH'));

function requestOf(verb: string, payload: string | Uint8Array, fields: Record<string, string | undefined>): Request | null {
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    values[name] = value === 'valid' ? `Bearer ${alice.key}` : value === 'revoked' ? `Bearer ${revokedKey}` : value;
  }
  try {
    return new Request(SESSIONS_URL, { method: verb, headers: values, body: verb === 'GET' ? undefined : (payload as BodyInit) });
  } catch {
    return null; // not a request an HTTP client could send (e.g. a header with a line break)
  }
}

/** The parser's answer, outside any try block that would also catch a failed assertion. */
function parsed(value: unknown): { request: ParsedSessionRequest } | { error: unknown } {
  try {
    return { request: parseSessionRequest(value) };
  } catch (error) {
    return { error };
  }
}

/**
 * SessionRequest as openapi.json documents it, written out independently of the parser: an object
 * with exactly player_id (1 to 128 characters, no white space at either end, nothing invisible), game_id
 * (`<provider slug>:<game>`) and currency (three capitals), and optionally country (two capitals).
 */
function followsDocumentedRules(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const optional = ['country', 'jurisdiction', 'kyc_status', 'reality_check_minutes'];
  if (!['currency', 'game_id', 'player_id'].every((key) => Object.hasOwn(value, key))) return false;
  if (!Object.keys(value).every((key) => ['currency', 'game_id', 'player_id', ...optional].includes(key))) return false;
  const { player_id, game_id, currency, country, jurisdiction, kyc_status, reality_check_minutes } = value as Record<string, unknown>;
  if (Object.hasOwn(value, 'country') && !(typeof country === 'string' && /^[A-Z]{2}$/.test(country))) return false;
  if (Object.hasOwn(value, 'jurisdiction') && !(typeof jurisdiction === 'string' && /^[A-Z]{2}(-[A-Z0-9]{1,3})?$/.test(jurisdiction))) {
    return false;
  }
  if (Object.hasOwn(value, 'kyc_status') && !['unverified', 'pending', 'verified', 'rejected'].includes(kyc_status as string)) return false;
  if (Object.hasOwn(value, 'reality_check_minutes')
    && !(Number.isInteger(reality_check_minutes) && (reality_check_minutes as number) >= 1 && (reality_check_minutes as number) <= 1440)) {
    return false;
  }
  return typeof player_id === 'string' && [...player_id].length >= 1 && [...player_id].length <= 128
    // docs/validation.md: no white space at either end, nothing invisible (Unicode's own classes).
    && player_id.trim() === player_id && !/[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}]/u.test(player_id)
    && typeof game_id === 'string' && /^[a-z0-9][a-z0-9-]{0,63}:[A-Za-z0-9][A-Za-z0-9._~-]{0,127}$/.test(game_id)
    && typeof currency === 'string' && /^[A-Z]{3}$/.test(currency);
}

describe('POST /v3/sessions under arbitrary input', () => {
  it('never answers 500 and never writes for a rejected or replayed request', async () => {
    const seen = new Set<number>();
    await fc.assert(
      fc.asyncProperty(method, body, headers, async (verb, payload, fields) => {
        const request = requestOf(verb, payload, fields);
        fc.pre(request !== null);
        const before = await writesBy(sql, alice.account);
        const response = await handle(request!);
        seen.add(response.status);
        const after = await writesBy(sql, alice.account);
        expect(response.status).toBeLessThan(500);
        if (response.status === 201 && !response.headers.get('idempotent-replayed')) {
          expect(after.sessions).toBe(before.sessions + 1);
        } else {
          expect(after).toEqual(before);
        }
        if (response.status >= 400) expect(response.headers.get('content-type')).toBe('application/problem+json');
      }),
      { numRuns: 300 },
    );
    // The property is only worth something if it reached the database's decisions too.
    expect([...seen]).toEqual(expect.arrayContaining([201, 400, 401, 405, 413, 415, 422]));
  });

  it('accepts exactly the JSON values the documented rules allow, as their own fields; a 400 listing a field for the rest', () => {
    let [accepted, refused] = [0, 0];
    fc.assert(
      // Valid bodies among them, so both sides of the rule are reached in every run, not by luck.
      fc.property(fc.oneof(valid, plausible, fc.jsonValue()), (value) => {
        const outcome = parsed(value);
        if ('request' in outcome) {
          accepted += 1;
          expect(followsDocumentedRules(value), JSON.stringify(value)).toBe(true);
          const { player_id, game_id, currency, country, jurisdiction, kyc_status, reality_check_minutes } = value as Record<string, string>;
          const [provider, game] = game_id.split(':');
          expect(outcome.request).toStrictEqual({
            player_id, game_id, currency, country: country ?? null, provider, game, jurisdiction: jurisdiction ?? null,
            kyc_status: kyc_status ?? null, reality_check_minutes: reality_check_minutes ?? null,
          });
        } else {
          refused += 1;
          expect(followsDocumentedRules(value), JSON.stringify(value)).toBe(false);
          expect(outcome.error).toBeInstanceOf(Problem);
          expect((outcome.error as Problem).status).toBe(400);
          expect((outcome.error as Problem).extras.errors?.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 2_000 },
    );
    // Both sides of the rule were exercised, not only refusals.
    expect(Math.min(accepted, refused)).toBeGreaterThan(0);
  });
});
