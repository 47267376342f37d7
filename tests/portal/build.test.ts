// The developer portal's build (npm run portal:build, into a folder of this run's own): it succeeds
// (VitePress fails it on a dead link; the markdown step on an import that no longer exists), every
// page is there and every link between pages lands on a page and an anchor that exist, the errors
// page lists every ProblemCode of the OpenAPI document, the downloads are the SDKs at their
// versions (or are left out, saying so, where go or python3 is missing), the API reference loads
// Scalar's bundle and the OpenAPI document from the site itself, and the quickstart says what
// npm start really gives.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, posix } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { paths } from '../../scripts/lib/database.ts';
import { portalConfig } from '../../scripts/lib/portal-config.ts';
import { serveStatic } from '../../scripts/lib/static-site.ts';
import { problems } from '../../supabase/functions/v3/problem.ts';
import { which } from '../helpers/tools.ts';
import { builtPortal, unzip, type BuiltPortal } from './built-portal.ts';

const run = promisify(execFile);
const openapi = JSON.parse(await readFile(join(paths.root, 'supabase/functions/v3/openapi.json'), 'utf8'));
const problemCodes: string[] = openapi.components.schemas.ProblemCode.enum;
let portal: BuiltPortal;

const page = (name: string) => readFile(join(portal.dir, name), 'utf8');
const text = (html: string) => html.replace(/<[^>]+>/g, '').replace(/&#39;/g, "'").replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

beforeAll(async () => {
  portal = await builtPortal();
  console.log(`the portal was built in ${portal.seconds.toFixed(1)} s (by whichever file asked first)`);
}, 300_000);

describe('npm run portal:build', () => {
  it('succeeds, with VitePress checking for dead links', () => {
    expect(portal.ok, portal.output).toBe(true);
    expect(portal.output).toContain('build complete');
    // The check is VitePress's default: nothing turns it off.
    expect(portalConfig({ root: paths.root, pagesDir: join(paths.root, 'portal') }).ignoreDeadLinks).toBeUndefined();
  });

  it('makes every page of the portal', async () => {
    const pages = [
      'index', 'quickstart', 'authentication', 'environments', 'sandbox', 'sessions', 'catalogue', 'rounds', 'free-rounds', 'sportsbook', 'webhooks',
      'compliance', 'idempotency', 'errors', 'changelog', 'downloads', 'operations', 'hosting', 'sdks/typescript', 'sdks/go',
      'sdks/python', 'api-reference',
    ];
    for (const name of pages) expect(existsSync(join(portal.dir, `${name}.html`)), `${name}.html`).toBe(true);
  });

  it('links only to pages and anchors that exist', async () => {
    const files = (await readdir(portal.dir, { recursive: true })).filter((f) => f.endsWith('.html')).map((f) => `/${f}`);
    const html = new Map(await Promise.all(files.map(async (f) => [f, await page(f.slice(1))] as const)));
    const broken: string[] = [];
    for (const [file, content] of html) {
      for (const [, raw] of content.matchAll(/href="([^"]+)"/g)) {
        const href = raw!.replace(/&amp;/g, '&');
        if (/^([a-z]+:|\/\/)/i.test(href) || href.startsWith('/assets/')) continue;
        const [path = '', anchor] = href.split('#');
        let target = !path ? file : path.startsWith('/') ? path : posix.normalize(posix.join(posix.dirname(file), path));
        if (target.endsWith('/')) target += 'index.html';
        if (!html.has(target)) {
          if (!existsSync(join(portal.dir, target))) broken.push(`${file}: ${href}`);
          continue;
        }
        if (anchor && !html.get(target)!.includes(`id="${decodeURIComponent(anchor)}"`)) broken.push(`${file}: ${href} (no such anchor)`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('lists every ProblemCode of the OpenAPI document on the errors page, with its retryable flag', async () => {
    const errors = await page('errors.html');
    const rows = new Map([...errors.matchAll(/<tr><td><span id="(\w+)"><\/span><code>\1<\/code>.*?<\/td><td>(yes|no)<\/td>/g)].map((m) => [m[1]!, m[2] === 'yes']));
    expect([...rows.keys()].sort()).toEqual([...problemCodes].sort());
    // Retryable as the API answers it (supabase/functions/v3/problem.ts).
    const retryable = Object.entries(problems).filter(([, problem]) => problem.retryable).map(([code]) => code);
    expect([...rows].filter(([, yes]) => yes).map(([code]) => code).sort()).toEqual([...retryable].sort());
    // Each problem `type` (https://docs.cgs.example/problems/<code>) leads to its entry.
    for (const code of problemCodes) expect(await page(`problems/${code}.html`)).toContain(`url=../errors.html#${code}`);
  });

  it('takes its prose from the repository: the docs, the SDK READMEs and the changelog', async () => {
    const idempotency = await readFile(join(paths.root, 'docs/sessions-api.md'), 'utf8');
    expect(idempotency).toContain("follows Stripe's semantics");
    expect(text(await page('idempotency.html'))).toContain("follows Stripe's semantics");
    const webhooks = text(await page('webhooks.html'));
    for (const call of ['verifyWebhook(req.rawBody', 'webhook.Verify(payload', 'webhooks.verify(request.get_data()']) expect(webhooks).toContain(call);
    const changelog = await readFile(join(paths.root, 'CHANGELOG.md'), 'utf8');
    const versions = [...changelog.matchAll(/^## \[([^\]]+)\]/gm)].map((m) => m[1]!);
    expect(versions.length).toBeGreaterThan(0);
    const shown = text(await page('changelog.html'));
    for (const version of versions) expect(shown).toContain(`[${version}]`);
  });

  it('says in the quickstart what npm start gives: the API, the test key, the demo game and its player', async () => {
    const start = await readFile(join(paths.root, 'scripts/start.ts'), 'utf8');
    const testKey = /const DEMO_TEST_KEY = '([^']+)'/.exec(start)![1]!;
    const apiPort = /process\.env\.PORT \?\? (\d+)/.exec(start)![1]!;
    const sitePort = /process\.env\.SITE_PORT \?\? (\d+)/.exec(start)![1]!;
    const seed = await readFile(join(paths.root, 'supabase/seed.sql'), 'utf8');
    expect(seed).toMatch(/'player-1', 'EUR', 1000\)/);
    const quickstart = text(await page('quickstart.html'));
    expect(quickstart).toContain(`KEY=${testKey}`);
    expect(quickstart).toContain(`API=http://127.0.0.1:${apiPort}/functions/v1/v3`);
    expect(quickstart).toContain(`http://127.0.0.1:${sitePort}/demo/`);
    expect(quickstart).toContain('"game_id":"cgs-sandbox:lucky-sevens"');
    expect(quickstart).toContain('1,000 EUR');
  });
});

describe('the downloads', () => {
  const built = (id: string) => portal.manifest?.built.find((d) => d.id === id);
  const skippedBecause = (id: string) => portal.manifest?.skipped.find((s) => s.id === id)?.reason;

  it('are the OpenAPI document and the Postman collection as the repository has them', async () => {
    expect(await page('downloads/openapi.json')).toBe(await readFile(join(paths.root, 'supabase/functions/v3/openapi.json'), 'utf8'));
    expect(await page('downloads/postman.json')).toBe(await readFile(join(paths.root, 'openapi/postman.json'), 'utf8'));
  });

  it('each match their checksum and are offered on the downloads page', async () => {
    const downloads = await page('downloads.html');
    for (const d of portal.manifest!.built) {
      const data = await readFile(join(portal.dir, 'downloads', d.file));
      expect(createHash('sha256').update(data).digest('hex'), d.file).toBe(d.sha256);
      expect(downloads).toContain(`href="/downloads/${d.file}" download`);
    }
    for (const s of portal.manifest!.skipped) expect(text(downloads)).toContain(`The ${s.title} ${s.version}: ${s.reason}`);
  });

  it('has the TypeScript SDK as npm pack makes it, at its version', async () => {
    const version = JSON.parse(await readFile(join(paths.root, 'sdks/typescript/package.json'), 'utf8')).version;
    expect(version).toBe('3.2.1');
    const sdk = built('typescript')!;
    expect(sdk.file).toBe(`casino-gaming-sdk-${version}.tgz`);
    const { stdout } = await run('tar', ['-xzOf', join(portal.dir, 'downloads', sdk.file), 'package/package.json']);
    expect(JSON.parse(stdout)).toMatchObject({ name: '@casino-gaming/sdk', version });
    const { stdout: listing } = await run('tar', ['-tzf', join(portal.dir, 'downloads', sdk.file)]);
    expect(listing).toContain('package/dist/index.js');
    expect(listing).toContain('package/dist/index.d.ts');
  });

  it('has the Go module, without its tests, at its version; the install steps make it build', async (context) => {
    const reason = skippedBecause('go');
    if (reason) {
      console.warn(`SKIPPED the Go SDK download's checks: the build left it out (${reason}).`);
      context.skip();
    }
    const version = /const Version = "([^"]+)"/.exec(await readFile(join(paths.root, 'sdks/go/version.go'), 'utf8'))![1]!;
    expect(version).toBe('2.4.0');
    const sdk = built('go')!;
    expect(sdk.file).toBe(`cgs-go-${version}.zip`);
    const files = unzip(await readFile(join(portal.dir, 'downloads', sdk.file)));
    const folder = `cgs-go-${version}/`;
    expect([...files.keys()].every((name) => name.startsWith(folder))).toBe(true);
    expect(files.get(`${folder}go.mod`)!.toString()).toMatch(/^module github\.com\/casino-gaming\/cgs-go\/v2$/m);
    expect(files.get(`${folder}version.go`)!.toString()).toContain(`const Version = "${version}"`);
    expect([...files.keys()].filter((name) => name.endsWith('_test.go'))).toEqual([]);
    expect([...files.keys()]).toEqual(expect.arrayContaining([`${folder}webhook/webhook.go`, `${folder}seamless/seamless.go`, `${folder}README.md`]));

    // As the downloads page says: unzip it next to your module, then its go mod edit line.
    const app = await mkdtemp(join(tmpdir(), 'cgs-go-download-'));
    try {
      for (const [name, data] of files) {
        await mkdir(dirname(join(app, name)), { recursive: true });
        await writeFile(join(app, name), data);
      }
      const env = { ...process.env, GOFLAGS: '-mod=mod', GOPROXY: 'off', GOTOOLCHAIN: 'local', GOWORK: 'off', GOTELEMETRY: 'off' };
      await run('go', ['mod', 'init', 'example.com/operator'], { cwd: app, env });
      const edit = sdk.install.find((line) => line.startsWith('go mod edit'))!;
      await run('sh', ['-c', edit], { cwd: app, env });
      await writeFile(join(app, 'main.go'), 'package main\n\nimport cgs "github.com/casino-gaming/cgs-go/v2"\n\nfunc main() { println(cgs.Version) }\n');
      const { stderr } = await run('go', ['run', '.'], { cwd: app, env, timeout: 120_000 });
      expect(stderr.trim()).toBe(version);
    } finally {
      await rm(app, { recursive: true, force: true });
    }
  }, 120_000);

  it('has the Python wheel and sdist that build_dist.py makes, at their version', async (context) => {
    const reason = skippedBecause('python');
    if (reason) {
      console.warn(`SKIPPED the Python SDK download's checks: the build left it out (${reason}).`);
      context.skip();
    }
    const version = /^version\s*=\s*"([^"]+)"/m.exec(await readFile(join(paths.root, 'sdks/python/pyproject.toml'), 'utf8'))![1]!;
    expect(version).toBe('1.9.3');
    expect(built('python')!.file).toBe(`casino_gaming-${version}-py3-none-any.whl`);
    expect(built('python-sdist')!.file).toMatch(new RegExp(`^casino[-_]gaming-${version.replace(/\./g, '\\.')}\\.tar\\.gz$`));
    const wheel = unzip(await readFile(join(portal.dir, 'downloads', built('python')!.file)));
    expect(wheel.get(`casino_gaming-${version}.dist-info/METADATA`)!.toString()).toMatch(new RegExp(`^Version: ${version.replace(/\./g, '\\.')}$`, 'm'));
    expect([...wheel.keys()]).toContain('casino_gaming/webhooks.py');
  });

  it('leaves out only what a missing tool cannot build, and says so', async () => {
    const python = await Promise.any(['/usr/bin/python3', 'python3'].map((p) => run(p, ['-c', 'import setuptools, wheel']))).then(() => true, () => false);
    const expected = [!(await which('go')) && 'go', !python && 'python'].filter(Boolean);
    expect(portal.manifest!.skipped.map((s) => s.id)).toEqual(expected);
    for (const s of portal.manifest!.skipped) expect(portal.output).toContain(`WARNING: the ${s.title} ${s.version} download is LEFT OUT`);
  });
});

