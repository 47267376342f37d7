// Bringing a database to this project's schema: Supabase's shape where it is missing, then the
// migrations in supabase/migrations (node-pg-migrate, one transaction), optionally the seed.
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { runner } from 'node-pg-migrate';
import postgres from 'postgres';

const root = fileURLToPath(new URL('../../', import.meta.url));
export const paths = {
  root,
  /**
   * supabase/migrations, or the folder CGS_MIGRATIONS_DIR names: the SQL mutation harness
   * (scripts/mutants/sql.ts) points a test run at a mutated copy, never at the files themselves.
   */
  get migrations(): string {
    return process.env.CGS_MIGRATIONS_DIR || `${root}supabase/migrations`;
  },
  seed: `${root}supabase/seed.sql`,
  shape: `${root}scripts/local/supabase-shape.sql`,
};

export interface PrepareOptions {
  /** Grant everything in `public` to the API roles by default, as Supabase did before 2026-10-30. */
  legacyDefaultGrants?: boolean;
  /** Load supabase/seed.sql after migrating (demo content; never in production). */
  seed?: boolean;
}

/** Runs one SQL file as a simple query (several statements, no parameters). */
export async function runSqlFile(url: string, file: string): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await sql.unsafe(await readFile(file, 'utf8')).simple();
  } finally {
    await sql.end();
  }
}

/** What the database has already: Supabase's shape (a Supabase stack or our emulation), migrations. */
async function inspect(url: string): Promise<{ shaped: boolean; migrated: boolean }> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const [row] = await sql`
      select to_regclass('auth.users') is not null as shaped,
             to_regclass('supabase_migrations.node_pg_migrate') is not null as migrated`;
    return { shaped: row.shaped, migrated: row.migrated };
  } finally {
    await sql.end();
  }
}

/** The lowercase hex SHA-256 of each migration file in `dir`, by migration name (the file without `.sql`). */
export async function migrationChecksums(dir = paths.migrations): Promise<Map<string, string>> {
  const files = (await readdir(dir)).filter((file) => file.endsWith('.sql')).sort();
  return new Map(await Promise.all(files.map(async (file) =>
    [file.replace(/\.sql$/, ''), createHash('sha256').update(await readFile(`${dir}/${file}`)).digest('hex')] as const)));
}

/** The migrations that reached a release, with their checksums: never edited again. */
export const frozenMigrationsFile = `${root}supabase/migrations.sha256`;

/** supabase/migrations.sha256 as a map of migration name to checksum (empty when there is none). */
export async function readFrozenMigrations(file = frozenMigrationsFile): Promise<Map<string, string>> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return new Map(text.split('\n').filter(Boolean).map((line) => {
    const [, sha256, name] = /^([0-9a-f]{64}) {2}(.+)\.sql$/.exec(line) ?? [];
    if (!name) throw new Error(`${file}: not a sha256sum line: ${line}`);
    return [name, sha256] as const;
  }));
}

const RECREATE = 'recreate it (for the embedded default, delete the data folder npm start names)';

/**
 * Refuses a database whose applied migrations are not this project's files as they are, naming them,
 * the way Flyway validates: one it no longer has (an earlier development version's), or one whose
 * file changed after it was applied (the database would keep the old function bodies while called up
 * to date). A checksum of each file is recorded when it is applied.
 */
async function validateAppliedMigrations(url: string): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const [{ table, checksums }] = await sql`
      select to_regclass('supabase_migrations.node_pg_migrate')::text as table,
             to_regclass('supabase_migrations.checksum')::text as checksums`;
    if (!table) return;
    const files = await migrationChecksums();
    const applied = await sql<{ name: string; sha256: string | null }[]>`
      select m.name, ${checksums ? sql`c.sha256` : sql`null::text`} as sha256
      from supabase_migrations.node_pg_migrate m
      ${checksums ? sql`left join supabase_migrations.checksum c on c.name = m.name` : sql``}
      order by m.run_on, m.id`;
    const unknown = applied.filter((m) => !files.has(m.name)).map((m) => m.name);
    if (unknown.length) {
      throw new Error(`this database ran migrations that no longer exist (${unknown.join(', ')}): it was made by an ` +
        `earlier development version; ${RECREATE}`);
    }
    const changed = applied.filter((m) => m.sha256 !== files.get(m.name)).map((m) => m.name);
    if (changed.length) {
      throw new Error(`this database applied migrations whose files have changed since, or were applied without a ` +
        `checksum (${changed.join(', ')}): it runs what those files said then; ${RECREATE}`);
    }
  } finally {
    await sql.end();
  }
}

/** Records the checksum of each applied migration that has none yet. */
async function recordChecksums(url: string): Promise<void> {
  const files = await migrationChecksums();
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await sql`create table if not exists supabase_migrations.checksum (name text primary key, sha256 text not null)`;
    const names = (await sql`select name from supabase_migrations.node_pg_migrate`).map((row) => row.name as string);
    const rows = names.map((name) => ({ name, sha256: files.get(name)! }));
    if (rows.length) await sql`insert into supabase_migrations.checksum ${sql(rows)} on conflict (name) do nothing`;
  } finally {
    await sql.end();
  }
}

export async function migrate(url: string): Promise<string[]> {
  await validateAppliedMigrations(url);
  const applied = await runner({
    databaseUrl: url,
    dir: paths.migrations,
    direction: 'up',
    migrationsSchema: 'supabase_migrations',
    migrationsTable: 'node_pg_migrate',
    createMigrationsSchema: true,
    checkOrder: true,
    singleTransaction: true,
    log: () => {},
  });
  await recordChecksums(url);
  return applied.map((m) => m.name);
}

export async function prepareDatabase(url: string, options: PrepareOptions = {}): Promise<string[]> {
  const before = await inspect(url);
  if (!before.shaped) await runSqlFile(url, paths.shape);
  if (options.legacyDefaultGrants) {
    const sql = postgres(url, { max: 1, onnotice: () => {} });
    try {
      await sql.unsafe(`
        alter default privileges in schema public grant all on tables to anon, authenticated, service_role;
        alter default privileges in schema public grant all on sequences to anon, authenticated, service_role;
        alter default privileges in schema public grant all on functions to anon, authenticated, service_role;
      `).simple();
    } finally {
      await sql.end();
    }
  }
  const applied = await migrate(url);
  if (options.seed && !before.migrated) await runSqlFile(url, paths.seed);
  return applied;
}

/** A URL for another database on the same server. */
export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/** Drops and recreates a database next to the one `adminUrl` points at, and migrates it. */
export async function freshMigratedDatabase(adminUrl: string, database: string, options: PrepareOptions = {}): Promise<string> {
  const sql = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    await sql.unsafe(`drop database if exists "${database}" with (force)`);
    await sql.unsafe(`create database "${database}"`);
  } finally {
    await sql.end();
  }
  const url = withDatabase(adminUrl, database);
  await prepareDatabase(url, options);
  return url;
}
