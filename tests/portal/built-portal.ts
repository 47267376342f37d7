// The developer portal, built once per test run for every file that needs it (the build checks and
// the browser test), exactly as `npm run portal:build -- --out <folder>` builds it, into a
// temporary folder of the run's own so that it never races another run or a developer's build.
//
// Test files run in worker processes of one vitest process: the first to ask builds (it takes the
// folder with an atomic mkdir), the others wait for its result. The folder is named for the vitest
// process and the run's database, and removed once the vitest process has ended.
import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { inject } from 'vitest';
import { paths } from '../../scripts/lib/database.ts';
import type { DownloadsManifest } from '../../scripts/lib/portal-markdown.ts';

export interface BuiltPortal {
  /** The built site (the build's --out). */
  dir: string;
  ok: boolean;
  /** Everything the build printed. */
  output: string;
  seconds: number;
  manifest: DownloadsManifest | null;
}

interface Result {
  ok: boolean;
  output: string;
  seconds: number;
}

const PREFIX = 'cgs-portal-test-';

function build(out: string): Promise<Result> {
  const started = Date.now();
  return new Promise((resolve) => {
    execFile(`${paths.root}node_modules/.bin/tsx`, ['scripts/portal/build.ts', '--out', out], {
      cwd: paths.root, timeout: 240_000, maxBuffer: 32 * 1024 * 1024,
    }, (error, stdout, stderr) => resolve({ ok: !error, output: `${stdout}${stderr}${error ? `\n${error.message}` : ''}`, seconds: (Date.now() - started) / 1000 }));
  });
}

/** Folders of earlier runs whose vitest process is gone and whose remover never ran. */
async function removeStale(except: string) {
  const entries = await readdir(tmpdir()).catch(() => [] as string[]);
  for (const name of entries.filter((n) => n.startsWith(PREFIX) && join(tmpdir(), n) !== except)) {
    const info = await stat(join(tmpdir(), name)).catch(() => null);
    if (info && Date.now() - info.mtimeMs > 3 * 60 * 60 * 1000) await rm(join(tmpdir(), name), { recursive: true, force: true });
  }
}

async function buildOnce(): Promise<BuiltPortal> {
  // Workers are children of the vitest process (the forks pool); the database names the run.
  const owner = typeof process.send === 'function' ? process.ppid : process.pid;
  const key = createHash('sha256').update(`${owner}:${inject('databaseUrl')}`).digest('hex').slice(0, 16);
  const folder = join(tmpdir(), `${PREFIX}${key}`);
  const resultFile = join(folder, 'result.json');
  const dir = join(folder, 'site');
  let result: Result;
  if (await mkdir(folder).then(() => true, () => false)) {
    // Removed when the vitest process ends (a detached shell waiting for it).
    spawn('sh', ['-c', `while kill -0 ${owner} 2>/dev/null; do sleep 2; done; rm -rf '${folder}'`], { detached: true, stdio: 'ignore' }).unref();
    await removeStale(folder);
    result = await build(dir);
    await writeFile(resultFile, JSON.stringify(result));
  } else {
    const deadline = Date.now() + 300_000;
    for (;;) {
      const text = await readFile(resultFile, 'utf8').catch(() => null);
      if (text) {
        result = JSON.parse(text) as Result;
        break;
      }
      if (Date.now() > deadline) throw new Error(`no portal build appeared in ${folder} within 5 minutes`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  const manifest = await readFile(join(dir, 'downloads', 'manifest.json'), 'utf8').then((t) => JSON.parse(t) as DownloadsManifest, () => null);
  return { dir, ...result, manifest };
}

let once: Promise<BuiltPortal> | null = null;

/** The portal built for this run (built by the first caller of the run, waited for by the rest). */
export function builtPortal(): Promise<BuiltPortal> {
  once ??= buildOnce();
  return once;
}

/** The files of a zip archive (stored or deflated), by name. */
export function unzip(archive: Buffer): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  const end = archive.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0) throw new Error('not a zip archive');
  const count = archive.readUInt16LE(end + 10);
  let at = archive.readUInt32LE(end + 16);
  for (let i = 0; i < count; i++) {
    if (archive.readUInt32LE(at) !== 0x02014b50) throw new Error('a broken zip central directory');
    const method = archive.readUInt16LE(at + 10);
    const packedSize = archive.readUInt32LE(at + 20);
    const nameLength = archive.readUInt16LE(at + 28);
    const extraLength = archive.readUInt16LE(at + 30);
    const commentLength = archive.readUInt16LE(at + 32);
    const local = archive.readUInt32LE(at + 42);
    const name = archive.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    const dataAt = local + 30 + archive.readUInt16LE(local + 26) + archive.readUInt16LE(local + 28);
    const packed = archive.subarray(dataAt, dataAt + packedSize);
    files.set(name, method === 8 ? inflateRawSync(packed) : Buffer.from(packed));
    at += 46 + nameLength + extraLength + commentLength;
  }
  return files;
}
