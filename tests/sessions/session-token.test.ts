// The launch token: signed with ES256, verifiable by a provider from our JWKS alone, bound to the
// provider (aud), the player (sub) and the session (jti), and dead when the launch window closes.
import { createLocalJWKSet, exportJWK, generateKeyPair, jwtVerify, type JWTVerifyGetKey } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { createSessionTokenSigner } from '../../supabase/functions/v3/session-token.ts';
import { connect } from '../helpers/db.ts';
import { ISSUER, newOperator, type Operator, sessionRequest, sessionsHandler, validBody } from './helpers.ts';

const sql = connect();
const createdAt = new Date('2026-11-21T10:00:00.000Z');
let handle: (request: Request) => Promise<Response>;
let alice: Operator;
let jwks: JWTVerifyGetKey;

beforeAll(async () => {
  ({ handle } = await sessionsHandler({ clock: () => createdAt, config: { sessionTtlSeconds: 300 } }));
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

describe('launch token', () => {
  it('publishes only the public key, as a JWKS providers may cache', async () => {
    const response = await handle(new Request('http://api.test/v3/.well-known/jwks.json'));
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toMatch(/max-age/);
    const { keys } = await response.json();
    expect(keys).toEqual([expect.objectContaining({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig', kid: expect.any(String) })]);
    expect(keys[0]).not.toHaveProperty('d');
  });

  it('is verifiable with the JWKS and carries issuer, provider, player, session, game and currency', async () => {
    const { session, token } = await createSession();
    const { payload, protectedHeader } = await jwtVerify(token, jwks, {
      issuer: ISSUER, audience: 'pragmatic-play', algorithms: ['ES256'], currentDate: createdAt,
    });
    expect(protectedHeader).toMatchObject({ alg: 'ES256', typ: 'JWT' });
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

  it('is signed with the configured key (SESSION_TOKEN_PRIVATE_JWK) and its kid when one is given', async () => {
    const pair = await generateKeyPair('ES256', { extractable: true });
    const privateJwk = { ...(await exportJWK(pair.privateKey)), kid: '2026-11' };
    const signer = await createSessionTokenSigner({ privateJwk, issuer: ISSUER });
    expect(signer.jwks.keys[0]).toMatchObject({ kid: '2026-11', x: privateJwk.x, y: privateJwk.y });
    expect(signer.jwks.keys[0]).not.toHaveProperty('d');
    const token = await signer.sign({
      sessionId: 's', playerId: 'p', provider: 'spribe', gameId: 'spribe:aviator', currency: 'USD',
      issuedAt: new Date(), expiresAt: new Date(Date.now() + 60_000),
    });
    const { payload } = await jwtVerify(token, pair.publicKey, { audience: 'spribe' });
    expect(payload.sub).toBe('p');
  });

  it('refuses a signing key that is not EC P-256', async () => {
    const pair = await generateKeyPair('EdDSA', { extractable: true });
    await expect(createSessionTokenSigner({ privateJwk: await exportJWK(pair.privateKey), issuer: ISSUER }))
      .rejects.toThrow(/P-256/);
  });

  it('answers 405 with Allow: GET to anything but GET on the JWKS', async () => {
    const response = await handle(new Request('http://api.test/v3/.well-known/jwks.json', { method: 'POST' }));
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET');
  });
});
