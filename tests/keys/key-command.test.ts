// `npm run key`: the service's operators issue a key (printed once) and revoke it by id, prefix
// or the key itself, on DATABASE_URL.
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { runScript } from '../helpers/command.ts';
import { type Account, connect, signUp } from '../helpers/db.ts';

const sql = connect();
let carol: Account;

beforeAll(async () => {
  carol = await signUp(sql, 'carol');
});

const key = (...args: string[]) => runScript('scripts/key.ts', ...args);

// Each test starts tsx a few times, a process with TypeScript to load: on a loaded machine that alone
// can take longer than the suite's default timeout.
describe('npm run key', { timeout: 120_000 }, () => {
  it('issues a key for a client by e-mail, prints it once, stores only its hash; revokes it by prefix', async () => {
    const issued = await key('issue', '--client', carol.email.toUpperCase(), '--label', 'Staging');
    expect(issued.code).toBe(0);
    const printed = /cgs_live_[A-Za-z0-9_-]{43}/.exec(issued.out)![0];
    const [row] = await sql`select id, label, status, key_prefix from public.api_key where key_hash = ${createHash('sha256').update(printed).digest('hex')}`;
    expect(row).toMatchObject({ label: 'Staging', status: 'active', key_prefix: printed.slice(0, 16) });

    const revoked = await key('revoke', row.key_prefix);
    expect(revoked.code).toBe(0);
    const [after] = await sql`select status, revoked_at from public.api_key where id = ${row.id}`;
    expect(after).toMatchObject({ status: 'revoked', revoked_at: expect.any(Date) });
  });

  it('issues by account id and revokes by id or by the key itself', async () => {
    const issued = await key('issue', '--client', carol.id);
    const printed = /cgs_live_[A-Za-z0-9_-]{43}/.exec(issued.out)![0];
    expect((await key('revoke', printed)).code).toBe(0);
    const [row] = await sql`select id, label, status from public.api_key where key_prefix = ${printed.slice(0, 16)}`;
    expect(row).toMatchObject({ label: 'Default', status: 'revoked' });
    expect((await key('revoke', row.id)).code).toBe(0);
  });

  it('issues a test key with --test, and lists each key with its mode', async () => {
    const issued = await key('issue', '--client', carol.email, '--test');
    expect(issued.out).toContain('Test API key');
    const printed = /cgs_test_[A-Za-z0-9_-]{43}/.exec(issued.out)![0];
    const [row] = await sql`select livemode from public.api_key where key_hash = ${createHash('sha256').update(printed).digest('hex')}`;
    expect(row.livemode).toBe(false);
    const listed = await key('list', '--client', carol.email);
    expect(listed.out).toMatch(new RegExp(`${printed.slice(0, 16)}.*test`));
  });

  it('issues a provider key for a provider slug, and revokes it by prefix', async () => {
    const issued = await key('issue', '--provider', 'spribe', '--label', 'Game server');
    expect(issued.code).toBe(0);
    const printed = /cgs_prov_[A-Za-z0-9_-]{43}/.exec(issued.out)![0];
    const [row] = await sql`select id, label, status from public.provider_key where key_hash = ${createHash('sha256').update(printed).digest('hex')}`;
    expect(row).toMatchObject({ label: 'Game server', status: 'active' });
    expect((await key('revoke-provider', printed.slice(0, 16))).code).toBe(0);
    expect((await sql`select status from public.provider_key where id = ${row.id}`)[0].status).toBe('revoked');
    expect(await key('issue', '--provider', 'nobody')).toMatchObject({ code: 1, out: expect.stringContaining('no provider nobody') });
  });

  it('fails with a message and exit code 1 for an unknown client, key or command', async () => {
    expect(await key('issue', '--client', 'nobody@example.test')).toMatchObject({ code: 1, out: expect.stringContaining('no account') });
    expect(await key('revoke', 'cgs_live_nothing')).toMatchObject({ code: 1, out: expect.stringContaining('no api key') });
    expect(await key('frobnicate')).toMatchObject({ code: 1, out: expect.stringContaining('usage') });
  });
});
