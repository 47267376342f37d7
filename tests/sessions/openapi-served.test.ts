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
    expect(await response.json()).toEqual({
      ...file, servers: [{ url: 'http://api.test/functions/v1', description: 'Where this document was read' }, ...file.servers.slice(1)],
    });
  });

  it('names the address the caller used as its first server, whatever the port, with the path before /v3', async () => {
    const servers = async (url: string) => (await (await handle(new Request(url))).json()).servers.map((s: { url: string }) => s.url);
    expect(await servers('http://127.0.0.1:8000/functions/v1/v3/openapi.json'))
      .toEqual(['http://127.0.0.1:8000/functions/v1', '{SUPABASE_URL}/functions/v1']);
    // Hosted, the function is handed /v3/...: the caller sent /functions/v1/v3/....
    expect((await servers('https://ref.supabase.co/v3/openapi.json'))[0]).toBe('https://ref.supabase.co/functions/v1');
    const [a, b] = await Promise.all(['http://a.test:1/v3/openapi.json', 'http://b.test:2/v3/openapi.json'].map((u) => handle(new Request(u))));
    expect(a.headers.get('etag')).not.toBe(b.headers.get('etag'));
  });

  it('answers a revalidation with the current ETag with 304 and no body', async () => {
    const first = await handle(new Request(URL_));
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    const again = await handle(new Request(URL_, { headers: { 'if-none-match': `W/"stale", ${etag}` } }));
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    // No representation headers on a 304 (RFC 9110 15.4.5): the validator and caching only.
    expect(again.headers.get('content-type')).toBeNull();
    expect([...again.headers.keys()].sort()).toEqual(['cache-control', 'etag']);
    expect((await handle(new Request(URL_, { headers: { 'if-none-match': '"stale"' } }))).status).toBe(200);
  });

  it('answers other methods with 405 and Allow: GET', async () => {
    const response = await handle(new Request(URL_, { method: 'POST', body: '{}' }));
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET');
  });
});
