// The launch token: a short-lived JWT a game provider verifies with our public key (served as a
// JWKS), so no shared secret is handed to every provider. EdDSA (Ed25519) by default: it signs at a
// fraction of ES256's (P-256) CPU, spent on the request's JS thread (npm run bench measures both).
// ES256 stays available for providers whose JWT libraries lack EdDSA.
//
// Signed with node:crypto, which Deno and Node both provide, rather than Web Crypto: its signature is
// synchronous, where Web Crypto's runs on a worker thread and the hand-offs to it and back make a
// request wait longer than the signing itself takes.
import { Buffer } from 'node:buffer';
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject, sign, verify } from 'node:crypto';
import type { Env } from '../_shared/settings.ts';

/** A JSON Web Key (RFC 7517), as far as these keys need. */
export interface JWK {
  kty?: string;
  crv?: string;
  x?: string;
  y?: string;
  d?: string;
  kid?: string;
  alg?: string;
  use?: string;
}

/** The JWS algorithms a launch token may be signed with, and the key each needs. */
const KEY_TYPES = {
  EdDSA: { kty: 'OKP', crv: 'Ed25519' },
  ES256: { kty: 'EC', crv: 'P-256' },
} as const;

export type SessionTokenAlg = keyof typeof KEY_TYPES;

export const defaultSessionTokenAlg: SessionTokenAlg = 'EdDSA';

export function isSessionTokenAlg(value: string): value is SessionTokenAlg {
  return Object.hasOwn(KEY_TYPES, value);
}

export interface LaunchClaims {
  sessionId: string;
  playerId: string;
  provider: string;
  gameId: string;
  currency: string;
  issuedAt: Date;
  expiresAt: Date;
  /** What the session is played under, when it names a jurisdiction: the game honours its rules. */
  compliance?: LaunchCompliance;
}

/** The jurisdiction's rules, the player's KYC status and the reality-check interval, as the token carries them. */
export interface LaunchCompliance {
  jurisdiction: string | null;
  rules: Record<string, unknown> | null;
  kycStatus: string | null;
  realityCheckMinutes: number | null;
}

/** What a provider's call proves with the launch token it carries. */
export interface VerifiedToken {
  sessionId: string;
  /** The audience: the provider slug the token was issued for. */
  provider: string;
  expiresAt: Date;
}

export interface SessionTokenSigner {
  readonly alg: SessionTokenAlg;
  /** A compact JWS, signed synchronously: it holds the JS thread, which EdDSA keeps cheap. */
  sign(claims: LaunchClaims): string;
  /**
   * The token's session and provider when this signer made it (header, signature, issuer); null
   * otherwise. Its expiry is not checked here: a provider settles wins and rollbacks after it, and
   * the round engine judges bets by the session's own state.
   */
  verify(token: string): VerifiedToken | null;
  /** The public key set providers verify with (GET /v3/.well-known/jwks.json). */
  readonly jwks: { keys: JWK[] };
}

export interface SignerOptions {
  /** SESSION_TOKEN_ALG. Absent: the algorithm of `privateJwk`, or EdDSA when there is no key either. */
  alg?: SessionTokenAlg;
  /**
   * An OKP Ed25519 or EC P-256 private JWK (SESSION_TOKEN_PRIVATE_JWK); it must match `alg`.
   * Absent: a throwaway key for development.
   */
  privateJwk?: JWK;
  /**
   * The public JWKs of keys that signed before a rotation (SESSION_TOKEN_PREVIOUS_PUBLIC_JWKS): their
   * tokens still verify, and the JWKS still lists them, so the wins and rollbacks of rounds begun
   * before the rotation settle. Drop them once those rounds have ended.
   */
  previousPublicJwks?: JWK[];
  issuer: string;
}

/**
 * The signer's settings from the environment: SESSION_TOKEN_ALG (EdDSA or ES256), SESSION_TOKEN_PRIVATE_JWK
 * (JSON), SESSION_TOKEN_ISSUER (default `cgs`). An unknown algorithm or a key that is not JSON stops the
 * start-up; createSessionTokenSigner then refuses a key that does not match the algorithm.
 */
