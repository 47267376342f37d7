// The floor: the endpoint's database work alone, sent straight from Node with the function's driver
// and pool (postgres.js, the function's pool size and prepared statements or not):
// private.create_game_session with the arguments the handler passes for a request without an
// Idempotency-Key (no fingerprint, no body to remember), the rest taken from a real 201. Each caller
// finishes its call in flight at the deadline and stops, so every call is answered.
import { randomUUID } from 'node:crypto';
import type { Sql } from 'postgres';
import { sha256Hex } from '../../supabase/functions/v3/sha256.ts';
import { LoadRecorder, type LoadResult } from './load.ts';

export interface FloorRun {
  sql: Sql;
  keys: string[];
  /** A 201 body from the function: its game and currency are what the floor requests. */
  body: Record<string, unknown>;
  concurrency: number;
  seconds: number;
  tag: string;
}

const TTL_MS = 15 * 60 * 1000;

export async function loadFloor({ sql, keys, body, concurrency, seconds, tag }: FloorRun): Promise<LoadResult> {
  const hashes = keys.map(sha256Hex);
  const [provider, game] = String(body.game_id).split(':');
  let sent = 0;
  const recorder = new LoadRecorder();
  const deadline = Date.now() + seconds * 1000;
  const caller = async () => {
    while (Date.now() < deadline) {
      const n = sent++;
      const createdAt = new Date();
      const start = process.hrtime.bigint();
      try {
        const [result] = await sql<{ outcome: string }[]>`
          select * from private.create_game_session(
            ${hashes[n % hashes.length]}, true, ${null}, ${null}, ${randomUUID()}, ${`${tag}-${n}`},
            ${provider}, ${game}, ${body.currency as string}, ${null}, ${createdAt}, ${new Date(createdAt.getTime() + TTL_MS)},
            ${null}::json)`;
        recorder.answer(result.outcome === 'created' ? 201 : 422, Number(process.hrtime.bigint() - start) / 1e6);
      } catch {
        recorder.failure();
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, caller));
  return recorder.result();
}
