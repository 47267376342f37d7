// Read policies leave a query free to run in parallel. Postgres rules out a parallel plan for the
// whole query when any expression in it, the policies' included, calls a function not labelled
// parallel safe, as Supabase's auth.uid() is not; then a staff count of a million transactions runs
// on one core (npm run bench). With parallel plans made free here, every signed-in read must get one.
import { describe, expect, it } from 'vitest';
import { as, type Caller, cast, connect, grantModes } from '../helpers/db.ts';

// Every table a signed-in caller reads through a policy (the next test holds the list to the catalog);
// clients read all but the staff-only ones.
const tables = ['user_role', 'profile', 'currency', 'game_provider', 'game', 'wallet', 'transaction', 'api_key',
  'support_ticket', 'support_ticket_message', 'contact_submission', 'app_setting', 'game_session', 'provider_key',
  'game_round', 'round_transaction', 'wallet_setting', 'webhook_endpoint', 'event', 'webhook_delivery',
  'webhook_attempt', 'wallet_call', 'jurisdiction', 'client_jurisdiction', 'player_restriction', 'player_restriction_audit', 'sandbox_player', 'sandbox_wallet', 'sandbox_transaction',
  'held_win', 'win_limit', 'game_free_rounds', 'free_round_campaign', 'free_round_grant', 'client_contract', 'monthly_statement', 'sportsbook_bet'];
const staffOnly = ['contact_submission', 'app_setting', 'provider_key', 'win_limit'];

// The planner's price of going parallel set to nothing, so a tiny table gets a parallel plan too,
// and a scan of the table rather than the client's index lookup (which needs no parallel plan).
// debug_parallel_query puts a Gather over any plan that is parallel safe: once autovacuum has
// analyzed a table of a few rows, the cheapest plan is serial, yet what is proven is the safety.
const parallelForFree = ['parallel_setup_cost', 'parallel_tuple_cost', 'min_parallel_table_scan_size',
  'min_parallel_index_scan_size'].map((setting) => `set local ${setting} = 0`)
  .concat('set local debug_parallel_query = on', 'set local max_parallel_workers_per_gather = 2', 'set local enable_indexscan = off',
    'set local enable_indexonlyscan = off', 'set local enable_bitmapscan = off').join('; ');

describe.each(grantModes)('read policies and parallel plans (%s)', (mode) => {
  const sql = connect(mode);

  async function planOf(caller: Caller, query: string): Promise<string> {
    return as(sql, caller, async (tx) => {
      await tx.unsafe(parallelForFree);
      const [row] = await tx.unsafe(`explain (format json) ${query}`);
      return JSON.stringify(row['QUERY PLAN']);
    });
  }

  it.each(tables)('a count of %s may run in parallel, for staff and for a client', async (table) => {
    const { alice, mona } = await cast(sql);
    // Without RLS in the way, the settings do give a parallel plan: the assertions below can fail.
    expect(await planOf('service_role', `select count(*) from public.${table}`)).toContain('"Gather"');
    for (const caller of staffOnly.includes(table) ? [mona] : [mona, alice]) {
      expect(await planOf(caller, `select count(*) from public.${table}`)).toContain('"Gather"');
    }
  });

  it('those are all the tables signed-in callers read through a policy, and none calls auth.uid()', async () => {
    const policies = await sql<{ table: string; qual: string }[]>`
      select tablename as table, qual from pg_catalog.pg_policies
      where schemaname = 'public' and cmd = 'SELECT' and roles && '{authenticated,staff}'::name[]`;
    expect([...new Set(policies.map((p) => p.table))].sort()).toEqual([...tables].sort());
    // auth.uid() has no parallel label: in a read policy it would take parallel plans away again.
    expect(policies.filter((p) => p.qual.includes('auth.uid()'))).toEqual([]);
  });

  it('so may a join across tables, as PostgREST embeds a related table', async () => {
    const { mona } = await cast(sql);
    const plan = await planOf(mona, `
      select count(*) from public.transaction t
      join public.profile p on p.id = t.client_id
      join public.wallet w on w.client_id = t.client_id and w.currency_code = t.currency_code`);
    expect(plan).toContain('"Gather"');
  });
});