describe('the API reference', () => {
  it('loads Scalar and the OpenAPI document from the site itself', async () => {
    const reference = await page('api-reference.html');
    expect(reference).toContain('<script src="./api-reference/scalar.standalone.js"></script>');
    expect(reference).toContain('"url": "./downloads/openapi.json"');
    expect(reference).not.toMatch(/(src|href)="(https?:)?\/\//);
    const bundle = await readFile(join(portal.dir, 'api-reference/scalar.standalone.js'));
    const shipped = await readFile(join(paths.root, 'node_modules/@scalar/api-reference/dist/browser/standalone.js'));
    expect(bundle.equals(shipped)).toBe(true);
    expect(existsSync(join(portal.dir, 'downloads/openapi.json'))).toBe(true);
  });

  it('is served at /api-reference as npm start serves the portal, and an unknown path gets the portal\'s 404 page', async () => {
    const site = await serveStatic({ '/': portal.dir });
    try {
      for (const path of ['/api-reference', '/api-reference.html']) {
        const response = await fetch(`${site.url}${path}`);
        expect(response.status, path).toBe(200);
        expect(await response.text(), path).toContain('<script src="./api-reference/scalar.standalone.js"></script>');
      }
      const missing = await fetch(`${site.url}/no-such-page`);
      expect(missing.status).toBe(404);
      expect(missing.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(await missing.text()).toBe(await page('404.html'));
    } finally {
      await site.close();
    }
  });
});
