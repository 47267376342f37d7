// A staff account whose profile is suspended or closed, or that lost admin and manager, has no staff
// powers left: closing it is how a staff member who has written to clients is retired (the account
// cannot be deleted), and Supabase Auth still lets it sign in. Signing in again, it gets a client's
// token; a staff token it still holds is refused from the next request on, not when it expires.
// Reactivated, it has its powers again.
import type { Sql, TransactionSql } from 'postgres';
import { describe, expect, it } from 'vitest';
import { as, cast, connect, grantModes, outcome, signIn } from '../helpers/db.ts';
import { openWallet } from '../ledger/record.ts';

describe.each(grantModes)('staff with a profile that is not active (%s)', (mode) => {
  const sql = connect(mode);

  it.each(['suspended', 'closed'])('a %s manager reads, changes and records nothing of clients', async (status) => {
    const { alice, mona } = await cast(sql);
    await openWallet(sql, alice);
    await sql`update public.profile set status = ${status} where id = ${mona.id}`;

    const seen = await as(sql, mona, (tx) => tx`
      select (select count(*)::int from public.wallet where client_id = ${alice.id}) as wallets,
             (select count(*)::int from public.profile where id = ${alice.id}) as profiles`);
    expect(seen).toEqual([{ wallets: 0, profiles: 0 }]);
    if (mode === 'explicit grants') {
      expect(await outcome(() => as(sql, mona, (tx) => tx`select * from public.app_setting`))).toBe('42501');
    } else {
      expect(await as(sql, mona, (tx) => tx`select * from public.app_setting`)).toEqual([]);
    }
    // Refused for want of a grant, or (where the older default grants give one) no row to touch.
    let changed: readonly unknown[] = [];
    const update = await outcome(async () => {
      changed = await as(sql, mona, (tx) => tx`update public.wallet set balance = 1000000 where client_id = ${alice.id} returning id`);
    });
    expect(update).toBe(mode === 'explicit grants' ? '42501' : 'ok');
    expect(changed).toHaveLength(0);
    expect(await outcome(() => as(sql, mona, (tx) =>
      tx`select * from public.record_transaction(${alice.id}::uuid, 'USD', 'deposit', 10)`))).toBe('42501');
    expect(await outcome(() => as(sql, mona, (tx) => tx`select * from public.issue_api_key(${alice.id})`))).toBe('42501');
    const [wallet] = await sql`select balance from public.wallet where client_id = ${alice.id}`;
    expect(wallet.balance).toBe('0.0000');
    // Nor may she make herself active again: status is staff's to change, and she is not staff now.
    expect(await outcome(() => as(sql, mona, (tx) => tx`update public.profile set status = 'active' where id = ${mona.id}`)))
      .toBe('42501');
    expect((await sql`select status from public.profile where id = ${mona.id}`)[0].status).toBe(status);
  });

  it.each([
    ['suspended', (sql: Sql, id: string) =>
      sql`update public.profile set status = 'suspended' where id = ${id}`],
    ['closed', (sql: Sql, id: string) =>
      sql`update public.profile set status = 'closed' where id = ${id}`],
    ['demoted to client', (sql: Sql, id: string) =>
      sql`delete from public.user_role where user_id = ${id} and role = 'manager'`],
  ] as const)('a staff token issued before its holder was %s is refused on every request (42501)', async (_, lapse) => {
    const { alice, mona } = await cast(sql);
    await openWallet(sql, alice);
    const token = await signIn(sql, mona);
    expect(token.claims.role).toBe('staff');
    // While she is staff, the token works.
    expect(await as(sql, token, (tx) => tx`select id from public.wallet where client_id = ${alice.id}`)).toHaveLength(1);
    await lapse(sql, mona.id);

    for (const request of [
      (tx: TransactionSql) => tx`select id from public.wallet where client_id = ${alice.id}`,
      (tx: TransactionSql) => tx`select count(*) from public.transaction`,
      (tx: TransactionSql) => tx`update public.wallet set balance = 1000000 where client_id = ${alice.id}`,
      (tx: TransactionSql) => tx`select * from public.record_transaction(${alice.id}::uuid, 'USD', 'deposit', 10)`,
      (tx: TransactionSql) => tx`select * from public.issue_api_key(${alice.id})`,
    ]) {
      expect(await outcome(() => as(sql, token, request))).toBe('42501');
    }
    const [wallet] = await sql`select balance from public.wallet where client_id = ${alice.id}`;
    expect(wallet.balance).toBe('0.0000');
  });

  it('a lapsed staff token on a road that skips the pre-request check still writes nothing: staff writes check again', async () => {
    const { alice, mona } = await cast(sql);
    await openWallet(sql, alice);
    const token = await signIn(sql, mona);
    await sql`update public.profile set status = 'suspended' where id = ${mona.id}`;
    // As a request without PostgREST's pre-request function: the role and claims alone.
    const bare = <T>(fn: (tx: TransactionSql) => Promise<T>) => sql.begin(async (tx) => {
      await tx`select set_config('role', 'staff', true), set_config('request.jwt.claims', ${JSON.stringify(token.claims)}, true)`;
      return fn(tx);
    }) as Promise<T>;
    expect(await bare((tx) => tx`update public.wallet set balance = 1000000 where client_id = ${alice.id} returning id`)).toHaveLength(0);
    expect(await bare((tx) => tx`delete from public.wallet where client_id = ${alice.id} returning id`)).toHaveLength(0);
    expect(await outcome(() => bare((tx) => tx`select * from public.record_transaction(${alice.id}::uuid, 'USD', 'deposit', 10)`)))
      .toBe('42501');
    expect(await outcome(() => bare((tx) => tx`select * from public.issue_api_key(${alice.id})`))).toBe('42501');
    const [wallet] = await sql`select balance from public.wallet where client_id = ${alice.id}`;
    expect(wallet.balance).toBe('0.0000');
  });

  it('a manager made active again has staff powers again', async () => {
    const { alice, mona } = await cast(sql);
    await openWallet(sql, alice);
    await sql`update public.profile set status = 'closed' where id = ${mona.id}`;
    await sql`update public.profile set status = 'active' where id = ${mona.id}`;

    const [row] = await as(sql, mona, (tx) =>
      tx`select * from public.record_transaction(${alice.id}::uuid, 'USD', 'deposit', 10)`);
    expect(row).toMatchObject({ balance_after: '10.0000', created_by: mona.id });
  });
});
