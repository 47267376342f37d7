// Run under Deno by the sessions benchmark (not by Node): what one launch token's signature costs in
// the function's runtime, with the function's own signer, for each algorithm it offers. Signing is
// synchronous, so this is also how long each signature holds the JS thread. Prints one JSON line.
import { createSessionTokenSigner, type LaunchClaims } from '../../supabase/functions/v3/session-token.ts';

const claims: LaunchClaims = {
  sessionId: crypto.randomUUID(), playerId: 'player-1', provider: 'pragmatic-play',
  gameId: 'pragmatic-play:vs20olympgate', currency: 'EUR', issuedAt: new Date(), expiresAt: new Date(Date.now() + 900_000),
};

async function msPerSignature(alg: 'EdDSA' | 'ES256', n = 1000): Promise<number> {
  const signer = await createSessionTokenSigner({ issuer: 'cgs', alg });
  for (let i = 0; i < 100; i++) signer.sign(claims);
  const start = performance.now();
  for (let i = 0; i < n; i++) signer.sign(claims);
  return (performance.now() - start) / n;
}

console.log(JSON.stringify({ eddsaMs: await msPerSignature('EdDSA'), es256Ms: await msPerSignature('ES256') }));
