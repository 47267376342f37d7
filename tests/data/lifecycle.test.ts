// updated_at refreshed on every update where the spec says so (and only there), and what
// goes with an account or a ticket when it is removed.
import { randomUUID } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { connect, outcome, signUp } from '../helpers/db.ts';

describe('updated_at and removal', () => {
  const sql = connect();

  test('updated_at is set to the current time on every update of profile, wallet and support_ticket', async () => {
    const alice = await signUp(sql, 'alice');
    const [wallet] = await sql`insert into public.wallet (client_id, currency_code) values (${alice.id}, 'USD') returning id`;
    const [ticket] = await sql`insert into public.support_ticket (client_id, subject) values (${alice.id}, 'Hi') returning id`;
    const stale = new Date('2020-01-01T00:00:00Z');
    const updates = [
      { table: 'profile', id: alice.id, change: { display_name: 'New name' } },
      { table: 'wallet', id: wallet.id, change: { is_primary: true } },
      { table: 'support_ticket', id: ticket.id, change: { status: 'pending' } },
    ];
    for (const { table, id, change } of updates) {
      // Even an update that tries to set updated_at itself gets the current time.
      const [row] = await sql`update ${sql(table)} set ${sql({ ...change, updated_at: stale })} where id = ${id} returning updated_at, now() as now`;
      expect(row.updated_at, table).toEqual(row.now);
    }
  });

  test('app_setting.updated_at is not refreshed automatically', async () => {
    const key = `test.${randomUUID()}`;
    const stamp = new Date('2021-06-01T00:00:00Z');
    await sql`insert into public.app_setting (key, value, updated_at) values (${key}, '{}', ${stamp})`;
    const [row] = await sql`update public.app_setting set value = ${sql.json({ changed: true })} where key = ${key} returning updated_at`;
    await sql`delete from public.app_setting where key = ${key}`;
    expect(row.updated_at).toEqual(stamp);
  });

  test('removing an account removes its roles, profile, wallets, keys, transactions, tickets and their messages', async () => {
    const alice = await signUp(sql, 'alice');
    await sql`insert into public.wallet (client_id, currency_code) values (${alice.id}, 'USD')`;
    await sql`insert into public.api_key (client_id, key_prefix, key_hash) values (${alice.id}, 'cgs_live_gone', ${randomUUID().replaceAll('-', '').repeat(2)})`;
    await sql`insert into public.transaction (client_id, type, currency_code, amount) values (${alice.id}, 'deposit', 'USD', 1)`;
    const [ticket] = await sql`insert into public.support_ticket (client_id, subject) values (${alice.id}, 'Hi') returning id`;
    await sql`insert into public.support_ticket_message (ticket_id, author_id, body) values (${ticket.id}, ${alice.id}, 'Hello')`;

    await sql`delete from auth.users where id = ${alice.id}`;

    const [left] = await sql`
      select (select count(*) from public.user_role where user_id = ${alice.id})::int as roles,
             (select count(*) from public.profile where id = ${alice.id})::int as profiles,
             (select count(*) from public.wallet where client_id = ${alice.id})::int as wallets,
             (select count(*) from public.api_key where client_id = ${alice.id})::int as keys,
             (select count(*) from public.transaction where client_id = ${alice.id})::int as transactions,
             (select count(*) from public.support_ticket where client_id = ${alice.id})::int as tickets,
             (select count(*) from public.support_ticket_message where ticket_id = ${ticket.id})::int as messages`;
    expect(left).toEqual({ roles: 0, profiles: 0, wallets: 0, keys: 0, transactions: 0, tickets: 0, messages: 0 });
  });

  test('removing a ticket removes its messages', async () => {
    const alice = await signUp(sql, 'alice');
    const [ticket] = await sql`insert into public.support_ticket (client_id, subject) values (${alice.id}, 'Hi') returning id`;
    await sql`insert into public.support_ticket_message (ticket_id, author_id, body) values (${ticket.id}, ${alice.id}, 'Hello')`;
    await sql`delete from public.support_ticket where id = ${ticket.id}`;
    expect(await sql`select 1 from public.support_ticket_message where ticket_id = ${ticket.id}`).toHaveLength(0);
  });

  test('removing a staff account keeps the records it created or was assigned, unattributed', async () => {
    const alice = await signUp(sql, 'alice');
    const mona = await signUp(sql, 'mona', { roles: ['manager'] });
    const [tx] = await sql`
      insert into public.transaction (client_id, type, currency_code, amount, created_by) values (${alice.id}, 'deposit', 'USD', 1, ${mona.id})
      returning id`;
    const [ticket] = await sql`insert into public.support_ticket (client_id, subject, assigned_to) values (${alice.id}, 'Hi', ${mona.id}) returning id`;
    await sql`delete from auth.users where id = ${mona.id}`;
    expect((await sql`select created_by from public.transaction where id = ${tx.id}`)[0].created_by).toBeNull();
    expect((await sql`select assigned_to from public.support_ticket where id = ${ticket.id}`)[0].assigned_to).toBeNull();
  });

  test('a staff account that wrote to a client is kept, so the client keeps the conversation', async () => {
    const alice = await signUp(sql, 'alice');
    const mona = await signUp(sql, 'mona', { roles: ['manager'] });
    const [ticket] = await sql`insert into public.support_ticket (client_id, subject) values (${alice.id}, 'Hi') returning id`;
    await sql`insert into public.support_ticket_message (ticket_id, author_id, body) values (${ticket.id}, ${mona.id}, 'Answer')`;
    expect(await outcome(() => sql`delete from auth.users where id = ${mona.id}`)).toBe('23503');
    expect(await sql`select 1 from public.support_ticket_message where ticket_id = ${ticket.id}`).toHaveLength(1);
  });
});
