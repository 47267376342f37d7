// The machine a run was measured on, written next to its figures.
import { createHash } from 'node:crypto';
import os from 'node:os';
import postgres from 'postgres';

export async function describeMachine(url: string): Promise<string[]> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const [{ server_version: pgVersion }] = await sql`show server_version`;
    const cpus = os.cpus();
    return [
      `CPU: ${cpus[0]?.model.trim() ?? 'unknown'}, ${cpus.length} cores`,
      `Memory: ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`,
      `Node ${process.version}, PostgreSQL ${pgVersion} (embedded, fsync off), ${os.type()} ${os.release()}`,
      `Date: ${new Date().toISOString()}`,
    ];
  } finally {
    await sql.end();
  }
}

/**
 * A fixed piece of single-core work (100,000 SHA-256 hashes), timed in milliseconds. Taken at the
 * start and the end of a run: this machine shares its host, whose load can slow the same work by
 * more than half within minutes, and the figures should be read with that in mind.
 */
export function speedCheck(): number {
  const start = process.hrtime.bigint();
  let digest = '';
  for (let i = 0; i < 100_000; i++) digest = createHash('sha256').update(`${digest}${i}`).digest('hex');
  return Number(process.hrtime.bigint() - start) / 1e6;
}
