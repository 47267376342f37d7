// The back-office web app's Supabase client: supabase-js typed with the generated Database, with
// this project's defaults. Every read and write goes through PostgREST and RLS as the signed-in user.
import { createClient, type SupabaseClient, type SupabaseClientOptions } from '@supabase/supabase-js';
import type { Database } from '../database.types.ts';

export type BackOfficeClient = SupabaseClient<Database>;
export type BackOfficeClientOptions = SupabaseClientOptions<'public'>;
type WebSocketTransport = NonNullable<NonNullable<BackOfficeClientOptions['realtime']>['transport']>;

// supabase-js refuses to construct a client where there is no global WebSocket (Node 20), even
// when realtime is never used. The back office works over HTTP, so there the client is built with
// a transport that fails only if a realtime channel is actually opened.
class WebSocketUnavailable {
  constructor() {
    throw new Error('Realtime needs a WebSocket: use Node 22+ or a browser, or pass options.realtime.transport');
  }
}

/**
 * `createClient<Database>()` with the project's defaults: the `public` schema (the only one the API
 * exposes), the PKCE sign-in flow, and a client that also works on Node 20. Sections of `options`
 * are merged over the defaults.
 */
export function createBackOfficeClient(
  url: string,
  anonKey: string,
  options: BackOfficeClientOptions = {},
): BackOfficeClient {
  const transport = options.realtime?.transport ??
    (typeof globalThis.WebSocket === 'function' ? undefined : (WebSocketUnavailable as unknown as WebSocketTransport));
  return createClient<Database>(url, anonKey, {
    ...options,
    db: { schema: 'public', ...options.db },
    auth: { flowType: 'pkce', ...options.auth },
    realtime: { ...options.realtime, ...(transport ? { transport } : {}) },
  });
}
