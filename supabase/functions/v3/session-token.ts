// The launch token: a short-lived JWT a game provider verifies with our public key (ES256, served
// as a JWKS), so no shared secret is handed to every provider.
import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type JWK, SignJWT } from 'jose';

const ALG = 'ES256';

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
  sign(claims: LaunchClaims): Promise<string>;
  /** The public key set providers verify with (GET /v3/.well-known/jwks.json). */
  readonly jwks: { keys: JWK[] };
}

export interface SignerOptions {
  /** A P-256 private JWK (SESSION_TOKEN_PRIVATE_JWK); absent: a throwaway key for development. */
  privateJwk?: JWK;
  issuer: string;
}

export async function createSessionTokenSigner(options: SignerOptions): Promise<SessionTokenSigner> {
  let privateKey: CryptoKey;
  let publicJwk: JWK;
  if (options.privateJwk) {
    const { kty, crv, x, y } = options.privateJwk;
    if (kty !== 'EC' || crv !== 'P-256') throw new Error('the session token key must be an EC P-256 JWK');
    privateKey = (await importJWK(options.privateJwk, ALG)) as CryptoKey;
    publicJwk = { kty, crv, x, y };
  } else {
    const pair = await generateKeyPair(ALG, { extractable: true });
    privateKey = pair.privateKey;
    const { kty, crv, x, y } = await exportJWK(pair.publicKey);
    publicJwk = { kty, crv, x, y };
  }
  const kid = options.privateJwk?.kid ?? (await calculateJwkThumbprint(publicJwk));
  const jwks = { keys: [{ ...publicJwk, kid, alg: ALG, use: 'sig' }] };

  return {
    jwks,
    sign: (claims) =>
      new SignJWT({ game_id: claims.gameId, currency: claims.currency })
        .setProtectedHeader({ alg: ALG, kid, typ: 'JWT' })
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
