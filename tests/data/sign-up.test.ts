// Spec 2.13: an account created in the identity store gets a profile with the same id and the
// `client` role, exactly as Supabase Auth creates accounts (as supabase_auth_admin, search_path
// auth), and sign-up never fails because of the profile.
import { randomUUID } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { connect, signUp } from '../helpers/db.ts';

describe('account creation', () => {
  const sql = connect();
  const profileOf = async (id: string) => (await sql`select * from public.profile where id = ${id}`)[0];
  const rolesOf = async (id: string) =>
    (await sql`select role from public.user_role where user_id = ${id} order by role`).map((r) => r.role);

  test('a new account gets a profile with its id, e-mail and metadata names, status active', async () => {
    const tag = randomUUID().slice(0, 8);
    const account = await signUp(sql, 'meta', { metadata: { display_name: 'Meta Casino', username: `meta-${tag}` } });
    const profile = await profileOf(account.id);
    expect(profile).toMatchObject({
      id: account.id,
      email: account.email,
      display_name: 'Meta Casino',
      username: `meta-${tag}`,
      status: 'active',
    });
    expect(profile.created_at).toBeInstanceOf(Date);
  });

  test('without metadata, display_name and username are the e-mail before the @', async () => {
    const local = `plain.${randomUUID().slice(0, 8)}`;
    const account = await signUp(sql, 'plain', { email: `${local}@example.test` });
    expect(await profileOf(account.id)).toMatchObject({ display_name: local, username: local });
  });

  test('a new account is given the client role, once', async () => {
    const account = await signUp(sql, 'roles');
    expect(await rolesOf(account.id)).toEqual(['client']);
  });

  test('an existing profile and an existing client role are left unchanged', async () => {
    const id = randomUUID();
    // Put a profile and a role in place before the account exists (triggers and foreign keys
    // off), as a restore or an earlier run of the rule would leave them.
    await sql.begin(async (tx) => {
      await tx`set local session_replication_role = replica`;
      await tx`insert into public.profile (id, username, display_name, email) values (${id}, ${`kept-${id}`}, 'Kept', 'kept@example.test')`;
      await tx`insert into public.user_role (user_id, role) values (${id}, 'client')`;
    });
    const [profileBefore] = await sql`select * from public.profile where id = ${id}`;
    const [roleBefore] = await sql`select * from public.user_role where user_id = ${id}`;
    await sql.begin(async (tx) => {
      await tx`set local role supabase_auth_admin`;
      await tx`set local search_path = auth`;
      await tx.unsafe(`insert into users (id, email, raw_user_meta_data) values ($1, 'other@example.test', '{"display_name":"Other"}')`, [id]);
    });
    expect(await profileOf(id)).toEqual(profileBefore);
    expect(await sql`select * from public.user_role where user_id = ${id}`).toEqual([roleBefore]);
    await sql`delete from auth.users where id = ${id}`;
  });

  test('two accounts whose e-mails share the part before the @ both sign up, with distinct usernames', async () => {
    const local = `twin${randomUUID().slice(0, 8)}`;
    const first = await signUp(sql, 'twin', { email: `${local}@one.example` });
    const second = await signUp(sql, 'twin', { email: `${local}@two.example` });
    const [a, b] = [await profileOf(first.id), await profileOf(second.id)];
    expect(a.username).toBe(local);
    expect(b.username).toMatch(new RegExp(`^${local}-[0-9a-f]{8}$`));
    expect(b.display_name).toBe(local);
  });

  test('a metadata username already taken (in any case) still signs up, with a distinct username', async () => {
    const name = `Star${randomUUID().slice(0, 8)}`;
    await signUp(sql, 'star', { metadata: { username: name } });
    const second = await signUp(sql, 'star', { metadata: { username: name.toLowerCase() } });
    const profile = await profileOf(second.id);
    expect(profile.username.toLowerCase()).not.toBe(name.toLowerCase());
    expect(profile.username.startsWith(name.toLowerCase())).toBe(true);
  });

  test('many concurrent sign-ups racing for one username all succeed', async () => {
    const name = `race${randomUUID().slice(0, 8)}`;
    const accounts = await Promise.all(Array.from({ length: 8 }, () => signUp(sql, 'race', { metadata: { username: name } })));
    const usernames = (await sql`select username from public.profile where id = any(${accounts.map((a) => a.id)}::uuid[])`)
      .map((r) => r.username)
      .filter(Boolean);
    expect(new Set(usernames.map((u: string) => u.toLowerCase())).size).toBe(usernames.length);
    expect(await sql`select count(*)::int as n from public.profile where id = any(${accounts.map((a) => a.id)}::uuid[])`).toEqual([{ n: 8 }]);
  });

  test('over-long metadata is cut to the profile\'s bounds rather than failing the sign-up', async () => {
    const account = await signUp(sql, 'long', { metadata: { display_name: 'D'.repeat(500), username: `u${randomUUID()}${'x'.repeat(200)}` } });
    const profile = await profileOf(account.id);
    expect(profile.display_name).toHaveLength(128);
    expect(profile.username.length).toBeLessThanOrEqual(64);
  });

  test('an account without e-mail (phone sign-up) gets a profile without names', async () => {
    const account = await signUp(sql, 'phone', { email: null });
    expect(await profileOf(account.id)).toMatchObject({ email: null, username: null, display_name: null });
    expect(await rolesOf(account.id)).toEqual(['client']);
  });
});
