// The npm registry this project's machines reach serves only their own platform's builds of
// packages that ship native binaries (@deno/*, @esbuild/*, @rollup/*, ...). npm then leaves the
// other platforms' optional packages out of package-lock.json, and `npm ci` refuses the lock.
// This adds each missing optional package with its os/cpu/libc, read from its name, so npm skips
// it here and fetches it by name and version on a machine of that platform.
// Run after any dependency change: `npm install && node scripts/complete-lockfile.mjs`.
import { readFileSync, writeFileSync } from 'node:fs';

const file = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(file, 'utf8'));
const packages = lock.packages;

const OS = ['aix', 'android', 'darwin', 'freebsd', 'linux', 'netbsd', 'openbsd', 'openharmony', 'sunos', 'win32', 'cygwin'];
const CPU = ['arm64', 'arm', 'ia32', 'x64', 'ppc64', 'riscv64', 's390x', 'loong64', 'mips64el', 'mipsel', 'ppc', 'x32', 'wasm32'];
const ALIAS = { win: 'win32', windows: 'win32', macos: 'darwin', x86_64: 'x64', aarch64: 'arm64', armv7: 'arm' };

/** os, cpu and libc of a platform package, from a name like `@rollup/rollup-linux-arm64-musl`. */
function platformOf(name) {
  const parts = name.split('/').pop().split('-').map((p) => ALIAS[p] ?? p);
  const os = parts.find((p) => OS.includes(p));
  const cpu = parts.find((p) => CPU.includes(p));
  const libc = parts.includes('musl') ? 'musl' : parts.some((p) => ['gnu', 'glibc', 'gnueabihf'].includes(p)) ? 'glibc' : undefined;
  if (!os && !cpu) return undefined;
  return Object.fromEntries([['os', os], ['cpu', cpu], ['libc', libc]].filter(([, v]) => v).map(([k, v]) => [k, [v]]));
}

let added = 0;
for (const [path, entry] of Object.entries(packages)) {
  for (const [dep, range] of Object.entries(entry.optionalDependencies ?? {})) {
    const base = path === '' ? '' : `${path}/`;
    if (packages[`${base}node_modules/${dep}`] || packages[`node_modules/${dep}`]) continue;
    const platform = platformOf(dep);
    if (!platform) throw new Error(`${dep} (optional dependency of ${path || 'the project'}) is missing and names no platform`);
    const version = range.replace(/^[\^~=]/, '');
    packages[`node_modules/${dep}`] = {
      version,
      ...(entry.dev ? { dev: true } : {}),
      optional: true,
      ...platform,
    };
    added++;
  }
}
lock.packages = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))));
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`package-lock.json: ${added} optional platform package(s) added`);
