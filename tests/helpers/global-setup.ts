// One throwaway Postgres for the whole run (or TEST_DATABASE_URL), migrated twice: once as a
// project created today (explicit grants only) and once with Supabase's older default grants
// (everything in public granted to the API roles), where RLS alone must hold.
import type { TestProject } from 'vitest/node';
import { prepareDatabase, recreateDatabase } from '../../scripts/lib/database.ts';
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
  const [legacyUrl] = await Promise.all([
    recreateDatabase(url, `${database}_legacy_grants`),
    prepareDatabase(url),
  ]);
  await prepareDatabase(legacyUrl, { legacyDefaultGrants: true });
  project.provide('databaseUrl', url);
  project.provide('legacyGrantsDatabaseUrl', legacyUrl);
  return stop;
}
