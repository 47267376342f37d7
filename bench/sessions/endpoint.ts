// POST /v3/sessions under autocannon (in this process), every request a new session: a player id
// used once, the API keys taken in turn.
//
// autocannon ends a timed run by destroying its connections with requests still in flight; the
// function still writes those sessions, so rows would outnumber 201s by up to `concurrency`. Here
// each connection instead stops after its first answer past the deadline (it sets its own
// `responseMax`, autocannon's per-connection request limit): every request sent is answered.
import autocannon from 'autocannon';
import { LoadRecorder, type LoadResult } from './load.ts';

export interface EndpointRun {
  /** The function's base URL (served.url): requests go to {url}/v3/sessions. */
  url: string;
  keys: string[];
  concurrency: number;
  seconds: number;
  /** Makes this run's player ids unique across runs. */
  tag: string;
}

export async function loadEndpoint({ url, keys, concurrency, seconds, tag }: EndpointRun): Promise<LoadResult> {
  const target = new URL(`${url}/v3/sessions`);
  let sent = 0;
  const recorder = new LoadRecorder();
  const deadline = Date.now() + seconds * 1000;
  const instance = autocannon({
    url: target.origin,
    connections: concurrency,
    // A backstop only: the run ends when every connection has stopped itself after the deadline.
    duration: seconds + 30,
    timeout: 10,
    requests: [{
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
    }],
  });
  instance.on('response', (client, status, _bytes, ms) => {
    recorder.answer(status, ms);
    if (Date.now() >= deadline) client.responseMax = client.reqsMade;
  });
  instance.on('reqError', () => recorder.failure());
  await instance;
  return recorder.result();
}
