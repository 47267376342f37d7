// What PostgREST does at the start of every request's transaction, once it has verified the token:
// the role the token names and its claims (and any request settings) set locally in one statement,
// then the pre-request function. Tests and the bench open their requests through this, so they meet
// the database as the API's callers do.
import type { TransactionSql } from 'postgres';

export type Claims = Record<string, unknown> & { role: string };

export async function openRequest(tx: TransactionSql, claims: Claims, settings: Record<string, string> = {}): Promise<void> {
  const entries = [['role', claims.role], ['request.jwt.claims', JSON.stringify(claims)], ...Object.entries(settings)];
  await tx.unsafe(
    `select ${entries.map((_, i) => `set_config($${2 * i + 1}, $${2 * i + 2}, true)`).join(', ')}`,
    entries.flat(),
  );
  await tx`select private.check_request()`;
}
