// The developer portal's build (npm run portal:build): the downloads made from this repository
// (the SDKs at their versions, the OpenAPI document, the Postman collection), the API reference
// (Scalar's standalone bundle over the copied OpenAPI document), redirects for each problem `type`,
// then VitePress over portal/ into outDir. Everything the site shows is in outDir: no CDN.
//
// A download whose tool is missing (go, or a python3 with setuptools and wheel) is left out, said
// loudly here and on the downloads page; nothing is ever faked. Builds may run at once (tests,
// a developer): each stages in a temporary folder of its own, VitePress's temp folder included.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { crc32, deflateRawSync } from 'node:zlib';
import { build } from 'vitepress';
import { STAGE_ENV } from './portal-config.ts';
import { problemCodes, type BuiltDownload, type DownloadsManifest, type SkippedDownload } from './portal-markdown.ts';

const paths = { root: fileURLToPath(new URL('../../', import.meta.url)) };

export const PORTAL_DIR = join(paths.root, 'portal');
export const DEFAULT_OUT_DIR = join(PORTAL_DIR, '.vitepress', 'dist');
const SCALAR_BUNDLE = join(paths.root, 'node_modules', '@scalar', 'api-reference', 'dist', 'browser', 'standalone.js');

export interface PortalBuild {
  outDir: string;
  manifest: DownloadsManifest;
  seconds: number;
}

export interface PortalBuildOptions {
  outDir?: string;
  log?: (line: string) => void;
  warn?: (line: string) => void;
}

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv; timeout?: number }): Promise<Run> {
  return new Promise((resolve) => {
    execFile(command, args, { ...options, timeout: options.timeout ?? 180_000, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof (error as { code?: unknown }).code === 'number' ? (error as { code: number }).code : 127) : 0;
      resolve({ code, stdout: String(stdout), stderr: String(stderr || (error && code === 127 ? error.message : '')) });
    });
  });
}

async function described(id: string, title: string, version: string, folder: string, file: string, install: string[]): Promise<BuiltDownload> {
  const data = await readFile(join(folder, file));
  return { id, title, version, file, bytes: data.length, sha256: createHash('sha256').update(data).digest('hex'), install };
}

// ---------------------------------------------------------------------------------------------
// The TypeScript SDK: npm pack, in a copy of sdks/typescript (its prepack rebuilds dist/, which
// must not race the SDK's own packaging test in the repository's folder).

async function typescriptSdk(downloads: string, scratch: string): Promise<BuiltDownload> {
  const source = join(paths.root, 'sdks', 'typescript');
  const copy = join(scratch, 'sdk-typescript');
  await mkdir(copy, { recursive: true });
  for (const name of ['package.json', 'README.md', 'tsconfig.build.json', 'src']) await cp(join(source, name), join(copy, name), { recursive: true });
  const packed = await run('npm', ['pack', '--json', '--pack-destination', downloads], {
    cwd: copy,
    env: { ...process.env, PATH: `${join(paths.root, 'node_modules', '.bin')}:${process.env.PATH}`, npm_config_update_notifier: 'false', npm_config_fund: 'false' },
  });
  if (packed.code !== 0) throw new Error(`npm pack of the TypeScript SDK failed:\n${packed.stdout}${packed.stderr}`);
  const [result] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as { filename: string; version: string }[];
  return described('typescript', 'TypeScript SDK', result!.version, downloads, result!.filename, [
    `npm install ./${result!.filename}`,
  ]);
}

// ---------------------------------------------------------------------------------------------
// The Go SDK: the module's sources (tests left out) in cgs-go-<version>/, proven to compile first.

