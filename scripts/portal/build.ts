// npm run portal:build [-- --out <folder>]: the developer portal, as static files, into
// portal/.vitepress/dist (git-ignored) or <folder>. npm start serves it at its site's root once built.
// See scripts/lib/portal-build.ts for what goes in, and portal/hosting.md for deploying it.
import { resolve } from 'node:path';
import { buildPortal, DEFAULT_OUT_DIR } from '../lib/portal-build.ts';

const args = process.argv.slice(2);
const at = args.indexOf('--out');
if (args.some((a, i) => a !== '--out' && i !== at + 1) || (at >= 0 && !args[at + 1])) {
  console.error('usage: npm run portal:build [-- --out <folder>]');
  process.exit(2);
}
const outDir = at >= 0 ? resolve(args[at + 1]!) : DEFAULT_OUT_DIR;

try {
  const built = await buildPortal({ outDir });
  const left = built.manifest.skipped.map((s) => `${s.title} ${s.version}`);
  console.log(`portal: built in ${built.seconds.toFixed(1)} s into ${built.outDir}` +
    (left.length ? `; LEFT OUT: ${left.join(', ')} (see the warnings above)` : ''));
  if (outDir === DEFAULT_OUT_DIR) console.log('portal: npm start serves it at http://127.0.0.1:54323/ (SITE_PORT moves it)');
  else console.log('portal: any static host serves the folder as it is (see the portal\'s "Hosting this portal")');
} catch (error) {
  console.error(`portal: the build FAILED: ${(error as Error).stack ?? error}`);
  process.exit(1);
}
