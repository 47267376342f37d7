// A client's own money and keys, as the back office shows them. RLS decides what the caller may
// see; the explicit client_id filter lets one helper serve both a client (whose policy would narrow
// the read by the same index anyway) and a staff member looking at one client (who sees every row).
import type { PostgrestResponse } from '@supabase/supabase-js';
import type { Tables } from '../database.types.ts';
import type { BackOfficeClient } from './client.ts';

/** An API key as the back office lists it: everything but its hash. */
export type ApiKeySummary = Pick<
  Tables<'api_key'>,
  'id' | 'label' | 'key_prefix' | 'livemode' | 'status' | 'created_at' | 'last_used_at' | 'revoked_at'
>;

/** A client's wallets, primary first. Staff pass any client's id; a client passes its own. */
export function clientWallets(
  db: BackOfficeClient,
  clientId: string,
): PromiseLike<PostgrestResponse<Tables<'wallet'>>> {
  return db
    .from('wallet')
    .select('*')
    .eq('client_id', clientId)
    .order('is_primary', { ascending: false })
    .order('currency_code');
}

/** A client's latest `limit` transactions, newest first (index transaction (client_id, created_at desc)). */
export function latestTransactions(
  db: BackOfficeClient,
  clientId: string,
  limit = 50,
): PromiseLike<PostgrestResponse<Tables<'transaction'>>> {
  return db
    .from('transaction')
    .select('*')
    .eq('client_id', clientId)
    .order('created_at', { ascending: false })
    .limit(limit);
}

/** A client's API keys, newest first, without their hashes (a key itself is shown once, when issued). */
export function clientApiKeys(db: BackOfficeClient, clientId: string): PromiseLike<PostgrestResponse<ApiKeySummary>> {
  return db
    .from('api_key')
    .select('id, label, key_prefix, livemode, status, created_at, last_used_at, revoked_at')
    .eq('client_id', clientId)
    .order('created_at', { ascending: false });
}
