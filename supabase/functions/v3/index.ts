// Edge Function entry point: reads the environment, wires the handler, serves it.
// Hosted: {SUPABASE_URL}/functions/v1/v3/...; locally `npm start` runs it under Deno.
import { connectDatabase, databaseOptionsFromEnv } from '../_shared/database.ts';
import { positiveSetting } from '../_shared/settings.ts';
import { createSessionTokenSigner, signerOptionsFromEnv } from './session-token.ts';
import { createApp } from './app.ts';
import { sessionsConfigFromEnv } from './context.ts';

const env = (name: string) => Deno.env.get(name) || undefined;

const databaseUrl = env('SUPABASE_DB_URL') ?? env('DATABASE_URL');
if (!databaseUrl) throw new Error('SUPABASE_DB_URL (or DATABASE_URL) is not set');

const signerOptions = signerOptionsFromEnv(env);
const signer = await createSessionTokenSigner(signerOptions);
if (!signerOptions.privateJwk) {
  console.warn(`SESSION_TOKEN_PRIVATE_JWK is not set: launch tokens are signed (${signer.alg}) with a throwaway key`);
}

const handler = createApp({
  sql: connectDatabase(databaseUrl, databaseOptionsFromEnv(env)),
  signer,
  config: sessionsConfigFromEnv(env),
});

// Set locally only (0 = not set): Supabase's Edge Runtime serves the function on its own port.
const port = positiveSetting(env, 'PORT', { fallback: 0, integer: true, max: 65_535 });
Deno.serve(
  port
    ? {
      port,
      hostname: env('HOST') ?? '127.0.0.1',
      onListen: ({ hostname, port }) => console.log(`v3 listening on http://${hostname}:${port}/`),
    }
    : {},
  handler,
);
