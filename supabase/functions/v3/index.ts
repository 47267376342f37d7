// Edge Function entry point: boots (environment, database, logs), wires the app, serves it.
// Hosted: {SUPABASE_URL}/functions/v1/v3/...; locally `npm start` runs it under Deno.
import { boot, serve } from '../_shared/boot.ts';
import { createSessionTokenSigner, signerOptionsFromEnv } from './session-token.ts';
import { createApp } from './app.ts';
import { sessionsConfigFromEnv } from './context.ts';

const { env, sql, log } = boot();

const signerOptions = signerOptionsFromEnv(env);
const signer = await createSessionTokenSigner(signerOptions);
if (!signerOptions.privateJwk) {
  console.warn(`SESSION_TOKEN_PRIVATE_JWK is not set: launch tokens are signed (${signer.alg}) with a throwaway key`);
}

serve('v3', env, createApp({ sql, signer, config: sessionsConfigFromEnv(env), logError: log }));
