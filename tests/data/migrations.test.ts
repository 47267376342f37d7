// A database that ran migrations this project no longer has is refused, naming them, rather than
// called up to date: the migrations were folded before any release, and such a database (a
// developer's .data/postgres) would otherwise miss every rule the folded files carry.
import postgres from 'postgres';
import { afterAll, expect, inject, test } from 'vitest';
import { freshMigratedDatabase, migrate, withDatabase } from '../../scripts/lib/database.ts';

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
