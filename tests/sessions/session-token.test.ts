// The launch token: signed with EdDSA (Ed25519) by default or ES256 when configured, verifiable by a
// provider from our JWKS alone, bound to the provider (aud), the player (sub) and the session (jti),
// and dead when the launch window closes.
import { calculateJwkThumbprint, createLocalJWKSet, exportJWK, generateKeyPair, jwtVerify, type JWTVerifyGetKey } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createSessionTokenSigner, type SessionTokenAlg, signerOptionsFromEnv,
} from '../../supabase/functions/v3/session-token.ts';
import { connect } from '../helpers/db.ts';
import { ISSUER, newOperator, type Operator, sessionRequest, sessionsHandler, validBody } from '../helpers/api.ts';

const sql = connect();
const createdAt = new Date('2026-11-21T10:00:00.000Z');
const claims = {
  sessionId: 's', playerId: 'p', provider: 'spribe', gameId: 'spribe:aviator', currency: 'USD',
  issuedAt: new Date(), expiresAt: new Date(Date.now() + 60_000),
};

const algorithms = [
  { alg: 'EdDSA', kty: 'OKP', crv: 'Ed25519', publicMembers: ['x'] },
  { alg: 'ES256', kty: 'EC', crv: 'P-256', publicMembers: ['x', 'y'] },
] as const;

describe.each(algorithms)('launch token signed with $alg', ({ alg, kty, crv, publicMembers }) => {
  let handle: (request: Request) => Promise<Response>;
  let alice: Operator;
  let jwks: JWTVerifyGetKey;

  beforeAll(async () => {
    const signer = await createSessionTokenSigner({ alg, issuer: ISSUER });
    ({ handle } = await sessionsHandler({ signer, clock: () => createdAt, config: { sessionTtlSeconds: 300 } }));
    alice = await newOperator(sql, 'alice');
    const published = await handle(new Request('http://api.test/functions/v1/v3/.well-known/jwks.json'));
    jwks = createLocalJWKSet(await published.json());
  });

  async function createSession() {
    const response = await handle(sessionRequest(validBody, { key: alice.key }));
    expect(response.status).toBe(201);
    const session = await response.json();
    return { session, token: new URL(session.launch_url).searchParams.get('token')! };
  }

  it('publishes only the public key, with its alg and its RFC 7638 thumbprint as kid, as a JWKS providers may cache', async () => {
    const response = await handle(new Request('http://api.test/v3/.well-known/jwks.json'));
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toMatch(/max-age/);
    const { keys } = await response.json();
    expect(keys).toEqual([expect.objectContaining({ kty, crv, alg, use: 'sig', kid: expect.any(String) })]);
    expect(Object.keys(keys[0]).sort()).toEqual(['alg', 'crv', 'kid', 'kty', 'use', ...publicMembers].sort());
    expect(keys[0].kid).toBe(await calculateJwkThumbprint(keys[0]));
  });

  it('is verifiable with the JWKS and carries issuer, provider, player, session, game and currency', async () => {
    const { session, token } = await createSession();
    const { payload, protectedHeader } = await jwtVerify(token, jwks, {
      issuer: ISSUER, audience: 'pragmatic-play', algorithms: [alg], currentDate: createdAt,
    });
    expect(protectedHeader).toMatchObject({ alg, typ: 'JWT' });
    expect(payload).toEqual({
      iss: ISSUER, aud: 'pragmatic-play', sub: 'player-42', jti: session.id,
      game_id: validBody.game_id, currency: 'EUR',
      iat: createdAt.getTime() / 1000, exp: createdAt.getTime() / 1000 + 300,
    });
  });

  it('expires with the session: the launch window is the configured TTL from the clock', async () => {
    const { session, token } = await createSession();
    expect(session.created_at).toBe(createdAt.toISOString());
    expect(session.expires_at).toBe('2026-11-21T10:05:00.000Z');
    const [row] = await sql`select expires_at from public.game_session where id = ${session.id}`;
    expect(row.expires_at.toISOString()).toBe(session.expires_at);
    const justBefore = new Date(Date.parse(session.expires_at) - 1000);
    await expect(jwtVerify(token, jwks, { audience: 'pragmatic-play', currentDate: justBefore })).resolves.toBeTruthy();
    const after = new Date(Date.parse(session.expires_at) + 1000);
    await expect(jwtVerify(token, jwks, { audience: 'pragmatic-play', currentDate: after }))
      .rejects.toMatchObject({ code: 'ERR_JWT_EXPIRED' });
  });

  it('is refused by another provider (audience) and when tampered with (signature)', async () => {
    const { token } = await createSession();
    await expect(jwtVerify(token, jwks, { audience: 'evolution', currentDate: createdAt }))
      .rejects.toMatchObject({ code: 'ERR_JWT_CLAIM_VALIDATION_FAILED' });
    const [header, payload, signature] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), sub: 'mallory' }))
      .toString('base64url');
    await expect(jwtVerify(`${header}.${forged}.${signature}`, jwks, { currentDate: createdAt }))
      .rejects.toMatchObject({ code: 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED' });
  });

  it('is signed with the configured key (SESSION_TOKEN_PRIVATE_JWK), its algorithm taken from the key, and its kid when one is given', async () => {
    const pair = await generateKeyPair(alg, { extractable: true });
    const privateJwk = { ...(await exportJWK(pair.privateKey)), kid: '2026-11' };
    const signer = await createSessionTokenSigner({ privateJwk, issuer: ISSUER });
    expect(signer.alg).toBe(alg);
    const publicJwk = await exportJWK(pair.publicKey);
    expect(signer.jwks.keys).toEqual([{ ...publicJwk, kid: '2026-11', alg, use: 'sig' }]);
    const token = await signer.sign(claims);
    const { payload, protectedHeader } = await jwtVerify(token, pair.publicKey, { audience: 'spribe', algorithms: [alg] });
    expect(protectedHeader).toMatchObject({ alg, kid: '2026-11' });
    expect(payload.sub).toBe('p');
  });

  it('without a kid, names the configured key by its thumbprint', async () => {
    const pair = await generateKeyPair(alg, { extractable: true });
    const signer = await createSessionTokenSigner({ alg, privateJwk: await exportJWK(pair.privateKey), issuer: ISSUER });
    expect(signer.jwks.keys[0].kid).toBe(await calculateJwkThumbprint(await exportJWK(pair.publicKey)));
  });
});

