// The static pages npm start serves beside the API (the demo game, the developer portal) and the
// browser tests open: files under a few folders, each mounted at a path, over plain node:http.
// Hosted, the same folders go to any static host.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, request, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.tgz': 'application/gzip',
  '.gz': 'application/gzip',
  '.zip': 'application/zip',
  '.whl': 'application/zip',
};

/**
 * The sandbox's pages, by mount: the demo game, the demo sportsbook (its sessions open the demo
 * game's URL, which sends them on), and the reports dashboard with its chart library.
 */
export function sandboxPages(root: string): Record<string, string> {
  return {
    '/demo/': join(root, 'sandbox/demo-game'),
    '/sportsbook/': join(root, 'sandbox/sportsbook'),
    // What the demo pages share, imported as ../shared/ from each.
    '/shared/': join(root, 'sandbox/shared'),
    '/dashboard/': join(root, 'sandbox/dashboard'),
    '/dashboard/vendor/': join(root, 'node_modules/chart.js/dist'),
  };
}

export interface StaticSite {
  url: string;
  close: () => Promise<void>;
}

/** Where a request path lands under the mounts (longest mount first), or null: never outside one. */
async function resolve(mounts: [string, string][], pathname: string): Promise<string | null> {
  for (const [prefix, folder] of mounts) {
    if (!pathname.startsWith(prefix)) continue;
    const relative = normalize(decodeURIComponent(pathname.slice(prefix.length)));
    if (relative.startsWith('..') || relative.includes(`${sep}..`)) return null;
    const file = join(folder, relative);
    const found = await stat(file).catch(() => null);
    // Clean URLs, as static hosts serve them: /x is x/index.html, else x.html; a folder beside a
    // page of its name (api-reference/ holding the page's script) does not hide the page.
    const candidates = found?.isDirectory() ? [join(file, 'index.html'), `${file}.html`]
      : found || extname(file) ? [file]
      : [`${file}.html`];
    for (const candidate of candidates) {
      if ((await stat(candidate).catch(() => null))?.isFile()) return candidate;
    }
    return null;
  }
  return null;
}

/** The not-found page for a path: the 404.html of the innermost mount over it that has one. */
async function notFoundPage(mounts: [string, string][], pathname: string): Promise<string | null> {
  for (const [prefix, folder] of mounts) {
    if (!pathname.startsWith(prefix)) continue;
    const file = join(folder, '404.html');
    if ((await stat(file).catch(() => null))?.isFile()) return file;
  }
  return null;
}

/**
 * Passes a request on to `target` + the path after its prefix (the query kept), and its answer back
 * as it streams: the dashboard's calls reach the API from the page's own origin, so the API needs
 * no CORS for an operator's key.
 */
function forward(req: IncomingMessage, res: ServerResponse, target: string, rest: string): void {
  const url = new URL(target + rest);
  const headers = { ...req.headers, host: url.host };
  const onward = request(url, { method: req.method, headers }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  onward.on('error', () => {
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
    res.end('the API did not answer');
  });
  req.pipe(onward);
}

/**
 * Serves `mounts` ({ '/demo/': folder }) on 127.0.0.1:`port` (0: any free port), and passes paths
 * under a prefix of `proxies` ({ '/api/': 'http://127.0.0.1:54321/functions/v1/' }) on to its URL.
 */
export async function serveStatic(mounts: Record<string, string>, port = 0, proxies: Record<string, string> = {}): Promise<StaticSite> {
  const ordered = Object.entries(mounts).sort(([a], [b]) => b.length - a.length);
  const server = createServer(async (req, res) => {
    const pathname = new URL(req.url ?? '/', 'http://site').pathname;
    const proxy = Object.entries(proxies).find(([prefix]) => pathname.startsWith(prefix));
    if (proxy) {
      forward(req, res, proxy[1], (req.url ?? '/').slice(proxy[0].length));
      return;
    }
    const file = req.method === 'GET' || req.method === 'HEAD' ? await resolve(ordered, pathname).catch(() => null) : null;
    if (!file) {
      const readable = req.method === 'GET' || req.method === 'HEAD';
      // The site's own 404 page (the portal's, with its navigation), as a static host serves it.
      const page = readable ? await notFoundPage(ordered, pathname).catch(() => null) : null;
      if (page) {
        res.writeHead(404, { 'content-type': TYPES['.html'], 'cache-control': 'no-cache' });
        if (req.method === 'HEAD') res.end();
        else createReadStream(page).pipe(res);
        return;
      }
      res.writeHead(readable ? 404 : 405, { 'content-type': 'text/plain', ...(readable ? {} : { allow: 'GET, HEAD' }) })
        .end(readable ? 'not found' : 'method not allowed');
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-cache' });
    if (req.method === 'HEAD') res.end();
    else createReadStream(file).pipe(res);
  });
  await new Promise<void>((ok, fail) => server.once('error', fail).listen(port, '127.0.0.1', ok));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((done) => {
      server.closeAllConnections();
      server.close(() => done());
    }),
  };
}
