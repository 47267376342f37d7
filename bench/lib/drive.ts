// The two load drivers the sections share: autocannon against the function over HTTP, and a
// database call straight from Node (a floor), each `concurrency` callers sending their next request
// as soon as the last is answered, for a fixed time.
//
// autocannon ends a timed run by destroying its connections with requests still in flight; the
// function still applies those, so rows would outnumber answers by up to `concurrency`. Here each
// connection instead stops after its first answer past the deadline (it sets its own `responseMax`,
// autocannon's per-connection request limit): every request sent is answered.
import autocannon, { type Request } from 'autocannon';
import { LoadRecorder, type LoadResult } from '../sessions/load.ts';

/** autocannon against `origin`, each connection cycling through `requests`. */
export async function httpLoad(origin: string, requests: Request[], concurrency: number, seconds: number): Promise<LoadResult> {
  const recorder = new LoadRecorder();
  const deadline = Date.now() + seconds * 1000;
  // The duration is a backstop only: the run ends when every connection has stopped itself.
  const instance = autocannon({ url: origin, connections: concurrency, duration: seconds + 30, timeout: 10, requests });
  instance.on('response', (client, status, _bytes, ms) => {
    recorder.answer(status, ms);
    if (Date.now() >= deadline) client.responseMax = client.reqsMade;
  });
  instance.on('reqError', () => recorder.failure());
  await instance;
  return recorder.result();
}

/** `concurrency` callers of `call` (caller number given) from Node; a rejection counts as an error. */
export async function nodeLoad(concurrency: number, seconds: number, call: (caller: number) => Promise<unknown>): Promise<LoadResult> {
  const recorder = new LoadRecorder();
  const deadline = Date.now() + seconds * 1000;
  const caller = async (n: number) => {
    while (Date.now() < deadline) {
      const start = process.hrtime.bigint();
      try {
        await call(n);
        recorder.answer(200, Number(process.hrtime.bigint() - start) / 1e6);
      } catch {
        recorder.failure();
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, (_, n) => caller(n)));
  return recorder.result();
}
