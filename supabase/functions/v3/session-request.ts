// What POST /v3/sessions accepts (spec 4.1): the body and the optional Idempotency-Key header, as
// the OpenAPI document declares them (contract.ts), every failing field reported in one response.
import { Problem } from '../_shared/problem.ts';
import { sha256Hex } from '../_shared/sha256.ts';
import { type BodyOf, bodyContract, parameterContract } from './contract.ts';

export type SessionRequest = BodyOf<'/v3/sessions'>;

export interface ParsedSessionRequest extends Omit<SessionRequest, 'country'> {
  provider: string;
  game: string;
  country: string | null;
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
  const { player_id, game_id, currency, country } = sessionRequest(body);
  const [provider, game] = splitGameId(game_id);
  return { player_id, game_id, currency, country: country ?? null, provider, game };
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
  if (!isIdempotencyKey(key)) {
    throw new Problem('invalid_idempotency_key', 'Idempotency-Key must be 1 to 255 visible ASCII characters.');
  }
  return key;
}
