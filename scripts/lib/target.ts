// Which database a command works on: DATABASE_URL when set (supabase start, a hosted project,
// any Postgres), otherwise the embedded default whose data lives in the git-ignored .data/.
import { paths, prepareDatabase } from './database.ts';
import { startEmbeddedPostgres, startThrowawayPostgres, type RunningPostgres } from './embedded-postgres.ts';

export const EMBEDDED_PORT = Number(process.env.EMBEDDED_DB_PORT ?? 54322);

export async function openTarget(): Promise<Omit<RunningPostgres, 'dir'> & { dir?: string; embedded: boolean }> {
  const url = process.env.DATABASE_URL;
  if (url) return { url, port: Number(new URL(url).port || 5432), stop: async () => {}, embedded: false };
  const pg = await startEmbeddedPostgres({
    dir: `${paths.root}.data/postgres`,
    port: EMBEDDED_PORT,
    persistent: true,
  });
  return { ...pg, embedded: true };
}

/** Runs `fn` on DATABASE_URL, or on a throwaway embedded database, migrated first. */
export async function withMigratedDatabase<T>(name: string, fn: (url: string) => Promise<T>): Promise<T> {
  const embedded = process.env.DATABASE_URL ? undefined : await startThrowawayPostgres(name);
  try {
    const url = process.env.DATABASE_URL ?? embedded!.url;
    await prepareDatabase(url);
    return await fn(url);
  } finally {
    await embedded?.stop();
  }
}
