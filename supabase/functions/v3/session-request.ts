// What POST /v3/sessions accepts (spec 4.1): the body's three required fields and the optional
// country, checked all at once so the caller learns every failing field in one response, and the
// optional Idempotency-Key header.
import { type FieldError, pointerTo, Problem } from '../_shared/problem.ts';
import { sha256Hex } from '../_shared/sha256.ts';

export interface SessionRequest {
  player_id: string;
  game_id: string;
  currency: string;
  /** ISO 3166-1 alpha-2: a game restricted there is refused. */
  country?: string;
}

export interface ParsedSessionRequest extends Omit<SessionRequest, 'country'> {
  provider: string;
  game: string;
  country: string | null;
}

const PLAYER_ID_MAX = 128;
// Same rules as game_provider.slug and game_session.game; the game id ends up in a launch URL.
export const GAME_ID = /^([a-z0-9][a-z0-9-]{0,63}):([A-Za-z0-9][A-Za-z0-9._~-]{0,127})$/;
const CURRENCY = /^[A-Z]{3}$/;
const COUNTRY = /^[A-Z]{2}$/;
// Control characters and lone surrogates: Postgres text cannot hold NUL or broken UTF-16.
export const UNPRINTABLE = /[\p{Cc}\p{Cs}]/u;

type Check = (value: string) => string | undefined;

const fields: Record<Exclude<keyof SessionRequest, 'country'>, Check> = {
  player_id: (value) => {
    const length = [...value].length;
    if (length === 0 || length > PLAYER_ID_MAX || value.trim() === '') {
      return `must be 1 to ${PLAYER_ID_MAX} characters, not only spaces`;
    }
    if (UNPRINTABLE.test(value)) return 'must not contain control characters';
  },
  game_id: (value) => (GAME_ID.test(value) ? undefined : 'must be `<provider>:<game>`, e.g. `pragmatic-play:vs20olympgate`'),
  currency: (value) => (CURRENCY.test(value) ? undefined : 'must be a three-letter ISO 4217 code in capitals, e.g. `EUR`'),
};
const optionalFields: Record<'country', Check> = {
  country: (value) => (COUNTRY.test(value) ? undefined : 'must be a two-letter ISO 3166-1 code in capitals, e.g. `MT`'),
};

/** The validated request; 400 `validation_failed` listing every failing field otherwise. */
export function parseSessionRequest(body: unknown): ParsedSessionRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw invalid([{ pointer: '#', code: 'invalid_type', detail: 'The body must be a JSON object.' }]);
  }
  const input = body as Record<string, unknown>;
  const errors: FieldError[] = [];
  const check = (name: string, rule: Check, required: boolean) => {
    const value = input[name];
    const pointer = pointerTo(name);
    if (!Object.hasOwn(input, name)) {
      if (required) errors.push({ pointer, code: 'required', detail: `${name} is required.` });
    } else if (typeof value !== 'string') errors.push({ pointer, code: 'invalid_type', detail: `${name} must be a string.` });
    else {
      const problem = rule(value);
      if (problem) errors.push({ pointer, code: 'invalid_format', detail: `${name} ${problem}.` });
    }
  };
  for (const [name, rule] of Object.entries(fields)) check(name, rule, true);
  for (const [name, rule] of Object.entries(optionalFields)) check(name, rule, false);
  for (const name of Object.keys(input)) {
    if (!Object.hasOwn(fields, name) && !Object.hasOwn(optionalFields, name)) {
      errors.push({ pointer: pointerTo(name), code: 'unknown_field', detail: 'This field is not accepted.' });
    }
  }
  if (errors.length) throw invalid(errors);
  const request = input as unknown as SessionRequest;
  const [, provider, game] = GAME_ID.exec(request.game_id)!;
  return {
    player_id: request.player_id, game_id: request.game_id, currency: request.currency, country: request.country ?? null,
    provider, game,
  };
}

function invalid(errors: FieldError[]): Problem {
  return new Problem('validation_failed', 'The request body has invalid fields; see `errors`.', { errors });
}

/** Identifies a request's meaning, so a retry can be told apart from a different request. */
export function requestFingerprint(request: Omit<SessionRequest, 'country'> & { country?: string | null }): string {
  const { player_id, game_id, currency, country } = request;
  // Without a country, the same fingerprint as before country existed: a retry across a deploy
  // still replays.
  return sha256Hex(JSON.stringify(country ? { player_id, game_id, currency, country } : { player_id, game_id, currency }));
}

/** Stripe's header: any visible ASCII, at most 255 characters; null when absent. */
export function readIdempotencyKey(headers: Headers): string | null {
  const key = headers.get('idempotency-key');
  if (key === null) return null;
  if (!/^[\x21-\x7e]{1,255}$/.test(key)) {
    throw new Problem('invalid_idempotency_key', 'Idempotency-Key must be 1 to 255 visible ASCII characters.');
  }
  return key;
}
