// Which database functions each API role can call: the whole list, read from the catalog, so a new
// function that forgets its revoke, or a grant too many, fails here before it reaches the API.
// Callable means usage on the function's schema and execute on the function.
import { describe, expect, it } from 'vitest';
import { connect, grantModes } from '../helpers/db.ts';

const callable = {
  // private.check_request(): PostgREST's pre-request function, which every API request runs.
  anon: ['private.check_request'],
  // private.uid(): the caller's id in read policies, which run as the caller.
  authenticated: [
    'private.check_request', 'private.is_staff', 'private.require_staff', 'private.uid',
    'public.import_games', 'public.issue_api_key', 'public.issue_provider_key', 'public.issue_statements', 'public.record_transaction',
    'public.resolve_round', 'public.retry_wallet_call', 'public.review_win', 'public.revoke_api_key',
    'public.revoke_provider_key', 'public.set_wallet_settings',
  ],
  // Staff's own role: the same functions; their guards decide.
  staff: [
    'private.check_request', 'private.is_staff', 'private.issue_statements', 'private.require_staff', 'private.resolve_round', 'private.retry_wallet_call',
    'private.review_win', 'private.set_wallet_settings', 'private.uid',
    'public.import_games', 'public.issue_api_key', 'public.issue_provider_key', 'public.issue_statements', 'public.record_transaction',
    'public.resolve_round', 'public.retry_wallet_call', 'public.review_win', 'public.revoke_api_key',
    'public.revoke_provider_key', 'public.set_wallet_settings',
  ],
  // The service key: the same functions too (private.uid() for transaction.created_by's default);
  // their guards let it through where staff would pass.
  service_role: [
    'private.check_request', 'private.is_staff', 'private.issue_statements', 'private.require_staff', 'private.resolve_round', 'private.retry_wallet_call',
    'private.review_win', 'private.set_wallet_settings', 'private.uid',
    'public.import_games', 'public.issue_api_key', 'public.issue_provider_key', 'public.issue_statements', 'public.record_transaction',
    'public.resolve_round', 'public.retry_wallet_call', 'public.review_win', 'public.revoke_api_key',
    'public.revoke_provider_key', 'public.set_wallet_settings',
  ],
  // Supabase Auth: the access token hook, nothing else.
  supabase_auth_admin: ['private.custom_access_token_hook'],
};

describe.each(grantModes)('functions the API roles can call (%s)', (mode) => {
  const sql = connect(mode);

  it.each(Object.entries(callable))('%s calls exactly these', async (role, expected) => {
    const rows = await sql<{ fn: string }[]>`
      select n.nspname || '.' || p.proname as fn
      from pg_catalog.pg_proc p
      join pg_catalog.pg_namespace n on n.oid = p.pronamespace
      where n.nspname in ('public', 'private')
        and pg_catalog.has_schema_privilege(${role}, n.oid, 'usage')
        and pg_catalog.has_function_privilege(${role}, p.oid, 'execute')
      order by 1`;
    expect(rows.map((r) => r.fn)).toEqual(expected);
  });
});
