// The operator's API key from `Authorization: Bearer <key>`. Keys are issued by the database
// (public.issue_api_key); only their SHA-256 is stored, so a request is matched by hash.
import { Problem } from './problem.ts';
import { sha256Hex } from './sha256.ts';

const KEY_FORMAT = /^cgs_live_[A-Za-z0-9_-]{43}$/;
const CHALLENGE = 'Bearer realm="cgs"';

/** The hash of the presented key; 401 when there is none or it cannot be one of ours. */
export function apiKeyHash(headers: Headers): Promise<string> {
  const match = /^Bearer +(\S+) *$/i.exec(headers.get('authorization') ?? '');
  if (!match) {
    throw new Problem('missing_api_key', 'Send your API key as `Authorization: Bearer <key>`.', {
      headers: { 'www-authenticate': CHALLENGE },
    });
  }
  if (!KEY_FORMAT.test(match[1])) throw invalidApiKey();
  return sha256Hex(match[1]);
}

/** Unknown, revoked and suspended keys look the same to the caller. */
export function invalidApiKey(): Problem {
  return new Problem('invalid_api_key', 'The API key is unknown, revoked or suspended.', {
    headers: { 'www-authenticate': `${CHALLENGE}, error="invalid_token"` },
  });
}
