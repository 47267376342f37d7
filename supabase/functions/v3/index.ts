// Edge Function entry point: boots (environment, database, logs), wires the app, serves it.
// Hosted: {SUPABASE_URL}/functions/v1/v3/...; locally `npm start` runs it under Deno.
import { boot, serve } from '../_shared/boot.ts';
import { connectDatabase, databaseOptionsFromEnv, readDatabaseUrlFromEnv } from '../_shared/database.ts';
import { createSessionTokenSigner, signerOptionsFromEnv } from './session-token.ts';
import { createApp } from './app.ts';
import { sessionsConfigFromEnv } from './context.ts';

const { env, sql, log } = boot();
// The catalogue and the lists read from DATABASE_READ_URL when it is set (a replica).
const readUrl = readDatabaseUrlFromEnv(env);
const readSql = readUrl ? connectDatabase(readUrl, { ...databaseOptionsFromEnv(env), applicationName: 'cgs-v3-read' }) : undefined;

const signerOptions = signerOptionsFromEnv(env);
const signer = await createSessionTokenSigner(signerOptions);
if (!signerOptions.privateJwk) {
  console.warn(`SESSION_TOKEN_PRIVATE_JWK is not set: launch tokens are signed (${signer.alg}) with a throwaway key`);
}

serve('v3', env, createApp({ sql, readSql, signer, config: sessionsConfigFromEnv(env), logError: log }));