export function signerOptionsFromEnv(env: Env): SignerOptions {
  const alg = env('SESSION_TOKEN_ALG');
  if (alg !== undefined && !isSessionTokenAlg(alg)) {
    throw new Error(`SESSION_TOKEN_ALG must be ${Object.keys(KEY_TYPES).join(' or ')}, not "${alg}"`);
  }
  const jwk = env('SESSION_TOKEN_PRIVATE_JWK');
  let privateJwk: unknown;
  if (jwk !== undefined) {
    try {
      privateJwk = JSON.parse(jwk);
    } catch {
      privateJwk = null;
    }
    // Not the parser's message: it may quote the key.
    if (typeof privateJwk !== 'object' || privateJwk === null) throw new Error('SESSION_TOKEN_PRIVATE_JWK is not a JSON object');
  }
  const previous = env('SESSION_TOKEN_PREVIOUS_PUBLIC_JWKS');
  let previousPublicJwks: unknown;
  if (previous !== undefined) {
    try {
      previousPublicJwks = JSON.parse(previous);
    } catch {
      previousPublicJwks = null;
    }
    if (!Array.isArray(previousPublicJwks) || !previousPublicJwks.every((k) => typeof k === 'object' && k !== null)) {
      throw new Error('SESSION_TOKEN_PREVIOUS_PUBLIC_JWKS is not a JSON array of public JWKs');
    }
  }
  return {
    alg, privateJwk: privateJwk as JWK | undefined, previousPublicJwks: previousPublicJwks as JWK[] | undefined,
    issuer: env('SESSION_TOKEN_ISSUER') ?? 'cgs',
  };
}

/** The algorithm of a key's type, for public and private JWKs alike; undefined for any other key. */
function algOfType(jwk: JWK): SessionTokenAlg | undefined {
  return (Object.keys(KEY_TYPES) as SessionTokenAlg[]).find((name) => KEY_TYPES[name].kty === jwk.kty && KEY_TYPES[name].crv === jwk.crv);
}

/** The algorithm a private JWK signs with; throws when it is neither an Ed25519 nor a P-256 private key. */
function algOfKey(jwk: JWK): SessionTokenAlg {
  const alg = algOfType(jwk);
  if (!alg) throw new Error('the session token key must be an OKP Ed25519 or an EC P-256 JWK');
  if (typeof jwk.d !== 'string') throw new Error('the session token key must be a private JWK (with "d")');
  return alg;
}

/**
 * The public half of a JWK: exactly the members RFC 7638 thumbprints, nothing private, in the
 * lexicographic order the thumbprint hashes them in.
 */
function publicPart({ crv, kty, x, y }: JWK): JWK {
  return kty === 'EC' ? { crv, kty, x, y } : { crv, kty, x };
}

/** The RFC 7638 thumbprint: SHA-256 of the public members' JSON, base64url. */
const thumbprint = (jwk: JWK) => createHash('sha256').update(JSON.stringify(publicPart(jwk))).digest('base64url');

const mismatchedKey = 'the session token key\'s public members do not match its private key';

// PKCS #8 prefixes for a bare private scalar (RFC 8410 for Ed25519; RFC 5915 without the optional
// public key for P-256), so "d" can be read without the public members a JWK import checks.
const PKCS8_PREFIX = {
  EdDSA: '302e020100300506032b657004220420',
  ES256: '3041020100301306072a8648ce3d020106082a8648ce3d030107042730250201010420',
} as const;

/** The private key "d" alone makes, if it makes one. */
function keyFromD(jwk: JWK): KeyObject | undefined {
  const alg = algOfType(jwk);
  const d = typeof jwk.d === 'string' ? Buffer.from(jwk.d, 'base64url') : undefined;
  if (!alg || d?.length !== 32) return undefined;
  try {
    return createPrivateKey({ key: Buffer.concat([Buffer.from(PKCS8_PREFIX[alg], 'hex'), d]), format: 'der', type: 'pkcs8' });
  } catch {
    return undefined;
  }
}

/** Whether a signature made with the private key verifies with these public members. */
function publicHalfVerifies(publicJwk: JWK, digest: string | null, signOptions: Parameters<typeof sign>[2]): boolean {
  const probe = Buffer.from('cgs session token key check');
  try {
    const key = createPublicKey({ key: publicJwk as never, format: 'jwk' });
    return verify(digest, probe, { key, dsaEncoding: 'ieee-p1363' }, sign(digest, probe, signOptions));
  } catch {
    return false;
  }
}

const base64url = (text: string) => Buffer.from(text).toString('base64url');

