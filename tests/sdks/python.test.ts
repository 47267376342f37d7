// The Python SDK (sdks/python) against the real function: its pytest suite (unit tests, and the
// integration tests reading the harness's CGS_* environment), and the package as an operator gets it:
// the sdist and the wheel built offline, the wheel installed into a fresh virtual environment
// without a package index, and used there against the API. Debian's python3 is preferred (CI has
// only it); nothing is written into the repository (no bytecode, no pytest cache, builds in temp).
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';
import { paths } from '../../scripts/lib/database.ts';
import { describeWithTool, sdkEnvironment } from './harness.ts';

const run = promisify(execFile);
const sdk = join(paths.root, 'sdks', 'python');
const INSTALL = 'apt-get install python3 python3-pytest python3-venv python3-setuptools python3-wheel';

interface Python {
  path: string;
  pytest: boolean;
  /** setuptools and wheel (the build backend), and venv with its bundled pip. */
  packaging: boolean;
}

async function works(python: string, args: string[]): Promise<boolean> {
  return run(python, args, { timeout: 30_000 }).then(() => true, () => false);
}

/** Each python3 there is, Debian's first, and what it can run. */
async function pythons(): Promise<Python[]> {
  const found: Python[] = [];
  for (const path of ['/usr/bin/python3', 'python3']) {
    if (!(await works(path, ['--version']))) continue;
    const [pytest, packaging] = await Promise.all([
      works(path, ['-m', 'pytest', '--version']),
      works(path, ['-c', 'import ensurepip, setuptools, venv, wheel; ensurepip.version()']),
    ]);
    found.push({ path, pytest, packaging });
  }
  return found;
}

const found = await pythons();
/** The first python3 that runs pytest, and the first that can build and install the package. */
const tester = found.find((python) => python.pytest);
const builder = found.find((python) => python.packaging);
const python = tester ?? builder ?? found[0];
const quiet = { PYTHONDONTWRITEBYTECODE: '1', PIP_DISABLE_PIP_VERSION_CHECK: '1', PIP_NO_INDEX: '1' };

interface Output {
  code: number;
  output: string;
  stdout: string;
}

/** Runs a command, never throwing: its exit code and everything it printed. */
function capture(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; timeout: number }): Promise<Output> {
  return new Promise((resolve) => {
    execFile(command, args, { ...options, maxBuffer: 32 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      // Not started, or killed at its timeout: the reason is in the error alone.
      const note = error && typeof error.code !== 'number' ? `\n(${error.message})` : '';
      resolve({ code, stdout, output: `$ ${command} ${args.join(' ')}\n${stdout}${stderr}${note}` });
    });
  });
}

// Built and installed at once, while the harness starts Deno: the build needs no server.
const scratch = await mkdtemp(join(tmpdir(), 'cgs-sdk-python-'));
afterAll(() => rm(scratch, { recursive: true, force: true }));

async function buildAndInstall(python: Python) {
  const dist = join(scratch, 'dist');
  const venv = join(scratch, 'venv');
  const env = { ...process.env, ...quiet };
  const built = await capture(python.path, ['scripts/build_dist.py', '--outdir', dist], { cwd: sdk, env, timeout: 120_000 });
  if (built.code !== 0) return { failed: built.output };
  const [sdist, wheel] = built.stdout.trim().split('\n').slice(-2);
  const created = await capture(python.path, ['-m', 'venv', venv], { cwd: scratch, env, timeout: 120_000 });
  if (created.code !== 0) return { failed: created.output };
  const venvPython = join(venv, 'bin', 'python');
  const installed = await capture(venvPython, ['-m', 'pip', 'install', '--no-index', '--no-deps', join(dist, wheel)], {
    cwd: scratch, env, timeout: 120_000,
  });
  if (installed.code !== 0) return { failed: installed.output };
  return { dist, sdist, wheel, venvPython };
}

const packaged = builder ? buildAndInstall(builder) : null;
// Its failure is reported by the packaging test, not as an unhandled rejection at load.
packaged?.catch(() => {});

const env = sdkEnvironment('python');

