// Run under Deno by the sessions benchmark (not by Node): what one launch token's signature costs
// in the function's runtime, with the function's own signer (ES256), and Ed25519 for comparison.
// Prints one JSON line: milliseconds per signature, and how long the JS thread was blocked by them.
import { generateKeyPair, SignJWT } from 'jose';
import { createSessionTokenSigner, type LaunchClaims } from '../../supabase/functions/v3/session-token.ts';

const claims: LaunchClaims = {
  sessionId: crypto.randomUUID(), playerId: 'player-1', provider: 'pragmatic-play',
  gameId: 'pragmatic-play:vs20olympgate', currency: 'EUR', issuedAt: new Date(), expiresAt: new Date(Date.now() + 900_000),
};

async function perCall(fn: () => Promise<unknown>, n = 300): Promise<number> {
  for (let i = 0; i < 30; i++) await fn();
  const start = performance.now();
  for (let i = 0; i < n; i++) await fn();
  return (performance.now() - start) / n;
}

const es256 = await createSessionTokenSigner({ issuer: 'cgs', alg: 'ES256' });
const { privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519' });
const eddsa = () =>
  new SignJWT({ game_id: claims.gameId, currency: claims.currency }).setProtectedHeader({ alg: 'EdDSA', typ: 'JWT' })
    .setIssuer('cgs').setAudience(claims.provider).setSubject(claims.playerId).setJti(claims.sessionId)
    .setIssuedAt(claims.issuedAt).setExpirationTime(claims.expiresAt).sign(privateKey);

// 100 signatures at once, a 1 ms timer ticking meanwhile: few ticks means the JS thread was held.
let ticks = 0;
let ticking = true;
const tick = () => {
  ticks++;
  if (ticking) setTimeout(tick, 1);
};
tick();
const burstStart = performance.now();
await Promise.all(Array.from({ length: 100 }, () => es256.sign(claims)));
const burstMs = performance.now() - burstStart;
ticking = false;

console.log(JSON.stringify({
  es256Ms: await perCall(() => es256.sign(claims)),
  eddsaMs: await perCall(eddsa),
  burstMs,
  ticksDuringBurst: ticks,
}));
