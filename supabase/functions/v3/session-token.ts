// The launch token: a short-lived JWT a game provider verifies with our public key (served as a
// JWKS), so no shared secret is handed to every provider. EdDSA (Ed25519) by default: under Deno an
// ES256 (P-256) signature costs about ten times as much CPU and holds the request thread meanwhile.
// ES256 stays available for providers whose JWT libraries lack EdDSA.
import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type JWK, SignJWT } from 'jose';

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
}

export interface SessionTokenSigner {
  readonly alg: SessionTokenAlg;
  sign(claims: LaunchClaims): Promise<string>;
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
  issuer: string;
}

/**
 * The signer's settings from the environment: SESSION_TOKEN_ALG (EdDSA or ES256), SESSION_TOKEN_PRIVATE_JWK
 * (JSON), SESSION_TOKEN_ISSUER (default `cgs`). An unknown algorithm or a key that is not JSON stops the
 * start-up; createSessionTokenSigner then refuses a key that does not match the algorithm.
 */
export function signerOptionsFromEnv(env: (name: string) => string | undefined): SignerOptions {
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
  return { alg, privateJwk: privateJwk as JWK | undefined, issuer: env('SESSION_TOKEN_ISSUER') ?? 'cgs' };
}

/** The algorithm a private JWK signs with; throws when it is neither an Ed25519 nor a P-256 private key. */
function algOfKey(jwk: JWK): SessionTokenAlg {
  const alg = (Object.keys(KEY_TYPES) as SessionTokenAlg[])
    .find((name) => KEY_TYPES[name].kty === jwk.kty && KEY_TYPES[name].crv === jwk.crv);
  if (!alg) throw new Error('the session token key must be an OKP Ed25519 or an EC P-256 JWK');
  if (typeof jwk.d !== 'string') throw new Error('the session token key must be a private JWK (with "d")');
  return alg;
}

/** The public half of a JWK: exactly the members RFC 7638 thumbprints, nothing private. */
function publicPart({ kty, crv, x, y }: JWK): JWK {
  return kty === 'EC' ? { kty, crv, x, y } : { kty, crv, x };
}

export async function createSessionTokenSigner(options: SignerOptions): Promise<SessionTokenSigner> {
  const keyAlg = options.privateJwk ? algOfKey(options.privateJwk) : undefined;
  const alg = options.alg ?? keyAlg ?? defaultSessionTokenAlg;
  if (keyAlg && keyAlg !== alg) {
    throw new Error(`SESSION_TOKEN_ALG is ${alg} but the session token key is ${KEY_TYPES[keyAlg].kty} ${KEY_TYPES[keyAlg].crv}`);
  }
  let privateKey: CryptoKey;
  let publicJwk: JWK;
  if (options.privateJwk) {
    privateKey = (await importJWK(options.privateJwk, alg)) as CryptoKey;
    publicJwk = publicPart(options.privateJwk);
  } else {
    const pair = await generateKeyPair(alg, { crv: KEY_TYPES[alg].crv, extractable: true });
    privateKey = pair.privateKey;
    publicJwk = publicPart(await exportJWK(pair.publicKey));
  }
  const kid = options.privateJwk?.kid ?? (await calculateJwkThumbprint(publicJwk));
  const jwks = { keys: [{ ...publicJwk, kid, alg, use: 'sig' }] };

  return {
    alg,
    jwks,
    sign: (claims) =>
      new SignJWT({ game_id: claims.gameId, currency: claims.currency })
        .setProtectedHeader({ alg, kid, typ: 'JWT' })
        .setIssuer(options.issuer)
        // The provider is the audience: a token for one provider is worthless at another.
        .setAudience(claims.provider)
        .setSubject(claims.playerId)
        .setJti(claims.sessionId)
        .setIssuedAt(claims.issuedAt)
        .setExpirationTime(claims.expiresAt)
        .sign(privateKey),
  };
}