describe('launch token key rotation', () => {
  it('verifies tokens of the keys before a rotation, lists them in the JWKS, and only those', async () => {
    for (const { alg } of algorithms) {
      const before = await createSessionTokenSigner({ alg, issuer: ISSUER });
      const token = before.sign(claims);
      const other = await createSessionTokenSigner({ alg: 'ES256', issuer: ISSUER });
      const after = await createSessionTokenSigner({ issuer: ISSUER, previousPublicJwks: [...before.jwks.keys, ...other.jwks.keys] });
      expect(after.verify(token)).toMatchObject({ sessionId: 's', provider: 'spribe' });
      expect(after.jwks.keys.map((k) => k.kid)).toEqual([after.jwks.keys[0].kid, before.jwks.keys[0].kid, other.jwks.keys[0].kid]);
      expect(after.jwks.keys.every((k) => k.d === undefined)).toBe(true);
      // A provider verifying with the published set accepts the old token too.
      const { payload } = await jwtVerify(token, createLocalJWKSet(after.jwks), { issuer: ISSUER, audience: 'spribe' });
      expect(payload.jti).toBe('s');
      // Without the previous key, the old token is refused; a forged one under its header too.
      expect((await createSessionTokenSigner({ issuer: ISSUER })).verify(token)).toBeNull();
      const [header, payloadPart, signature] = token.split('.');
      expect(after.verify(`${header}.${payloadPart}.${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`)).toBeNull();
    }
  });

  it('reads the previous keys from SESSION_TOKEN_PREVIOUS_PUBLIC_JWKS, and refuses what is not a list of public keys', async () => {
    const before = await createSessionTokenSigner({ issuer: ISSUER });
    const options = signerOptionsFromEnv((name) => (name === 'SESSION_TOKEN_PREVIOUS_PUBLIC_JWKS' ? JSON.stringify(before.jwks.keys) : undefined));
    expect(options.previousPublicJwks).toEqual(before.jwks.keys);
    expect(() => signerOptionsFromEnv((name) => (name === 'SESSION_TOKEN_PREVIOUS_PUBLIC_JWKS' ? '{"keys":[]}' : undefined)))
      .toThrow('SESSION_TOKEN_PREVIOUS_PUBLIC_JWKS is not a JSON array of public JWKs');
    await expect(createSessionTokenSigner({ issuer: ISSUER, previousPublicJwks: [{ kty: 'RSA', n: 'x', e: 'AQAB' } as never] }))
      .rejects.toThrow('not an OKP Ed25519 or EC P-256 public JWK');
  });
});

