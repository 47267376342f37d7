// The static server npm start and the browser tests use (scripts/lib/static-site.ts), over a folder
// laid out as the portal's build is: clean URLs reach a page even where a folder of the same name
// sits beside it (api-reference.html and api-reference/, which holds its script), and a path that
// is nothing is answered 404 with the site's own 404 page, as a static host answers it.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveStatic, type StaticSite } from '../../scripts/lib/static-site.ts';

let root: string;
let site: StaticSite;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'cgs-static-'));
  const portal = join(root, 'portal');
  const demo = join(root, 'demo');
  await mkdir(join(portal, 'api-reference'), { recursive: true });
  await mkdir(join(portal, 'sdks'), { recursive: true });
  await mkdir(demo);
  await writeFile(join(portal, 'index.html'), '<p>home</p>');
  await writeFile(join(portal, 'api-reference.html'), '<p>reference</p>');
  await writeFile(join(portal, 'api-reference', 'scalar.standalone.js'), 'scalar()');
  await writeFile(join(portal, 'sdks', 'go.html'), '<p>go</p>');
  await writeFile(join(portal, '404.html'), '<p>page not found</p>');
  await writeFile(join(demo, 'index.html'), '<p>demo</p>');
  site = await serveStatic({ '/demo/': demo, '/': portal });
});
afterAll(async () => {
  await site.close();
  await rm(root, { recursive: true, force: true });
});

const get = async (path: string, method = 'GET') => {
  const response = await fetch(`${site.url}${path}`, { method });
  return { status: response.status, type: response.headers.get('content-type'), body: await response.text() };
};

describe('the static site', () => {
  it('serves a page at its clean URL and with .html, even beside a folder of its name', async () => {
    for (const path of ['/api-reference', '/api-reference.html']) {
      expect(await get(path), path).toEqual({ status: 200, type: 'text/html; charset=utf-8', body: '<p>reference</p>' });
    }
    expect(await get('/api-reference/scalar.standalone.js')).toMatchObject({ status: 200, body: 'scalar()' });
    expect(await get('/sdks/go')).toMatchObject({ status: 200, body: '<p>go</p>' });
    expect(await get('/')).toMatchObject({ status: 200, body: '<p>home</p>' });
    expect(await get('/demo/')).toMatchObject({ status: 200, body: '<p>demo</p>' });
  });

  it('answers a path that is nothing 404 with the site\'s 404 page, under every mount', async () => {
    for (const path of ['/nothing', '/nothing.html', '/api-reference/', '/api-reference/nothing.js', '/demo/nothing', '/%2e%2e/etc/passwd']) {
      expect(await get(path), path).toEqual({ status: 404, type: 'text/html; charset=utf-8', body: '<p>page not found</p>' });
    }
    expect(await get('/nothing', 'HEAD')).toEqual({ status: 404, type: 'text/html; charset=utf-8', body: '' });
  });

  it('takes GET and HEAD only', async () => {
    expect(await get('/api-reference', 'POST')).toMatchObject({ status: 405, type: 'text/plain' });
  });
});

describe('the static site\'s proxy', () => {
  it('passes a path under its prefix on to the API, query, method, headers and body, and the answer back as it came', async () => {
    const seen: { method?: string; url?: string; authorization?: string; body?: string } = {};
    const api = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8').on('data', (chunk) => (body += chunk)).on('end', () => {
        Object.assign(seen, { method: req.method, url: req.url, authorization: req.headers.authorization, body });
        res.writeHead(422, { 'content-type': 'application/problem+json', 'x-answer': 'kept' }).end('{"code":"nope"}');
      });
    });
    await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
    const target = `http://127.0.0.1:${(api.address() as AddressInfo).port}/functions/v1/`;
    const proxied = await serveStatic({ '/': join(root, 'portal') }, 0, { '/api/': target });
    try {
      const response = await fetch(`${proxied.url}/api/v3/reports/ggr?from=2026-11-01&to=2026-11-02`, {
        method: 'POST', headers: { authorization: 'Bearer k' }, body: 'payload',
      });
      expect({ status: response.status, type: response.headers.get('content-type'), kept: response.headers.get('x-answer'), body: await response.text() })
        .toEqual({ status: 422, type: 'application/problem+json', kept: 'kept', body: '{"code":"nope"}' });
      expect(seen).toEqual({ method: 'POST', url: '/functions/v1/v3/reports/ggr?from=2026-11-01&to=2026-11-02', authorization: 'Bearer k', body: 'payload' });
      // Pages outside the prefix are still the site's.
      expect((await fetch(`${proxied.url}/`)).status).toBe(200);
    } finally {
      await proxied.close();
      api.closeAllConnections();
      await new Promise((resolve) => api.close(resolve));
    }
  });

  it('answers 502 when the API cannot be reached', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const proxied = await serveStatic({}, 0, { '/api/': `http://127.0.0.1:${port}/` });
    try {
      const response = await fetch(`${proxied.url}/api/v3/games`);
      expect({ status: response.status, body: await response.text() }).toEqual({ status: 502, body: 'the API did not answer' });
    } finally {
      await proxied.close();
    }
  });
});
