// What POST /v3/sessions accepts (spec 4.1): the body and the optional Idempotency-Key header, as
// the OpenAPI document declares them (contract.ts), every failing field reported in one response.
import { Problem } from './problem.ts';
import { sha256Hex } from './sha256.ts';
import { type BodyOf, bodyContract, parameterContract } from './contract.ts';

export type SessionRequest = BodyOf<'/v3/sessions'>;

export interface ParsedSessionRequest
  extends Omit<SessionRequest, 'country' | 'jurisdiction' | 'kyc_status' | 'reality_check_minutes'> {
  provider: string;
  game: string;
  country: string | null;
  jurisdiction: string | null;
  kyc_status: NonNullable<SessionRequest['kyc_status']> | null;
  reality_check_minutes: number | null;
}

const sessionRequest = bodyContract('/v3/sessions');
const isIdempotencyKey = parameterContract('/v3/sessions', 'post', 'header', 'Idempotency-Key');

/** `<provider slug>:<game code>`, valid by the contract, as its two parts (neither holds a colon). */
export function splitGameId(gameId: string): [provider: string, game: string] {
  const colon = gameId.indexOf(':');
  return [gameId.slice(0, colon), gameId.slice(colon + 1)];
}

/** The validated request; 400 `validation_failed` listing every failing field otherwise. */
export function parseSessionRequest(body: unknown): ParsedSessionRequest {
  const { player_id, game_id, currency, country, jurisdiction, kyc_status, reality_check_minutes } = sessionRequest(body);
  const [provider, game] = splitGameId(game_id);
  return {
    player_id, game_id, currency, country: country ?? null, provider, game, jurisdiction: jurisdiction ?? null,
    kyc_status: kyc_status ?? null, reality_check_minutes: reality_check_minutes ?? null,
  };
}

type Nullable<T> = { [K in keyof T]?: T[K] | null };

/** Identifies a request's meaning, so a retry can be told apart from a different request. */
export function requestFingerprint(request: Pick<SessionRequest, 'player_id' | 'game_id' | 'currency'> & Nullable<SessionRequest>): string {
  const { player_id, game_id, currency, country, jurisdiction, kyc_status, reality_check_minutes } = request;
  // Fields left out are left out of the fingerprint: a retry across a deploy that added one still
  // replays.
  const optional = Object.entries({ country, jurisdiction, kyc_status, reality_check_minutes }).filter(([, value]) => value != null);
  return sha256Hex(JSON.stringify({ player_id, game_id, currency, ...Object.fromEntries(optional) }));
}

/** Stripe's header: any visible ASCII, at most 255 characters; null when absent. */
export function readIdempotencyKey(headers: Headers): string | null {
  const key = headers.get('idempotency-key');
  if (key === null) return null;
  if (!isIdempotencyKey(key)) {
    throw new Problem('invalid_idempotency_key', 'Idempotency-Key must be 1 to 255 visible ASCII characters.');
  }
  return key;
}
