// GET /v3/openapi.json: the function serves the OpenAPI description it ships with, publicly
// cacheable and revalidatable, to anyone (no key: it is public documentation).
import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { sessionsHandler } from '../helpers/api.ts';

let handle: (request: Request) => Promise<Response>;
const URL_ = 'http://api.test/functions/v1/v3/openapi.json';

beforeAll(async () => {
  ({ handle } = await sessionsHandler());
});

describe('GET /v3/openapi.json', () => {
  it('returns supabase/functions/v3/openapi.json as JSON, publicly cacheable, without a key', async () => {
    const response = await handle(new Request(URL_));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('cache-control')).toMatch(/^public, max-age=\d+$/);
    const file = JSON.parse(await readFile(new URL('../../supabase/functions/v3/openapi.json', import.meta.url), 'utf8'));
    expect(await response.json()).toEqual(file);
  });

  it('answers a revalidation with the current ETag with 304 and no body', async () => {
    const first = await handle(new Request(URL_));
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    const again = await handle(new Request(URL_, { headers: { 'if-none-match': `W/"stale", ${etag}` } }));
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect((await handle(new Request(URL_, { headers: { 'if-none-match': '"stale"' } }))).status).toBe(200);
  });

  it('answers other methods with 405 and Allow: GET', async () => {
    const response = await handle(new Request(URL_, { method: 'POST', body: '{}' }));
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET');
  });
});
