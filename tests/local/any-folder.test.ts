// The embedded Postgres starts from any folder, as root too: a project cloned under /root or a
// 0700 folder, whose binaries and data directory the postgres system user (which Postgres runs as
// when started by root) cannot reach. What it cannot reach moves to root-owned folders of ours;
// the user's folder keeps its permissions.
import { cp, mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { installedNative, startEmbeddedPostgres } from '../../scripts/lib/embedded-postgres.ts';

const asRoot = process.getuid?.() === 0;
if (!asRoot) console.warn('tests/local/any-folder.test.ts: not root, so Postgres runs as this user and nothing moves; skipped');

describe.skipIf(!asRoot)('as root, from a folder the postgres user cannot enter', () => {
  const cleanup: string[] = [];
  afterAll(async () => {
    for (const path of cleanup) await rm(path, { recursive: true, force: true });
  });

  it('runs Postgres from binaries and a data directory inside a 0700 folder, leaving that folder 0700', async () => {
    const closed = await mkdtemp(join(tmpdir(), 'cgs-closed-')); // mkdtemp makes it 0700
    // Our stand-ins for /var/cache and /var/lib: root-owned and open to read, like those.
    const homes = { binaries: join(tmpdir(), `cgs-homes-${process.pid}`, 'cache'), data: join(tmpdir(), `cgs-homes-${process.pid}`, 'lib') };
    cleanup.push(closed, join(tmpdir(), `cgs-homes-${process.pid}`));
    await mkdir(join(tmpdir(), `cgs-homes-${process.pid}`), { mode: 0o755 });
    const native = join(closed, 'node_modules', 'native');
    await cp(await installedNative(), native, { recursive: true, verbatimSymlinks: true });

    const pg = await startEmbeddedPostgres({ dir: join(closed, '.data', 'postgres'), port: 0, persistent: false, fast: true, native, homes });
    try {
      const sql = postgres(pg.url, { max: 1, onnotice: () => {} });
      const [row] = await sql`
        select current_setting('server_version_num')::int / 10000 as major,
               current_setting('data_directory') as data,
               (select setting from pg_config where name = 'BINDIR') as bin`;
      await sql.end();
      expect(row.major).toBe(17);
      // The server runs from the copy in the cache and keeps its data in our folder, not in the closed one.
      expect(row.bin.startsWith(`${homes.binaries}/`)).toBe(true);
      expect(row.data).toBe(pg.dir);
      expect(pg.dir.startsWith(`${homes.data}/`)).toBe(true);
    } finally {
      await pg.stop();
    }
    expect((await stat(closed)).mode & 0o777).toBe(0o700);
  }, 60_000);

  it('leaves a data directory where it is when the postgres user can reach it', async () => {
    const open = join(tmpdir(), `cgs-open-${process.pid}-${Date.now()}`);
    cleanup.push(open);
    const pg = await startEmbeddedPostgres({ dir: join(open, 'data'), port: 0, persistent: false, fast: true });
    try {
      expect(pg.dir).toBe(join(open, 'data'));
    } finally {
      await pg.stop();
    }
  }, 60_000);
});
