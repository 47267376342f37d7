// A staff account whose profile is suspended or closed has no staff powers left: closing it is how a
// staff member who has written to clients is retired (the account cannot be deleted), and Supabase
// Auth still lets it sign in. Reactivated, it has them again.
import { describe, expect, it } from 'vitest';
import { as, cast, connect, grantModes, outcome } from '../helpers/db.ts';
import { openWallet } from '../ledger/record.ts';

describe.each(grantModes)('staff with a profile that is not active (%s)', (mode) => {
  const sql = connect(mode);

  it.each(['suspended', 'closed'])('a %s manager reads, changes and records nothing of clients', async (status) => {
    const { alice, mona } = await cast(sql);
    await openWallet(sql, alice);
    await sql`update public.profile set status = ${status} where id = ${mona.id}`;

    const seen = await as(sql, mona, (tx) => tx`
      select (select count(*)::int from public.wallet where client_id = ${alice.id}) as wallets,
             (select count(*)::int from public.profile where id = ${alice.id}) as profiles,
             (select count(*)::int from public.app_setting) as settings`);
    expect(seen).toEqual([{ wallets: 0, profiles: 0, settings: 0 }]);
    const changed = await as(sql, mona, (tx) =>
      tx`update public.wallet set balance = 1000000 where client_id = ${alice.id} returning id`);
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
