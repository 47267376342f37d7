// Who is calling: an operator's API key (`cgs_live_`, `cgs_test_`) or a game provider's key
// (`cgs_prov_`), from `Authorization: Bearer <key>`, read by Hono middleware that puts the caller on
// the context (`c.var.caller`), so a handler starts from it. Keys are issued by the database; only
// their SHA-256 is stored, so a request is matched by hash.
//
// One round trip per request: the middleware reads the key and checks its form only (none, or one
// that cannot be ours: 401 at once); the endpoint's single database call judges the key together
// with the request, and Caller.answer reads that verdict, the one place where an unknown key becomes
// 401. A refusal made before that call (a 400 for the body, a 404 for an id that cannot be one) goes
// only to a caller whose key works: the middleware looks the key up then, so a caller without one
// learns nothing about the rules. Valid requests skip that lookup.
//
// Timing: the key is hashed here, before any lookup, and the database only ever compares hashes
// (an index probe on api_key.key_hash). An attacker choosing keys cannot choose their hashes, so
// however the comparison's duration varies, it says nothing about how close a guess is to a real
// key. No key is ever compared in this process. Unknown, revoked and suspended keys take the same
// path (one lookup that finds no active row) and get the same answer.
import type { MiddlewareHandler } from 'hono';
import type { Sql } from '../_shared/database.ts';
import { Problem } from './problem.ts';
import { sha256Hex } from './sha256.ts';

const KEY_FORMAT = /^cgs_(live|test)_[A-Za-z0-9_-]{43}$/;
const PROVIDER_KEY_FORMAT = /^cgs_prov_[A-Za-z0-9_-]{43}$/;
const CHALLENGE = 'Bearer realm="cgs"';

/** The database's word for a key it does not know, by the kind of key. */
type Unknown = 'unauthorized' | 'invalid_provider_key';

/** What the database answers with its verdict on the key: a flag on every row, or an outcome. */
type Verdict = { authorized: boolean } | { outcome: string };

/** Rows the key was good for: an outcome is then never the database's word for an unknown key. */
export type Admitted<R> = R extends { outcome: infer O } ? Omit<R, 'outcome'> & { outcome: Exclude<O, Unknown> } : R;

export class Caller {
  #judged = false;

  constructor(
    readonly kind: 'operator' | 'provider',
    /** The presented key's SHA-256: what the database matches. */
    readonly keyHash: string,
    /** What an operator's key says of itself (`cgs_live_`); the database holds it to that. */
    readonly livemode: boolean,
  ) {}

  /** Whether the database has judged the key, so a refusal from here on needs no lookup. */
  get judged(): boolean {
    return this.#judged;
  }

  /**
   * The rows of the endpoint's one database call, which judges the key as it answers: 401 when it
   * knew no working key (no row, `authorized` false, or its outcome for an unknown key).
   */
  async answer<R extends Verdict>(call: PromiseLike<R[]>): Promise<Admitted<R>[]> {
    const rows = await call;
    this.#judged = true;
    const first: Verdict | undefined = rows[0];
    const known = first !== undefined && ('authorized' in first ? first.authorized : first.outcome !== unknownOutcome[this.kind]);
    if (!known) throw this.rejection();
    return rows as Admitted<R>[];
  }

  /** Unknown, revoked and suspended keys look the same to the caller. */
  rejection(): Problem {
    return this.kind === 'operator' ? invalidApiKey() : invalidProviderKey();
  }
}

const unknownOutcome: Record<Caller['kind'], Unknown> = { operator: 'unauthorized', provider: 'invalid_provider_key' };

/** What the key middleware puts on the context. */
export type CallerEnv = { Variables: { caller: Caller } };

function bearer(headers: Headers): string {
  const match = /^Bearer +(\S+) *$/i.exec(headers.get('authorization') ?? '');
  if (!match) {
    throw new Problem('missing_api_key', 'Send your API key as `Authorization: Bearer <key>`.', {
      headers: { 'www-authenticate': CHALLENGE },
    });
  }
  return match[1];
}

function invalidProviderKey(): Problem {
  return new Problem('invalid_provider_key', 'The provider key is unknown or revoked.', {
    headers: { 'www-authenticate': `${CHALLENGE}, error="invalid_token"` },
  });
}

function invalidApiKey(): Problem {
  return new Problem('invalid_api_key', 'The API key is unknown, revoked or suspended.', {
    headers: { 'www-authenticate': `${CHALLENGE}, error="invalid_token"` },
  });
}

/** The presented operator key; 401 when there is none or it cannot be one of ours. */
function operatorCaller(headers: Headers): Caller {
  const key = bearer(headers);
  const format = KEY_FORMAT.exec(key);
  if (!format) throw invalidApiKey();
  return new Caller('operator', sha256Hex(key), format[1] === 'live');
}

/** A game provider's key (`cgs_prov_`); 401 when there is none or it cannot be one. */
function providerCaller(headers: Headers): Caller {
  const key = bearer(headers);
  if (!PROVIDER_KEY_FORMAT.test(key)) throw invalidProviderKey();
  return new Caller('provider', sha256Hex(key), true);
}

/** Whether the database knows the key as a working one (active, its client not suspended). */
async function keyWorks(sql: Sql, caller: Caller): Promise<boolean> {
  const [key] = caller.kind === 'operator'
    ? await sql`select key_id from private.authenticate_api_key(${caller.keyHash})`
    : await sql`select key_id from private.authenticate_provider_key(${caller.keyHash})`;
  return key !== undefined;
}

function keyMiddleware(sql: Sql, read: (headers: Headers) => Caller): MiddlewareHandler<CallerEnv> {
  return async (c, next) => {
    const caller = read(c.req.raw.headers);
    c.set('caller', caller);
    await next();
    const refusal = c.error;
    if (!(refusal instanceof Problem) || caller.judged || (await keyWorks(sql, caller))) return;
    // The 401 replaces the refusal: its own headers go with it, what middleware around this one set
    // (CORS) stays.
    for (const name of Object.keys(refusal.extras.headers ?? {})) c.res.headers.delete(name);
    throw caller.rejection();
  };
}

/** The operator-key middleware: `c.var.caller` is the operator whose key the request carries. */
export const operatorKey = (sql: Sql) => keyMiddleware(sql, operatorCaller);

/** The provider-key middleware: `c.var.caller` is the game provider whose key the request carries. */
export const providerKey = (sql: Sql) => keyMiddleware(sql, providerCaller);
