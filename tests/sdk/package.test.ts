// `npm pack` makes an installable @casino-gaming/integration-service 3.2.1: the tarball installs
// into a scratch project, plain Node ESM imports it through the exports map and uses it against the
// function served by Deno, and TypeScript finds its declarations. The install takes the tarball's
// dependencies from the npm cache where it has them, else from the npm registry: `npm ci` caches
// tarballs but not the registry's version lists, which resolving the dependency ranges needs, so
// after `npm ci` on a fresh machine (CI) an offline install could not resolve them.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paths } from '../../scripts/lib/database.ts';
import { serveApiForFile } from '../openapi/served-api.ts';

const run = promisify(execFile);
const api = serveApiForFile('package');
let scratch: string;
let tarball: string;

async function packAndInstall() {
  scratch = await mkdtemp(join(tmpdir(), 'cgs-sdk-package-'));
  // prepack builds dist/ with tsc -p tsconfig.build.json first.
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', scratch], { cwd: paths.root });
  const [packed] = JSON.parse(stdout.slice(stdout.indexOf('[')));
  tarball = join(scratch, packed.filename);
  await writeFile(
    join(scratch, 'package.json'),
    JSON.stringify({ name: 'operator-app', private: true, type: 'module' }),
  );
  await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--no-package-lock', tarball], { cwd: scratch });
}

// Started at once, so that packing overlaps with Deno starting; its failure surfaces in beforeAll.
const installed = packAndInstall();
installed.catch(() => {});
beforeAll(() => installed, 120_000);
afterAll(() => scratch && rm(scratch, { recursive: true, force: true }));

describe('the packed SDK', () => {
  it('is version 3.2.1 and ships only dist/ with declarations for each export', async () => {
    const { stdout } = await run('tar', ['-tzf', tarball]);
    const files = stdout.split('\n').filter(Boolean).map((f) => f.replace(/^package\//, ''));
    expect(files.filter((f) => !f.startsWith('dist/')).sort()).toEqual(['README.md', 'package.json']);
    const installed = JSON.parse(
      await readFile(join(scratch, 'node_modules/@casino-gaming/integration-service/package.json'), 'utf8'),
    );
    expect(installed.version).toBe('3.2.1');
    for (const target of Object.values(installed.exports as Record<string, { types?: string; default?: string }>)) {
      if (typeof target === 'string') continue;
      expect(files).toContain(target.types!.slice(2));
      expect(files).toContain(target.default!.slice(2));
    }
  });

  it('plain Node ESM imports it and creates a session, reads it back and gets a typed error', async () => {
    await writeFile(
      join(scratch, 'use.mjs'),
      `
      import { ApiError, createOperatorClient } from '@casino-gaming/integration-service';
      import { createBackOfficeClient } from '@casino-gaming/integration-service/back-office';
      const client = createOperatorClient({ baseUrl: process.env.API_URL, apiKey: process.env.API_KEY });
      const session = await client.sessions.create({ playerId: 'packed-1', gameId: 'pragmatic-play:vs20olympgate', currency: 'EUR' });
      const read = await client.sessions.get(session.id);
      const error = await client.sessions.create({ playerId: 'packed-1', gameId: 'pragmatic-play:vs20olympgate', currency: 'XXX' })
        .catch((e) => e);
      const backOffice = typeof createBackOfficeClient('http://127.0.0.1:54321', 'anon').from;
      console.log(JSON.stringify({ session, read, isApiError: error instanceof ApiError, status: error.status,
        code: error.code, errors: error.problem?.errors, backOffice }));
    `,
    );
    const { stdout } = await run(process.execPath, ['use.mjs'], {
      cwd: scratch,
      env: { ...process.env, API_URL: api.url, API_KEY: api.operator.key },
    });
    const result = JSON.parse(stdout);
    expect(result.session).toMatchObject({
      player_id: 'packed-1',
      status: 'created',
      launch_url: expect.stringContaining('?token='),
    });
    expect(result.read).toMatchObject({ id: result.session.id, status: 'created' });
    expect(result).toMatchObject({
      isApiError: true,
      status: 422,
      code: 'reference_unavailable',
      backOffice: 'function',
    });
    expect(result.errors).toEqual([expect.objectContaining({ pointer: '#/currency', code: 'unknown_currency' })]);
  });

  it('TypeScript resolves its declarations through the exports map (NodeNext)', async () => {
    const consumer = join(scratch, 'consumer.ts');
    await writeFile(
      consumer,
      `
      import { ApiError, createOperatorClient, type CreatedSession } from '@casino-gaming/integration-service';
      import { clientWallets, createBackOfficeClient, type Tables } from '@casino-gaming/integration-service/back-office';
      const client = createOperatorClient({ baseUrl: 'http://127.0.0.1:54321/functions/v1', apiKey: 'cgs_live_x' });
      export const created: Promise<CreatedSession> = client.sessions.create({ playerId: 'p', gameId: 'a:b', currency: 'EUR' });
      export const launchUrl = (session: CreatedSession): string => session.launch_url;
      export const wallets: PromiseLike<{ data: Tables<'wallet'>[] | null }> = clientWallets(createBackOfficeClient('http://x', 'anon'), 'id');
      export const code = (error: ApiError) => error.code;
      // @ts-expect-error the SDK takes camelCase input: resolved types, not any
      client.sessions.create({ player_id: 'p', game_id: 'a:b', currency: 'EUR' });
    `,
    );
    const program = ts.createProgram([consumer], {
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
      types: [],
    });
    const diagnostics = ts.getPreEmitDiagnostics(program).map((d) =>
      ts.flattenDiagnosticMessageText(d.messageText, '\n')
    );
    expect(diagnostics).toEqual([]);
    const resolved = program.getSourceFiles().map((f) => f.fileName).filter((f) =>
      f.includes('@casino-gaming/integration-service/dist/')
    );
    expect(resolved).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/dist\/sdk\/index\.d\.ts$/),
        expect.stringMatching(/dist\/back-office\/index\.d\.ts$/),
      ]),
    );
  });
});
