// The document drives the validation (supabase/functions/v3/contract.ts): every operation's query,
// path and header parameters and its body are checked against their schemas in the document, with
// the error codes the API promises.
import { describe, expect, it } from 'vitest';
import {
  bodyContract,
  type Path,
  parameterContract,
  queryContract,
  schemaContract,
} from '../../supabase/functions/v3/contract.ts';
import { Problem } from '../../supabase/functions/v3/problem.ts';
import { document } from './contract.ts';

const url = (query: string) => new URL(`http://api.test/v3/x?${query}`);
const games = queryContract('/v3/games');
const sessions = queryContract('/v3/sessions');
const sessionBody = bodyContract('/v3/sessions');

function problemOf(fn: () => unknown): Problem {
  try {
    fn();
  } catch (error) {
    if (error instanceof Problem) return error;
    throw error;
  }
  throw new Error('expected a problem');
}

describe('query parameters from the document', () => {
  it('has a checker for every GET operation of the document', () => {
    const gets = Object.entries(document.paths as Record<string, Record<string, unknown>>).filter(([, item]) => item.get);
    expect(gets.length).toBeGreaterThan(8);
    for (const [path] of gets) expect(() => queryContract(path as Path)).not.toThrow();
  });

  it('reads integers as numbers and fills the declared defaults', () => {
    expect(games(url('')).values).toEqual({ limit: 50 });
    expect(games(url('limit=7&provider=spribe')).values).toEqual({ limit: 7, provider: 'spribe' });
    expect(games(url('limit=7')).errors).toEqual([]);
  });

  it('names every failing parameter once, with its code and what the schema asks', () => {
    const { errors } = games(url('limit=0&category=poker&currency=eur&currency=usd&sort=name&updated_since=2026-02-30T00:00:00Z&cursor=!'));
    expect(errors.map((e) => [('parameter' in e) && e.parameter, e.code])).toEqual([
      ['limit', 'invalid_format'], ['category', 'invalid_format'], ['currency', 'repeated'], ['sort', 'unknown_parameter'],
      ['updated_since', 'invalid_format'], ['cursor', 'invalid_format'],
    ]);
    expect(errors[0].detail).toBe('limit must be at least 1.');
    expect(errors[1].detail).toMatch(/^category must be one of slots, live_casino, /);
    expect(games(url('limit=ten')).errors[0].detail).toBe('limit must be an integer.');
  });

  it('holds date-times to the document\'s DateTime: an offset, years 0001 to 9999, offsets within 14 hours, microseconds', () => {
    const isDateTime = schemaContract('DateTime');
    for (const good of ['2026-01-31T00:00:00Z', '2024-02-29T23:59:59.123456+14:00', '0001-01-01T00:00:00-00:30']) {
      expect(isDateTime(good), good).toBe(true);
      expect(games(url(`updated_since=${encodeURIComponent(good)}`)).errors, good).toEqual([]);
    }
    for (const bad of [
      '2026-01-31T00:00:00', '2026-01-31t00:00:00z', '2026-01-31 00:00:00Z', '0000-01-01T00:00:00Z', '2026-01-31T00:00:00+15:00',
      '2026-02-30T00:00:00Z', '2026-01-31T24:00:00Z', '2026-01-31T00:00:00.1234567Z', '2026-1-31T00:00:00Z',
    ]) {
      expect(isDateTime(bad), bad).toBe(false);
    }
  });

  it('refuses control characters in a player_id filter, as the body refuses them in a player_id', () => {
    expect(sessions(url('player_id=a%01b')).errors).toMatchObject([{ parameter: 'player_id', code: 'invalid_format' }]);
    expect(sessions(url(`player_id=${'é'.repeat(128)}`)).errors).toEqual([]);
    expect(sessions(url(`player_id=${'é'.repeat(129)}`)).errors).toMatchObject([{ parameter: 'player_id' }]);
  });
});

describe('path and header parameters from the document', () => {
  it('checks game ids, session ids and Idempotency-Keys by their schemas', () => {
    const gameId = parameterContract('/v3/games/{game_id}', 'get', 'path', 'game_id');
    expect(gameId('pragmatic-play:vs20olympgate')).toBe(true);
    expect(gameId('Pragmatic:x')).toBe(false);
    const sessionId = parameterContract('/v3/sessions/{id}', 'get', 'path', 'id');
    expect(sessionId('0B6B7A8E-3C1F-4D2A-9E57-5F7C1D2A4B90')).toBe(true);
    expect(sessionId('urn:uuid:0b6b7a8e-3c1f-4d2a-9e57-5f7c1d2a4b90')).toBe(false);
    const key = parameterContract('/v3/sessions', 'post', 'header', 'Idempotency-Key');
    expect(key('order-123')).toBe(true);
    expect(key('with space')).toBe(false);
    expect(key('x'.repeat(256))).toBe(false);
  });

  it('refuses to check a parameter the document does not declare', () => {
    expect(() => parameterContract('/v3/games/{game_id}', 'get', 'header', 'X-Nothing')).toThrow('declares no header parameter');
  });
});

describe('request bodies from the document', () => {
  it('lists each missing, mistyped, malformed and unknown field by its JSON Pointer', () => {
    const problem = problemOf(() => sessionBody({ player_id: 7, currency: 'eur', 'a/b': 1, country: 'MT' }));
    expect(problem.code).toBe('validation_failed');
    expect(problem.extras.errors).toEqual([
      { pointer: '#/game_id', code: 'required', detail: 'game_id is required.' },
      { pointer: '#/player_id', code: 'invalid_type', detail: 'player_id must be a string.' },
      { pointer: '#/currency', code: 'invalid_format', detail: 'currency must be an ISO 4217 code in capitals, such as EUR.' },
      { pointer: '#/a~1b', code: 'unknown_field', detail: 'This field is not accepted.' },
    ]);
  });

  it('refuses a body that is not an object, and one of only spaces for player_id', () => {
    expect(problemOf(() => sessionBody([])).extras.errors).toEqual([
      { pointer: '#', code: 'invalid_type', detail: 'The body must be an object.' },
    ]);
    expect(problemOf(() => sessionBody({ player_id: '  ', game_id: 'a:b', currency: 'EUR' })).extras.errors)
      .toMatchObject([{ pointer: '#/player_id', code: 'invalid_format' }]);
  });

  it('returns a valid body as it came', () => {
    const body = { player_id: 'p', game_id: 'a:b', currency: 'EUR', country: 'MT' };
    expect(sessionBody(body)).toBe(body);
  });
});
