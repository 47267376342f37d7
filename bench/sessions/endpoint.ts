// POST /v3/sessions under autocannon (in this process), every request a new session: a player id
// used once, the API keys taken in turn. Every request sent is answered (bench/lib/drive.ts).
import { httpLoad } from '../lib/drive.ts';
import type { LoadResult } from './load.ts';

export interface EndpointRun {
  /** The function's base URL (served.url): requests go to {url}/v3/sessions. */
  url: string;
  keys: string[];
  concurrency: number;
  seconds: number;
  /** Makes this run's player ids unique across runs. */
  tag: string;
}

export function loadEndpoint({ url, keys, concurrency, seconds, tag }: EndpointRun): Promise<LoadResult> {
  const target = new URL(`${url}/v3/sessions`);
  let sent = 0;
  return httpLoad(target.origin, [{
    method: 'POST',
    path: target.pathname,
    setupRequest: (request) => {
      const n = sent++;
      return {
        ...request,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${keys[n % keys.length]}` },
        body: JSON.stringify({ player_id: `${tag}-${n}`, game_id: 'pragmatic-play:vs20olympgate', currency: 'EUR' }),
      };
    },
  }], concurrency, seconds);
}
