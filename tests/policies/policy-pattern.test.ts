// The policy pattern every table follows (supabase/migrations/..._accounts_and_roles.sql, Policies):
// clients sign in as `authenticated`, staff as `staff`, and each role's policies are plain, so a
// client's read without its own filter is an index condition and a staff read has no condition.
// The access rules themselves are proven cell by cell by the matrix tests.
import { describe, expect, it } from 'vitest';
import { as, cast, connect, signIn } from '../helpers/db.ts';
import { openWallet } from '../ledger/record.ts';

interface Policy {
  table: string;
  name: string;
  cmd: string;
  roles: string[];
  qual: string | null;
  check: string | null;
}

describe('the policy pattern', () => {
  const sql = connect();
  const policies = () => sql<Policy[]>`
    select tablename as table, policyname as name, cmd, roles::text[] as roles, qual, with_check as check
    from pg_catalog.pg_policies where schemaname = 'public' order by 1, 2`;

  it('names one role per policy, or the public reads every caller shares', async () => {
    const all = await policies();
    expect(all.length).toBeGreaterThan(30);
    const shared = all.filter((p) => p.roles.length > 1);
    // Public lists and the contact form: the same rule for every caller, so one policy serves all
    // (anyone's list of games is the active ones; staff read them all through their own policy).
    expect(shared.map((p) => `${p.table} ${p.cmd} ${p.roles.join(',')}`)).toEqual([
      'contact_submission INSERT anon,authenticated,staff',
      'currency SELECT anon,authenticated,staff',
      'game SELECT anon,authenticated',
      'game_free_rounds SELECT anon,authenticated',
      'game_provider SELECT anon,authenticated,staff',
      'jurisdiction SELECT authenticated,staff',
    ]);
    expect(all.every((p) => p.roles.every((role) => ['anon', 'authenticated', 'staff'].includes(role)))).toBe(true);
  });

  it('gives clients no staff arm: no policy of authenticated calls is_staff()', async () => {
    const clients = (await policies()).filter((p) => p.roles.includes('authenticated'));
    expect(clients.length).toBeGreaterThan(10);
    expect(clients.filter((p) => `${p.qual} ${p.check}`.includes('is_staff'))).toEqual([]);
  });

  it('lets staff read with no condition and write only while is_staff() holds', async () => {
    const staff = (await policies()).filter((p) => p.roles.length === 1 && p.roles[0] === 'staff');
    const reads = staff.filter((p) => p.cmd === 'SELECT');
    expect(reads.map((p) => p.table)).toEqual(['api_key', 'app_setting', 'client_contract', 'client_jurisdiction', 'contact_submission', 'event', 'free_round_campaign', 'free_round_grant', 'game',
      'game_free_rounds', 'game_round', 'game_session', 'held_win', 'monthly_statement', 'player_restriction', 'player_restriction_audit', 'profile', 'provider_key', 'round_transaction', 'sandbox_player', 'sandbox_transaction', 'sandbox_wallet', 'sportsbook_bet', 'support_ticket', 'support_ticket_message', 'transaction',
      'user_role', 'wallet', 'wallet_call', 'wallet_setting', 'webhook_attempt', 'webhook_delivery', 'webhook_endpoint', 'win_limit']);
    expect(reads.filter((p) => p.qual !== 'true')).toEqual([]);
    const writes = staff.filter((p) => p.cmd !== 'SELECT');
    expect(writes.length).toBeGreaterThan(20);
    expect(writes.filter((p) => !`${p.qual ?? ''} ${p.check ?? ''}`.includes('private.is_staff()'))).toEqual([]);
  });

  it('makes a client\'s unfiltered read an index condition on its owner column', async () => {
    const { alice } = await cast(sql);
    await openWallet(sql, alice);
    const planOf = (query: string) => as(sql, alice, async (tx) => {
      // A tiny table would be scanned whole whatever the policy; the question is whether it can use the index.
      await tx`set local enable_seqscan = off`;
      const [row] = await tx.unsafe(`explain (format json) ${query}`);
      return JSON.stringify(row['QUERY PLAN']);
    });
    // No ORDER BY: on the test database's few rows, walking the created_at index and filtering can
    // cost the same as the client's index, and the question is only whether the policy can be a condition.
    for (const query of [
      'select * from public.transaction',
      'select count(*) from public.transaction',
      'select * from public.wallet',
    ]) {
      expect(await planOf(query), query).toMatch(/"Index Cond":"\(client_id = \(InitPlan 1\)\.col1\)"/);
    }
  });

  it('is served as the token hook says: staff get the staff role, clients and lapsed staff authenticated', async () => {
    const { alice, mona, adam } = await cast(sql);
    expect((await signIn(sql, alice)).claims).toMatchObject({ role: 'authenticated', user_role: 'client', sub: alice.id });
    expect((await signIn(sql, mona)).claims).toMatchObject({ role: 'staff', user_role: 'manager', sub: mona.id });
    expect((await signIn(sql, adam)).claims).toMatchObject({ role: 'staff', user_role: 'admin', sub: adam.id });
    await sql`update public.profile set status = 'suspended' where id = ${adam.id}`;
    expect((await signIn(sql, adam)).claims).toMatchObject({ role: 'authenticated', user_role: 'client' });
    await sql`delete from public.user_role where user_id = ${mona.id} and role = 'manager'`;
    expect((await signIn(sql, mona)).claims).toMatchObject({ role: 'authenticated', user_role: 'client' });
  });

  it('is guarded by PostgREST\'s pre-request function, set on the authenticator role in this database', async () => {
    const [row] = await sql`
      select s.setconfig from pg_catalog.pg_db_role_setting s
      join pg_catalog.pg_roles r on r.oid = s.setrole
      join pg_catalog.pg_database d on d.oid = s.setdatabase
      where r.rolname = 'authenticator' and d.datname = current_database()`;
    expect(row.setconfig).toContain('pgrst.db_pre_request=private.check_request');
    // Staff reads grant every row and count on that function: no table may reach a caller by
    // another road that skips it (Realtime's changes of a table in a publication). The local stack
    // has no publication at all; against a Supabase project (TEST_DATABASE_URL) this is the check.
    const published = await sql`select tablename from pg_catalog.pg_publication_tables where schemaname = 'public'`;
    expect(published).toEqual([]);
  });
});