await describeWithTool(python?.path ?? 'python3', INSTALL, 'the Python SDK', () => {
  if (python && !tester) {
    console.warn(`SKIPPED the Python SDK's pytest suite: pytest is not installed for ${python.path} (apt-get install python3-pytest).`);
  }
  if (python && !builder) {
    console.warn(`SKIPPED the Python SDK's packaging test: ${python.path} lacks setuptools, wheel or venv (${INSTALL}).`);
  }

  it.skipIf(!tester)('passes its pytest suite: unit tests, and integration tests against the function', async () => {
    const result = await capture(tester!.path, ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', '-rs'], {
      cwd: sdk,
      env: { ...process.env, ...env, ...quiet },
      timeout: 180_000,
    });
    if (result.code !== 0) console.error(result.output);
    expect(result.code, result.output).toBe(0);
    // Every test ran: with CGS_* set, none may skip (a skipped integration test is a silent pass).
    expect(result.stdout).toMatch(/\d+ passed/);
    expect(result.stdout, result.output).not.toMatch(/skipped/);
  }, 200_000);

  it.skipIf(!python)('says what to install when the build backend lacks wheel, before building anything', async () => {
    // A `wheel` that cannot be imported, whether or not this python3 has the real one.
    const hidden = join(scratch, 'no-wheel');
    await mkdir(join(hidden, 'wheel'), { recursive: true });
    await writeFile(join(hidden, 'wheel', '__init__.py'), 'raise ImportError("hidden by the test")\n');
    const outdir = join(scratch, 'no-wheel-dist');
    const result = await capture(python!.path, ['scripts/build_dist.py', '--outdir', outdir], {
      cwd: sdk, env: { ...process.env, ...quiet, PYTHONPATH: hidden }, timeout: 60_000,
    });
    expect(result.code, result.output).not.toBe(0);
    expect(result.output).toContain('wheel cannot be imported');
    expect(result.output).toContain('apt-get install python3-wheel');
    expect(result.output).toContain('-m pip install wheel');
    expect(result.output).not.toContain('invalid command');
    expect(await readdir(outdir)).toEqual([]);
  });

  it.skipIf(!builder)('builds offline into a wheel that installs into a fresh venv and creates a session', async () => {
    const build = await packaged!;
    if ('failed' in build) expect.unreachable(build.failed);
    expect(build.wheel).toBe('casino_gaming-1.9.3-py3-none-any.whl');
    expect(build.sdist).toMatch(/^casino[-_]gaming-1\.9\.3\.tar\.gz$/);

    // The sdist holds the package (typed) and its pyproject; the wheel the package and its metadata.
    const { stdout: listed } = await run('tar', ['-tzf', join(build.dist, build.sdist)]);
    const files = listed.split('\n').filter(Boolean).map((file) => file.replace(/^[^/]+\//, ''));
    expect(files).toEqual(expect.arrayContaining([
      'pyproject.toml', 'README.md', 'PKG-INFO', 'src/casino_gaming/__init__.py', 'src/casino_gaming/types.py',
      'src/casino_gaming/webhooks.py', 'src/casino_gaming/seamless.py', 'src/casino_gaming/py.typed',
    ]));

    const script = join(scratch, 'use_sdk.py');
    await writeFile(script, `
import importlib.metadata, json, os, pathlib, zipfile
import casino_gaming

client = casino_gaming.Client(os.environ["CGS_LIVE_KEY"], base_url=os.environ["CGS_API_URL"])
session = client.sessions.create(player_id="packaged-1", game_id="pragmatic-play:vs20olympgate", currency="EUR")
try:
    client.sessions.create(player_id="packaged-1", game_id="pragmatic-play:vs20olympgate", currency="XXX")
    error = None
except casino_gaming.UnprocessableEntityError as raised:
    error = {"status": raised.status, "code": raised.code, "errors": [[e.pointer, e.code] for e in raised.errors]}
package = pathlib.Path(casino_gaming.__file__).parent
wheel = zipfile.ZipFile(os.environ["WHEEL"]).namelist()
print(json.dumps({
    "version": casino_gaming.__version__,
    "metadata_version": importlib.metadata.version("casino-gaming"),
    "requires_python": importlib.metadata.metadata("casino-gaming")["Requires-Python"],
    "location": str(package),
    "typed": (package / "py.typed").is_file(),
    "wheel_typed": "casino_gaming/py.typed" in wheel,
    "session": {"status": session.status, "player_id": session.player_id, "launch_url": session.launch_url,
                "livemode": session.livemode},
    "error": error,
}))
`);
    // A clean environment: only what the script needs, run from the scratch folder so nothing
    // but the installed wheel can be imported.
    const result = await capture(build.venvPython, [script], {
      cwd: scratch,
      env: { PATH: process.env.PATH, ...quiet, CGS_API_URL: env.CGS_API_URL, CGS_LIVE_KEY: env.CGS_LIVE_KEY, WHEEL: join(build.dist, build.wheel) },
      timeout: 60_000,
    });
    expect(result.code, result.output).toBe(0);
    const used = JSON.parse(result.stdout.trim().split('\n').pop()!);
    expect(used).toMatchObject({
      version: '1.9.3',
      metadata_version: '1.9.3',
      requires_python: '>=3.9',
      typed: true,
      wheel_typed: true,
      session: { status: 'created', player_id: 'packaged-1', livemode: true, launch_url: expect.stringContaining('token=') },
      error: { status: 422, code: 'reference_unavailable', errors: [['#/currency', 'unknown_currency']] },
    });
    expect(used.location.startsWith(join(scratch, 'venv'))).toBe(true);

    // The build left nothing in the repository.
    const left = [...await readdir(sdk), ...await readdir(join(sdk, 'src'))];
    expect(left.filter((name) => /^(build|dist)$|\.egg-info$|^__pycache__$/.test(name))).toEqual([]);
  }, 200_000);
});
