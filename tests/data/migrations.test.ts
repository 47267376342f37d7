// A database whose applied migrations are not this project's files as they are is refused, naming
// them, rather than called up to date (the way Flyway validates): one that ran migrations the project
// no longer has (a developer's .data/postgres from before a re-cut), or one whose files changed after
// they were applied, which would keep running the old function bodies. And a frozen migration (one
// that reached a release) is never edited.
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import postgres from 'postgres';
import { afterAll, expect, inject, test } from 'vitest';
import {
  freshMigratedDatabase, migrate, migrationChecksums, paths, readFrozenMigrations, withDatabase,
} from '../../scripts/lib/database.ts';

const DATABASE = `${new URL(inject('databaseUrl')).pathname.slice(1) || 'postgres'}_stale`;

afterAll(async () => {
  const admin = postgres(withDatabase(inject('databaseUrl'), 'postgres'), { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists "${DATABASE}" with (force)`).finally(() => admin.end());
});

test('a database that ran a migration the project no longer has is refused, by name', async () => {
  const url = await freshMigratedDatabase(inject('databaseUrl'), DATABASE);
  expect(await migrate(url)).toEqual([]); // up to date, and accepted
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  await sql`insert into supabase_migrations.node_pg_migrate (name, run_on) values ('20261121000800_api_key_lifecycle', now())`;
  await sql.end();
  await expect(migrate(url)).rejects.toThrow(/no longer exist \(20261121000800_api_key_lifecycle\).*recreate it/);
});

test('a database whose applied migration has changed since is refused, naming the file', async () => {
  const url = await freshMigratedDatabase(inject('databaseUrl'), DATABASE);
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  const recorded = new Map((await sql`select name, sha256 from supabase_migrations.checksum`).map((r) => [r.name, r.sha256]));
  await sql.end();
  expect(recorded).toEqual(await migrationChecksums());

  const copy = await mkdtemp(`${tmpdir()}/cgs-migrations-`);
  await cp(paths.migrations, copy, { recursive: true });
  const edited = `${copy}/20261121001600_round_engine.sql`;
  await writeFile(edited, `${await readFile(edited, 'utf8')}\n-- an edit after the file was applied\n`);
  process.env.CGS_MIGRATIONS_DIR = copy;
  try {
    await expect(migrate(url)).rejects.toThrow(/changed since.*\(20261121001600_round_engine\).*recreate it/);
  } finally {
    delete process.env.CGS_MIGRATIONS_DIR;
    await rm(copy, { recursive: true });
  }
  expect(await migrate(url)).toEqual([]); // the files as they are: accepted
});

test('every frozen migration (supabase/migrations.sha256) is there, unchanged', async () => {
  const frozen = await readFrozenMigrations();
  const files = await migrationChecksums();
  expect(frozen.size).toBeGreaterThan(0);
  expect([...frozen].filter(([name, sha256]) => files.get(name) !== sha256).map(([name]) => name)).toEqual([]);
});

test('a frozen list that is not sha256sum lines is refused', async () => {
  const dir = await mkdtemp(`${tmpdir()}/cgs-frozen-`);
  try {
    await writeFile(`${dir}/list`, 'f00  20261121000100_accounts_and_roles.sql\n');
    await expect(readFrozenMigrations(`${dir}/list`)).rejects.toThrow(/not a sha256sum line/);
  } finally {
    await rm(dir, { recursive: true });
  }
});