async function goSources(): Promise<string[]> {
  const root = join(paths.root, 'sdks', 'go');
  const found: string[] = [];
  const walk = async (folder: string) => {
    for (const entry of await readdir(join(root, folder), { withFileTypes: true })) {
      const path = folder ? `${folder}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (entry.name !== 'testdata' && !entry.name.startsWith('.')) await walk(path);
      } else if ((entry.name.endsWith('.go') && !entry.name.endsWith('_test.go')) || ['go.mod', 'go.sum', 'README.md', 'LICENSE'].includes(entry.name)) {
        found.push(path);
      }
    }
  };
  await walk('');
  return found.sort();
}

/** A zip archive (deflated, UTF-8 names, one fixed timestamp so that equal sources give equal bytes). */
export function zip(entries: { name: string; data: Buffer }[]): Buffer {
  const date = ((2026 - 1980) << 9) | (1 << 5) | 1; // 2026-01-01
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const { name, data } of entries) {
    const nameBytes = Buffer.from(name, 'utf8');
    const packed = deflateRawSync(data, { level: 9 });
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt16LE(8, 8);
    local.writeUInt16LE(0, 10);
    local.writeUInt16LE(date, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4); // made on Unix: the mode below counts
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt16LE(0, 12);
    central.writeUInt16LE(date, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE((0o100644 << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, packed);
    centrals.push(central, nameBytes);
    offset += local.length + nameBytes.length + packed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

async function goSdk(downloads: string, scratch: string): Promise<BuiltDownload | SkippedDownload> {
  const root = join(paths.root, 'sdks', 'go');
  const version = /const Version = "([^"]+)"/.exec(await readFile(join(root, 'version.go'), 'utf8'))?.[1];
  const module = /^module\s+(\S+)/m.exec(await readFile(join(root, 'go.mod'), 'utf8'))?.[1];
  if (!version || !module) throw new Error('sdks/go: no `const Version = "..."` in version.go, or no module line in go.mod');
  const title = 'Go SDK';
  const folder = `cgs-go-${version}`;
  const files = await goSources();
  const copy = join(scratch, folder);
  for (const file of files) await cp(join(root, file), join(copy, file));
  const env = { ...process.env, GOFLAGS: '-mod=mod', GOPROXY: 'off', GOTOOLCHAIN: 'local', GOWORK: 'off', GOTELEMETRY: 'off' };
  const compiled = await run('go', ['build', './...'], { cwd: copy, env });
  if (compiled.code === 127) return { id: 'go', title, version, reason: 'go is not installed (apt-get install golang-go)' };
  if (compiled.code !== 0) throw new Error(`the Go SDK's sources do not build without their tests:\n${compiled.stdout}${compiled.stderr}`);
  const file = `${folder}.zip`;
  const entries = await Promise.all(files.map(async (name) => ({ name: `${folder}/${name}`, data: await readFile(join(root, name)) })));
  await writeFile(join(downloads, file), zip(entries));
  return described('go', title, version, downloads, file, [
    `unzip ${file}                # the module, in ${folder}/`,
    `go mod edit -require=${module}@v${version} -replace=${module}=./${folder}`,
  ]);
}

// ---------------------------------------------------------------------------------------------
// The Python SDK: its own offline build (sdks/python/scripts/build_dist.py): the sdist and the wheel.

async function pythonSdk(downloads: string): Promise<(BuiltDownload | SkippedDownload)[]> {
  const sdk = join(paths.root, 'sdks', 'python');
  const version = /^version\s*=\s*"([^"]+)"/m.exec(await readFile(join(sdk, 'pyproject.toml'), 'utf8'))?.[1] ?? '?';
  const title = 'Python SDK';
  let python: string | null = null;
  let found = false;
  for (const candidate of ['/usr/bin/python3', 'python3']) {
    const probe = await run(candidate, ['-c', 'import setuptools, wheel'], { cwd: sdk, timeout: 30_000 });
    if (probe.code !== 127) found = true;
    if (probe.code === 0) {
      python = candidate;
      break;
    }
  }
  if (!python) {
    const reason = found
      ? 'python3 lacks setuptools or wheel (apt-get install python3-setuptools python3-wheel)'
      : 'python3 is not installed (apt-get install python3 python3-setuptools python3-wheel)';
    return [{ id: 'python', title, version, reason }];
  }
  const built = await run(python, ['scripts/build_dist.py', '--outdir', downloads], {
    cwd: sdk, env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' },
  });
  if (built.code !== 0) throw new Error(`the Python SDK's build failed:\n${built.stdout}${built.stderr}`);
  const [sdist, wheel] = built.stdout.trim().split('\n').slice(-2).map((l) => l.trim());
  if (!sdist?.endsWith('.tar.gz') || !wheel?.endsWith('.whl')) throw new Error(`build_dist.py printed no sdist and wheel:\n${built.stdout}`);
  return [
    await described('python', `${title} (wheel)`, version, downloads, wheel, [`pip install ./${wheel}`]),
    await described('python-sdist', `${title} (sdist)`, version, downloads, sdist, []),
  ];
}

// ---------------------------------------------------------------------------------------------
// The API reference page: Scalar's standalone bundle, offline, over the copied document.

