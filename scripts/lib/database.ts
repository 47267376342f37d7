// Bringing a database to this project's schema: Supabase's shape where it is missing, then the
// migrations in supabase/migrations (node-pg-migrate, one transaction), optionally the seed.
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

/**
 * Refuses a database that ran migrations this project no longer has (the folded files of 3.2.x,
 * before any release): node-pg-migrate would call it up to date, or apply the rest out of order.
 */
async function refuseUnknownMigrations(url: string): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const [{ table }] = await sql`select to_regclass('supabase_migrations.node_pg_migrate')::text as table`;
    if (!table) return;
    const files = new Set((await readdir(paths.migrations)).map((file) => file.replace(/\.sql$/, '')));
    const unknown = (await sql`select name from supabase_migrations.node_pg_migrate order by run_on`)
      .map((row) => row.name as string)
      .filter((name) => !files.has(name));
    if (unknown.length) {
      throw new Error(`this database ran migrations that no longer exist (${unknown.join(', ')}): it was made by an ` +
        'earlier development version; recreate it (for the embedded default, delete the data folder npm start names)');
    }
  } finally {
    await sql.end();
  }
}

export async function migrate(url: string): Promise<string[]> {
  await refuseUnknownMigrations(url);
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
