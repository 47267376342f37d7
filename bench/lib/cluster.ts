// The benchmark's own Postgres: a throwaway embedded cluster (never DATABASE_URL, since the
// sections load a million rows), with one freshly migrated database per section.
import { freshMigratedDatabase } from '../../scripts/lib/database.ts';
import { startThrowawayPostgres } from '../../scripts/lib/embedded-postgres.ts';

export interface Cluster {
  /** The server's default database, for questions about the server itself. */
  url: string;
  /** Creates (or recreates) a database on the cluster and applies the project's migrations. */
  database(name: string): Promise<string>;
  stop(): Promise<void>;
}

export async function startCluster(): Promise<Cluster> {
  const pg = await startThrowawayPostgres('bench');
  return {
    url: pg.url,
    database: (name) => freshMigratedDatabase(pg.url, name),
    stop: () => pg.stop(),
  };
}
