// The floor: the endpoint's database work alone, sent straight from Node with the function's driver
// and pool (postgres.js, prepare: false, the same pool size): private.create_game_session with the
// arguments the handler passes, the stored response body taken from a real 201. Each caller
// finishes its call in flight at the deadline and stops, so every call is answered.
import { createHash, randomUUID } from 'node:crypto';
import type { Sql } from 'postgres';
import { LoadRecorder, type LoadResult } from './load.ts';

export interface FloorRun {
  sql: Sql;
  keys: string[];
  /** A 201 body from the function: what the handler stores for replays. */
  body: Record<string, unknown>;
  concurrency: number;
  seconds: number;
  tag: string;
}

const TTL_MS = 15 * 60 * 1000;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

export async function loadFloor({ sql, keys, body, concurrency, seconds, tag }: FloorRun): Promise<LoadResult> {
  const hashes = keys.map(sha256);
  const fingerprint = sha256(JSON.stringify({ player_id: body.player_id, game_id: body.game_id, currency: body.currency }));
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
            ${hashes[n % hashes.length]}, ${null}, ${fingerprint}, ${randomUUID()}, ${`${tag}-${n}`},
            ${'pragmatic-play'}, ${'vs20olympgate'}, ${'EUR'}, ${createdAt}, ${new Date(createdAt.getTime() + TTL_MS)},
            ${body as never}::json)`;
        recorder.answer(result.outcome === 'created' ? 201 : 422, Number(process.hrtime.bigint() - start) / 1e6);
      } catch {
        recorder.failure();
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, caller));
  return recorder.result();
}
