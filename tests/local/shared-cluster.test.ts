// A second command on the embedded default's data folder while a first runs it (`npm run key`
// while `npm start` serves): it uses the running server rather than failing to start another on
// the same folder, and leaves it running when it is done.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres } from '../../scripts/lib/embedded-postgres.ts';

describe('the embedded default, opened twice', () => {
  const folders: string[] = [];
  afterAll(async () => {
    for (const folder of folders) await rm(folder, { recursive: true, force: true });
  });

  it('connects the second opener to the running server, whose stop is not the second\'s to make', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'cgs-shared-'));
    folders.push(folder);
    const dir = join(folder, 'postgres');
    const first = await startEmbeddedPostgres({ dir, port: 0, persistent: true, fast: true });
    folders.push(first.dir); // where the data went, if root's postgres user could not reach the folder
    try {
      const second = await startEmbeddedPostgres({ dir, port: 0, persistent: true, fast: true });
      expect(second.port).toBe(first.port);
      await second.stop();
      const sql = postgres(first.url, { max: 1, onnotice: () => {} });
      expect((await sql`select 1 as one`)[0].one).toBe(1);
      await sql.end();
    } finally {
      await first.stop();
    }
    // Once the first has stopped, the next opener starts a server of its own on the folder.
    const third = await startEmbeddedPostgres({ dir, port: 0, persistent: true, fast: true });
    await third.stop();
  });
});
