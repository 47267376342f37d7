// The machine a run was measured on, written next to its figures.
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