export async function createSessionTokenSigner(options: SignerOptions): Promise<SessionTokenSigner> {
  const keyAlg = options.privateJwk ? algOfKey(options.privateJwk) : undefined;
  const alg = options.alg ?? keyAlg ?? defaultSessionTokenAlg;
  if (keyAlg && keyAlg !== alg) {
    throw new Error(`SESSION_TOKEN_ALG is ${alg} but the session token key is ${KEY_TYPES[keyAlg].kty} ${KEY_TYPES[keyAlg].crv}`);
  }
  let privateKey: KeyObject;
  if (options.privateJwk) {
    try {
      privateKey = createPrivateKey({ key: options.privateJwk as never, format: 'jwk' });
    } catch {
      // Not the library's message: it may quote the key. Some runtimes check the public members
      // at import, so a "d" that is a key of its own means they belong to another key.
      if (keyFromD(options.privateJwk)) throw new Error(mismatchedKey);
      throw new Error('the session token key is not a valid private JWK');
    }
  } else {
    privateKey = alg === 'EdDSA'
      ? generateKeyPairSync('ed25519').privateKey
      : generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
  }
  const signOptions = alg === 'EdDSA' ? privateKey : { key: privateKey, dsaEncoding: 'ieee-p1363' as const };
  const digest = alg === 'EdDSA' ? null : 'sha256';
  const publicJwk = publicPart(options.privateJwk ?? (createPublicKey(privateKey).export({ format: 'jwk' }) as JWK));
  // A configured key's public members are what providers get: they must verify what "d" signs, or
  // every token would fail at every provider. Node takes an EC key's x and y as given, unchecked.
  if (options.privateJwk && !publicHalfVerifies(publicJwk, digest, signOptions)) {
    throw new Error(mismatchedKey);
  }
  const kid = options.privateJwk?.kid ?? thumbprint(publicJwk);
  const header = base64url(JSON.stringify({ alg, kid, typ: 'JWT' }));
  // Every key a token may verify with, by the exact header it signs under: the current one, then
  // those from before a rotation. No algorithm or key is ever taken from the token itself.
  const verifiers = new Map<string, { key: Parameters<typeof verify>[2]; digest: string | null }>();
  const verifierOf = (key: KeyObject, keyAlg: SessionTokenAlg) =>
    keyAlg === 'EdDSA' ? { key, digest: null } : { key: { key, dsaEncoding: 'ieee-p1363' as const }, digest: 'sha256' };
  verifiers.set(header, verifierOf(createPublicKey(privateKey), alg));
  const jwks = { keys: [{ ...publicJwk, kid, alg, use: 'sig' }] };
  for (const previous of options.previousPublicJwks ?? []) {
    const previousAlg = algOfType(previous);
    let key: KeyObject;
    try {
      if (!previousAlg) throw new Error();
      key = createPublicKey({ key: publicPart(previous) as never, format: 'jwk' });
    } catch {
      throw new Error('a previous session token key is not an OKP Ed25519 or EC P-256 public JWK');
    }
    const previousKid = previous.kid ?? thumbprint(previous);
    const previousHeader = base64url(JSON.stringify({ alg: previousAlg, kid: previousKid, typ: 'JWT' }));
    if (verifiers.has(previousHeader)) continue;
    verifiers.set(previousHeader, verifierOf(key, previousAlg));
    jwks.keys.push({ ...publicPart(previous), kid: previousKid, alg: previousAlg, use: 'sig' });
  }

  return {
    alg,
    jwks,
    sign(claims) {
      const payload = base64url(JSON.stringify({
        game_id: claims.gameId,
        currency: claims.currency,
        iss: options.issuer,
        // The provider is the audience: a token for one provider is worthless at another.
        aud: claims.provider,
        sub: claims.playerId,
        jti: claims.sessionId,
        iat: Math.floor(claims.issuedAt.getTime() / 1000),
        exp: Math.floor(claims.expiresAt.getTime() / 1000),
        ...(claims.compliance && {
          jurisdiction: claims.compliance.jurisdiction, rules: claims.compliance.rules,
          kyc_status: claims.compliance.kycStatus, reality_check_minutes: claims.compliance.realityCheckMinutes,
        }),
      }));
      const input = `${header}.${payload}`;
      const signature = sign(digest, Buffer.from(input), signOptions);
      return `${input}.${signature.toString('base64url')}`;
    },
    verify(token) {
      const parts = token.split('.');
      const verifier = verifiers.get(parts[0]);
      if (parts.length !== 3 || !verifier || !/^[A-Za-z0-9_-]+$/.test(parts[1] + parts[2])) return null;
      const input = Buffer.from(`${parts[0]}.${parts[1]}`);
      if (!verify(verifier.digest, input, verifier.key, Buffer.from(parts[2], 'base64url'))) return null;
      try {
        const claims = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
        if (claims.iss !== options.issuer || typeof claims.jti !== 'string' || typeof claims.aud !== 'string'
          || typeof claims.exp !== 'number') return null;
        return { sessionId: claims.jti, provider: claims.aud, expiresAt: new Date(claims.exp * 1000) };
      } catch {
        return null;
      }
    },
  };
}
