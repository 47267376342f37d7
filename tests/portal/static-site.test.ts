// The static server npm start and the browser tests use (scripts/lib/static-site.ts), over a folder
// laid out as the portal's build is: clean URLs reach a page even where a folder of the same name
// sits beside it (api-reference.html and api-reference/, which holds its script), and a path that
// is nothing is answered 404 with the site's own 404 page, as a static host answers it.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
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