function apiReferencePage(title: string): string {
  const config = {
    url: './downloads/openapi.json',
    withDefaultFonts: false, // no font CDN: the system's fonts
    telemetry: false,
    agent: { disabled: true },
    mcp: { disabled: true },
    showDeveloperTools: 'never',
    documentDownloadType: 'json',
    showOperationId: true,
    defaultOpenFirstTag: true,
    hideDarkModeToggle: false,
    metaData: { title: `API reference · ${title}` },
  };
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>API reference · ${title}</title>
  <link rel="icon" type="image/svg+xml" href="./logo.svg">
  <style>
    :root { --scalar-custom-header-height: 48px; }
    body { margin: 0; }
    .cgs-bar { position: sticky; top: 0; z-index: 100; height: 48px; box-sizing: border-box; display: flex; align-items: center;
      gap: 12px; padding: 0 16px; background: #0f766e; color: #fff; font: 600 15px/1 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
    .cgs-bar a { color: inherit; text-decoration: none; display: flex; align-items: center; gap: 10px; }
    .cgs-bar img { width: 26px; height: 26px; border-radius: 7px; box-shadow: 0 0 0 1.5px rgba(255, 255, 255, 0.7); }
    .cgs-bar .links { margin-left: auto; display: flex; gap: 16px; font-weight: 500; font-size: 14px; }
    .cgs-bar .links a:hover { text-decoration: underline; }
    @media (max-width: 520px) { .cgs-bar .links .wide { display: none; } }
  </style>
</head>
<body>
  <header class="cgs-bar">
    <a href="./index.html"><img src="./logo.svg" alt="">CGS Developers</a>
    <nav class="links">
      <a href="./quickstart.html">Quickstart</a>
      <a class="wide" href="./errors.html">Errors</a>
      <a href="./downloads.html">Downloads</a>
    </nav>
  </header>
  <div id="app"></div>
  <script src="./api-reference/scalar.standalone.js"></script>
  <script>
    Scalar.createApiReference('#app', ${JSON.stringify(config, null, 2).replace(/\n/g, '\n    ')});
  </script>
</body>
</html>
`;
}

/** /problems/<code>: where each problem's `type` URL lands when the portal is hosted at its base. */
function problemRedirect(code: string): string {
  const target = `../errors.html#${code}`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${code}</title>` +
    `<meta http-equiv="refresh" content="0; url=${target}"><link rel="canonical" href="${target}"></head>` +
    `<body><p><a href="${target}">${code}</a></p></body></html>\n`;
}

// ---------------------------------------------------------------------------------------------

export async function buildPortal(options: PortalBuildOptions = {}): Promise<PortalBuild> {
  const started = Date.now();
  const log = options.log ?? ((line: string) => console.log(line));
  const warn = options.warn ?? ((line: string) => console.warn(line));
  const outDir = options.outDir ?? DEFAULT_OUT_DIR;
  const stage = await mkdtemp(join(tmpdir(), 'cgs-portal-'));
  try {
    const site = join(stage, 'public');
    const downloads = join(site, 'downloads');
    const scratch = join(stage, 'scratch');
    await mkdir(downloads, { recursive: true });
    await mkdir(scratch, { recursive: true });
    await cp(join(PORTAL_DIR, 'public'), site, { recursive: true });

    const openapiText = await readFile(join(paths.root, 'supabase', 'functions', 'v3', 'openapi.json'), 'utf8');
    const openapi = JSON.parse(openapiText);
    await writeFile(join(downloads, 'openapi.json'), openapiText);
    await cp(join(paths.root, 'openapi', 'postman.json'), join(downloads, 'postman.json'));

    log('portal: building the downloads (the TypeScript, Go and Python SDKs)');
    const made = await Promise.all([typescriptSdk(downloads, scratch), goSdk(downloads, scratch), pythonSdk(downloads)]);
    const results = made.flat();
    const apiVersion = String(openapi.info?.version ?? '');
    const built: BuiltDownload[] = [
      await described('openapi', 'OpenAPI document', apiVersion, downloads, 'openapi.json', []),
      await described('postman', 'Postman collection', apiVersion, downloads, 'postman.json', []),
      ...results.filter((r): r is BuiltDownload => 'file' in r),
    ];
    const skipped = results.filter((r): r is SkippedDownload => 'reason' in r);
    const manifest: DownloadsManifest = { built, skipped };
    for (const s of skipped) {
      warn(`\n${'!'.repeat(100)}\nportal: WARNING: the ${s.title} ${s.version} download is LEFT OUT of this build: ${s.reason}.\n${'!'.repeat(100)}\n`);
    }
    await writeFile(join(stage, 'downloads.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    await writeFile(join(downloads, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    for (const d of built) log(`portal: downloads/${d.file} (${d.title} ${d.version}, ${d.bytes} bytes)`);

    await mkdir(join(site, 'api-reference'), { recursive: true });
    await cp(SCALAR_BUNDLE, join(site, 'api-reference', 'scalar.standalone.js'));
    await writeFile(join(site, 'api-reference.html'), apiReferencePage(String(openapi.info?.title ?? 'API')));
    await mkdir(join(site, 'problems'), { recursive: true });
    for (const code of problemCodes(openapi)) await writeFile(join(site, 'problems', `${code}.html`), problemRedirect(code));

    log(`portal: VitePress, into ${relative(process.cwd(), outDir) || outDir}`);
    const previous = process.env[STAGE_ENV];
    process.env[STAGE_ENV] = stage;
    // VitePress's server-side bundle imports vue and the theme from node_modules: its temp folder
    // must be inside the project (.tmp/ is git-ignored).
    await mkdir(join(paths.root, '.tmp'), { recursive: true });
    const temp = await mkdtemp(join(paths.root, '.tmp', 'portal-build-'));
    try {
      await build(PORTAL_DIR, {
        outDir,
        onAfterConfigResolve(config) {
          // Each build its own: VitePress's fixed portal/.vitepress/.temp would be shared otherwise.
          config.tempDir = join(temp, 'temp');
          config.cacheDir = join(temp, 'cache');
        },
      });
    } finally {
      await rm(temp, { recursive: true, force: true });
      if (previous === undefined) delete process.env[STAGE_ENV];
      else process.env[STAGE_ENV] = previous;
    }
    const index = await stat(join(outDir, 'index.html')).catch(() => null);
    if (!index) throw new Error(`VitePress wrote no ${join(outDir, 'index.html')}`);
    return { outDir, manifest, seconds: (Date.now() - started) / 1000 };
  } finally {
    await rm(stage, { recursive: true, force: true });
  }
}