describe('launch token settings', () => {
  const envOf = (values: Record<string, string>) => (name: string) => values[name];

  it('signs with EdDSA unless told otherwise, and with ES256 when SESSION_TOKEN_ALG says so', async () => {
    expect((await createSessionTokenSigner(signerOptionsFromEnv(envOf({})))).alg).toBe('EdDSA');
    const es256 = await createSessionTokenSigner(signerOptionsFromEnv(envOf({ SESSION_TOKEN_ALG: 'ES256' })));
    expect(es256.jwks.keys[0]).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256' });
  });

  it('reads the key and the issuer from the environment', async () => {
    const pair = await generateKeyPair('ES256', { extractable: true });
    const jwk = await exportJWK(pair.privateKey);
    const options = signerOptionsFromEnv(envOf({ SESSION_TOKEN_PRIVATE_JWK: JSON.stringify(jwk), SESSION_TOKEN_ISSUER: 'cgs-eu' }));
    expect(options).toEqual({ alg: undefined, privateJwk: jwk, issuer: 'cgs-eu' });
    const signer = await createSessionTokenSigner(options);
    const { payload } = await jwtVerify(await signer.sign(claims), pair.publicKey, { issuer: 'cgs-eu', audience: 'spribe' });
    expect(payload.jti).toBe('s');
  });

  it('stops the start-up on an unknown algorithm or a key that is not a JSON object, without quoting the key', () => {
    expect(() => signerOptionsFromEnv(envOf({ SESSION_TOKEN_ALG: 'HS256' }))).toThrow(/EdDSA or ES256/);
    expect(() => signerOptionsFromEnv(envOf({ SESSION_TOKEN_ALG: 'eddsa' }))).toThrow(/EdDSA or ES256/);
    for (const value of ['{"kty":"OKP","d":"secret-bits"', '"secret-bits"', 'null']) {
      expect(() => signerOptionsFromEnv(envOf({ SESSION_TOKEN_PRIVATE_JWK: value })))
        .toThrow(expect.objectContaining({ message: expect.not.stringContaining('secret-bits') }));
    }
  });

  it.each([
    ['ES256', 'EdDSA'],
    ['EdDSA', 'ES256'],
  ] as [SessionTokenAlg, SessionTokenAlg][])('refuses a %s key when SESSION_TOKEN_ALG is %s', async (keyAlg, alg) => {
    const pair = await generateKeyPair(keyAlg, { extractable: true });
    await expect(createSessionTokenSigner({ alg, privateJwk: await exportJWK(pair.privateKey), issuer: ISSUER }))
      .rejects.toThrow(new RegExp(`SESSION_TOKEN_ALG is ${alg}`));
  });

  it.each(['EdDSA', 'ES256'] as const)('refuses a %s key whose public members belong to another key, or whose "d" is not a key, without quoting it', async (alg) => {
    const [pair, other] = [await generateKeyPair(alg, { extractable: true }), await generateKeyPair(alg, { extractable: true })];
    const privateJwk = await exportJWK(pair.privateKey);
    const { x, y } = await exportJWK(other.publicKey);
    const mismatched = { ...privateJwk, x, ...(y ? { y } : {}) };
    await expect(createSessionTokenSigner({ privateJwk: mismatched, issuer: ISSUER })).rejects.toThrow(/do not match its private key/);
    const broken = { ...privateJwk, d: 'c2VjcmV0LWJpdHM' };
    await expect(createSessionTokenSigner({ privateJwk: broken, issuer: ISSUER }))
      .rejects.toThrow(expect.objectContaining({ message: expect.stringMatching(/not a valid private JWK|do not match its private key/) }));
    await expect(createSessionTokenSigner({ privateJwk: broken, issuer: ISSUER }))
      .rejects.toThrow(expect.objectContaining({ message: expect.not.stringContaining('c2VjcmV0LWJpdHM') }));
  });

  it('refuses a key that is neither Ed25519 nor P-256, and a public key', async () => {
    for (const other of [await generateKeyPair('ES384', { extractable: true }), await generateKeyPair('ECDH-ES', { crv: 'X25519', extractable: true })]) {
      await expect(createSessionTokenSigner({ privateJwk: await exportJWK(other.privateKey), issuer: ISSUER }))
        .rejects.toThrow(/OKP Ed25519 or an EC P-256/);
    }
    const pair = await generateKeyPair('EdDSA', { extractable: true });
    await expect(createSessionTokenSigner({ privateJwk: await exportJWK(pair.publicKey), issuer: ISSUER }))
      .rejects.toThrow(/private JWK/);
  });
});

describe('the JWKS endpoint', () => {
  let handle: (request: Request) => Promise<Response>;
  beforeAll(async () => {
    ({ handle } = await sessionsHandler());
  });

  it('answers 405 with Allow: GET to anything but GET', async () => {
    const response = await handle(new Request('http://api.test/v3/.well-known/jwks.json', { method: 'POST' }));
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET');
  });
});
