// One throwaway Postgres for the whole run (or TEST_DATABASE_URL), migrated twice: once as a
// project created today (explicit grants only) and once with Supabase's older default grants
// (everything in public granted to the API roles), where RLS alone must hold.
import type { TestProject } from 'vitest/node';
import { freshMigratedDatabase, prepareDatabase } from '../../scripts/lib/database.ts';
import { importFixtureCatalogue } from '../../scripts/lib/fixture-catalogue.ts';
import { startThrowawayPostgres } from '../../scripts/lib/embedded-postgres.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
    legacyGrantsDatabaseUrl: string;
  }
}

export default async function setup(project: TestProject) {
  let url = process.env.TEST_DATABASE_URL;
  let stop = async () => {};
  if (!url) {
    const pg = await startThrowawayPostgres('test');
    url = pg.url;
    stop = pg.stop;
  }
  const database = new URL(url).pathname.slice(1) || 'postgres';
  // One after the other: the emulated shape creates cluster-wide roles, which two databases
  // migrating at once would both try to create.
  await prepareDatabase(url);
  const legacyUrl = await freshMigratedDatabase(url, `${database}_legacy_grants`, { legacyDefaultGrants: true });
  // The games sessions launch (tests needing another catalogue make their own games).
  await importFixtureCatalogue(url);
  await importFixtureCatalogue(legacyUrl);
  project.provide('databaseUrl', url);
  project.provide('legacyGrantsDatabaseUrl', legacyUrl);
  return stop;
}
