// The operator's API key from `Authorization: Bearer <key>`. Keys are issued by the database
// (public.issue_api_key); only their SHA-256 is stored, so a request is matched by hash.
//
// Timing: the key is hashed here, before any lookup, and the database only ever compares hashes
// (an index probe on api_key.key_hash). An attacker choosing keys cannot choose their hashes, so
// however the comparison's duration varies, it says nothing about how close a guess is to a real
// key. No key is ever compared in this process. Unknown, revoked and suspended keys take the same
// path (one lookup that finds no active row) and get the same answer.
import type { Sql } from '../_shared/database.ts';
import { Problem } from './problem.ts';
import { sha256Hex } from './sha256.ts';

const KEY_FORMAT = /^cgs_(live|test)_[A-Za-z0-9_-]{43}$/;
const PROVIDER_KEY_FORMAT = /^cgs_prov_[A-Za-z0-9_-]{43}$/;
const CHALLENGE = 'Bearer realm="cgs"';

export interface PresentedKey {
  hash: string;
  /** What the key says of itself (`cgs_live_` or `cgs_test_`); the database holds it to that. */
  livemode: boolean;
}

/** The hash of the presented key; 401 when there is none or it cannot be one of ours. */
export function apiKeyHash(headers: Headers): string {
  return presentedKey(headers).hash;
}

function bearer(headers: Headers): string {
  const match = /^Bearer +(\S+) *$/i.exec(headers.get('authorization') ?? '');
  if (!match) {
    throw new Problem('missing_api_key', 'Send your API key as `Authorization: Bearer <key>`.', {
      headers: { 'www-authenticate': CHALLENGE },
    });
  }
  return match[1];
}

/** The presented key's hash and mode; 401 when there is none or it cannot be one of ours. */
export function presentedKey(headers: Headers): PresentedKey {
  const key = bearer(headers);
  const format = KEY_FORMAT.exec(key);
  if (!format) throw invalidApiKey();
  return { hash: sha256Hex(key), livemode: format[1] === 'live' };
}

/** A game provider's key (`cgs_prov_`), hashed; 401 when there is none or it cannot be one. */
export function providerKeyHash(headers: Headers): string {
  const key = bearer(headers);
  if (!PROVIDER_KEY_FORMAT.test(key)) throw invalidProviderKey();
  return sha256Hex(key);
}

export function invalidProviderKey(): Problem {
  return new Problem('invalid_provider_key', 'The provider key is unknown or revoked.', {
    headers: { 'www-authenticate': `${CHALLENGE}, error="invalid_token"` },
  });
}

/** Unknown, revoked and suspended keys look the same to the caller. */
export function invalidApiKey(): Problem {
  return new Problem('invalid_api_key', 'The API key is unknown, revoked or suspended.', {
    headers: { 'www-authenticate': `${CHALLENGE}, error="invalid_token"` },
  });
}

/**
 * Runs `check` (validation that needs no database); if it rejects the request, makes sure the key
 * authenticates first, so a caller without a valid key gets 401 and learns nothing about the rules.
 * Valid requests skip the lookup: the endpoint's single database call checks the key itself.
 */
export async function authenticatedRejection<T>(
  sql: Sql,
  keyHash: string,
  check: () => T | Promise<T>,
  caller: 'operator' | 'provider' = 'operator',
): Promise<T> {
  try {
    return await check();
  } catch (error) {
    if (error instanceof Problem) {
      const [key] = caller === 'operator'
        ? await sql`select key_id from private.authenticate_api_key(${keyHash})`
        : await sql`select key_id from private.authenticate_provider_key(${keyHash})`;
      if (!key) throw caller === 'operator' ? invalidApiKey() : invalidProviderKey();
    }
    throw error;
  }
}
