// What only staff (admin, manager) may do, over the database's RPCs: the functions check the
// caller's role and refuse others with 42501.
import type { PostgrestSingleResponse } from '@supabase/supabase-js';
import type { Database, Tables } from '../database.types.ts';
import type { BackOfficeClient } from './client.ts';

type Functions = Database['public']['Functions'];
export type IssueApiKeyArgs = Functions['issue_api_key']['Args'];
/** `{ id, key, key_prefix }`: the only time the key itself is ever returned. */
export type IssuedApiKey = Functions['issue_api_key']['Returns'][number];
export type RevokedApiKey = Functions['revoke_api_key']['Returns'][number];
export type RecordTransactionArgs = Functions['record_transaction']['Args'];

/** Issues a key for a client (a `cgs_test_` key with `livemode: false`). Show `key` to the client once; store it nowhere. */
export function issueApiKey(
  db: BackOfficeClient,
  args: IssueApiKeyArgs,
): PromiseLike<PostgrestSingleResponse<IssuedApiKey>> {
  return db.rpc('issue_api_key', args).single();
}

/** Revokes a key by id: the next request with it is refused. */
export function revokeApiKey(
  db: BackOfficeClient,
  id: Functions['revoke_api_key']['Args']['id'],
): PromiseLike<PostgrestSingleResponse<RevokedApiKey>> {
  return db.rpc('revoke_api_key', { id }).single();
}

/**
 * Records a money movement and moves the wallet balance in one database transaction. `amount` is
 * the signed effect on the balance; `reference` makes a retry return the first transaction.
 */
export function recordTransaction(
  db: BackOfficeClient,
  args: RecordTransactionArgs,
): PromiseLike<PostgrestSingleResponse<Tables<'transaction'>>> {
  return db.rpc('record_transaction', args);
}

/**
 * Ends a round a provider left open: `close` keeps it as played, `cancel` gives back every bet no
 * win settled (refused for a round that paid a win). Find them with `GET /v3/rounds?status=open`.
 */
export function resolveRound(
  db: BackOfficeClient,
  roundId: string,
  resolution: 'close' | 'cancel',
): PromiseLike<PostgrestSingleResponse<Tables<'game_round'>>> {
  return db.rpc('resolve_round', { round_id: roundId, resolution });
}
