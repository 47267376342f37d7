// Rules that make a caller write in its own name only (spec 5), beyond the access matrix:
// tickets are opened for oneself, messages are signed by their author, profiles keep their
// staff-owned fields, and visitors cannot pre-mark a contact message as handled.
import { beforeAll, describe, expect, test } from 'vitest';
import { type Cast, as, cast, connect, grantModes, outcome, signUp } from '../helpers/db.ts';

describe.each(grantModes)('writing in one\'s own name (%s)', (mode) => {
  const sql = connect(mode);
  let c: Cast;
  beforeAll(async () => {
    c = await cast(sql);
  });

  const ticketOf = async (clientId: string) =>
    (await sql`insert into public.support_ticket (client_id, subject) values (${clientId}, 'Help') returning id`)[0].id as string;
  const messageCount = async (ticketId: string) =>
    Number((await sql`select count(*) from public.support_ticket_message where ticket_id = ${ticketId}`)[0].count);

  test('a client may not open a ticket in another client\'s name', async () => {
    const result = await outcome(() =>
      as(sql, c.alice, (tx) => tx`insert into public.support_ticket (client_id, subject) values (${c.eve.id}, 'Mine?')`),
    );
    expect(result).toBe('42501');
    expect((await sql`select 1 from public.support_ticket where client_id = ${c.eve.id} and subject = 'Mine?'`).length).toBe(0);
  });

  test('a client may not open a ticket already closed, assigned, prioritised or dated', async () => {
    const extras = [
      { status: 'closed' }, { assigned_to: c.mona.id }, { created_at: new Date('2000-01-01') },
      { priority: 'urgent' }, { updated_at: new Date('2999-01-01') },
    ];
    for (const extra of extras) {
      const row = { client_id: c.alice.id, subject: 'Sneaky', ...extra };
      expect(await outcome(() => as(sql, c.alice, (tx) => tx`insert into public.support_ticket ${tx(row)}`))).toBe('42501');
    }
    expect((await sql`select 1 from public.support_ticket where client_id = ${c.alice.id} and subject = 'Sneaky'`).length).toBe(0);
  });

  test('staff may open a ticket for a client, with any status', async () => {
    const row = { client_id: c.alice.id, subject: 'Opened by staff', status: 'pending', assigned_to: c.mona.id };
    expect(await outcome(() => as(sql, c.mona, (tx) => tx`insert into public.support_ticket ${tx(row)}`))).toBe('ok');
  });

  test('a ticket owner may not sign a message with another account', async () => {
    const ticket = await ticketOf(c.alice.id);
    const row = { ticket_id: ticket, author_id: c.mona.id, body: 'Support says: refund approved' };
    expect(await outcome(() => as(sql, c.alice, (tx) => tx`insert into public.support_ticket_message ${tx(row)}`))).toBe('42501');
    expect(await messageCount(ticket)).toBe(0);
  });

  test('staff may not sign a message with another account', async () => {
    const ticket = await ticketOf(c.alice.id);
    const row = { ticket_id: ticket, author_id: c.adam.id, body: 'Admin says hi' };
    expect(await outcome(() => as(sql, c.mona, (tx) => tx`insert into public.support_ticket_message ${tx(row)}`))).toBe('42501');
    expect(await messageCount(ticket)).toBe(0);
  });

  test('nobody may back-date a message, staff included', async () => {
    const ticket = await ticketOf(c.alice.id);
    for (const who of [c.alice, c.mona]) {
      const row = { ticket_id: ticket, author_id: who.id, body: 'Written long ago', created_at: new Date('2000-01-01') };
      expect(await outcome(() => as(sql, who, (tx) => tx`insert into public.support_ticket_message ${tx(row)}`))).toBe('42501');
    }
    expect(await messageCount(ticket)).toBe(0);
  });

  test('a client may not write on another client\'s ticket, even in its own name', async () => {
    const ticket = await ticketOf(c.eve.id);
    const row = { ticket_id: ticket, author_id: c.alice.id, body: 'Hello Eve' };
    expect(await outcome(() => as(sql, c.alice, (tx) => tx`insert into public.support_ticket_message ${tx(row)}`))).toBe('42501');
    expect(await messageCount(ticket)).toBe(0);
  });

  test('a client may not read the messages of another client\'s ticket', async () => {
    const ticket = await ticketOf(c.eve.id);
    await sql`insert into public.support_ticket_message (ticket_id, author_id, body) values (${ticket}, ${c.eve.id}, 'Private')`;
    const rows = await as(sql, c.alice, (tx) => tx`select * from public.support_ticket_message where ticket_id = ${ticket}`);
    expect(rows).toHaveLength(0);
  });

  test('a profile owner may change its presentational fields', async () => {
    const change = { username: `alice-${c.alice.id.slice(0, 6)}`, display_name: 'Alice A.', messaging_handle: '@alice' };
    expect(await outcome(() => as(sql, c.alice, (tx) => tx`update public.profile set ${tx(change)} where id = ${c.alice.id}`))).toBe('ok');
    const [row] = await sql`select username, display_name, messaging_handle from public.profile where id = ${c.alice.id}`;
    expect(row).toEqual(change);
  });

  test('a profile owner may not change its status, email, id or created_at', async () => {
    const [before] = await sql`select * from public.profile where id = ${c.alice.id}`;
    const attempts = [
      { status: 'active' === before.status ? 'suspended' : 'active' }, { email: 'new@example.test' },
      { created_at: new Date('2000-01-01') }, { id: c.eve.id },
    ];
    for (const change of attempts) {
      const result = await outcome(() => as(sql, c.alice, (tx) => tx`update public.profile set ${tx(change)} where id = ${c.alice.id}`));
      expect(result, JSON.stringify(change)).toBe('42501');
    }
    const [after] = await sql`select * from public.profile where id = ${c.alice.id}`;
    expect(after).toEqual(before);
  });

  test('an account may not create its own profile: the service does, at sign-up (spec 2.13)', async () => {
    const carol = await signUp(sql, 'carol');
    await sql`delete from public.profile where id = ${carol.id}`;
    const row = { id: carol.id, username: `carol-${carol.id.slice(0, 6)}` };
    expect(await outcome(() => as(sql, carol, (tx) => tx`insert into public.profile ${tx(row)}`))).toBe('42501');
    expect(await sql`select 1 from public.profile where id = ${carol.id}`).toHaveLength(0);
  });

  test('staff may change a profile\'s status and email', async () => {
    const change = { status: 'suspended', email: 'eve.new@example.test' };
    expect(await outcome(() => as(sql, c.adam, (tx) => tx`update public.profile set ${tx(change)} where id = ${c.eve.id}`))).toBe('ok');
    const [row] = await sql`select status, email from public.profile where id = ${c.eve.id}`;
    expect(row).toEqual(change);
  });

  test('a visitor may not send a contact message marked as handled or back-dated', async () => {
    const marker = `pre-marked ${c.alice.id}`;
    for (const extra of [{ status: 'handled' }, { created_at: new Date('2000-01-01') }]) {
      const row = { name: 'Mallory', email: 'mallory@example.test', message: marker, ...extra };
      expect(await outcome(() => as(sql, 'anon', (tx) => tx`insert into public.contact_submission ${tx(row)}`))).toBe('42501');
    }
    expect((await sql`select 1 from public.contact_submission where message = ${marker}`).length).toBe(0);
  });
});
