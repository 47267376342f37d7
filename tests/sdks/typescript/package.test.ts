// `npm pack` makes two installable packages, both 3.2.1: the operator SDK `@casino-gaming/sdk`
// (sdks/typescript, no dependencies at all, so it installs offline) and the back office's typed
// client `@casino-gaming/integration-service` (the repository's root, over supabase-js). Both
// tarballs install into one scratch project; plain Node ESM imports them through their exports
// maps and uses the SDK against the function served by Deno; TypeScript finds their declarations.
// The back office's install takes supabase-js from the npm cache where it has it, else from the
// registry: `npm ci` caches tarballs but not the registry's version lists, which resolving a range
// needs, so on a fresh machine (CI) an offline install could not resolve it.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Webhook } from 'standardwebhooks';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paths } from '../../../scripts/lib/database.ts';
import { serveApiForFile } from '../../openapi/served-api.ts';

const run = promisify(execFile);
const api = serveApiForFile('package');
const sdkFolder = join(paths.root, 'sdks/typescript');
let scratch: string;
const tarballs = { sdk: '', backOffice: '' };

async function pack(folder: string): Promise<string> {
  // prepack builds dist/ with the folder's tsconfig.build.json first.
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', scratch], { cwd: folder });
  return join(scratch, JSON.parse(stdout.slice(stdout.indexOf('[')))[0].filename);
}

const npmInstall = (...args: string[]) =>
  run('npm', ['install', '--no-audit', '--no-fund', '--no-package-lock', ...args], { cwd: scratch });

async function packAndInstall() {
  scratch = await mkdtemp(join(tmpdir(), 'cgs-sdk-package-'));
  [tarballs.sdk, tarballs.backOffice] = await Promise.all([pack(sdkFolder), pack(paths.root)]);
  await writeFile(join(scratch, 'package.json'), JSON.stringify({ name: 'operator-app', private: true, type: 'module' }));
  await npmInstall('--offline', tarballs.sdk);
  await npmInstall('--prefer-offline', tarballs.backOffice);
}

// Started at once, so that packing overlaps with Deno starting; its failure surfaces in beforeAll.
const installed = packAndInstall();
installed.catch(() => {});
beforeAll(() => installed, 120_000);
afterAll(() => scratch && rm(scratch, { recursive: true, force: true }));

async function packedFiles(tarball: string): Promise<string[]> {
  const { stdout } = await run('tar', ['-tzf', tarball]);
  return stdout.split('\n').filter(Boolean).map((f) => f.replace(/^package\//, ''));
}

const installedManifest = async (name: string) =>
  JSON.parse(await readFile(join(scratch, 'node_modules', name, 'package.json'), 'utf8'));

describe('the packed packages', () => {
  it('the SDK is @casino-gaming/sdk 3.2.1: dist/ with declarations, a README, and no dependencies', async () => {
    const files = await packedFiles(tarballs.sdk);
    expect(files.filter((f) => !f.startsWith('dist/')).sort()).toEqual(['README.md', 'package.json']);
    const manifest = await installedManifest('@casino-gaming/sdk');
    expect(manifest.version).toBe('3.2.1');
    expect(manifest.dependencies ?? {}).toEqual({});
    expect(manifest.peerDependencies ?? {}).toEqual({});
    expect(files).toEqual(expect.arrayContaining([manifest.exports['.'].types.slice(2), manifest.exports['.'].default.slice(2)]));
  });

  it('the back office client is @casino-gaming/integration-service 3.2.1, without the SDK', async () => {
    const files = await packedFiles(tarballs.backOffice);
    expect(files.filter((f) => !f.startsWith('dist/')).sort()).toEqual(['README.md', 'package.json']);
    expect(files.filter((f) => f.startsWith('dist/sdk/'))).toEqual([]);
    const manifest = await installedManifest('@casino-gaming/integration-service');
    expect(manifest.version).toBe('3.2.1');
    for (const target of Object.values(manifest.exports as Record<string, { types?: string; default?: string }>)) {
      if (typeof target === 'string') continue;
      expect(files).toContain(target.types!.slice(2));
      expect(files).toContain(target.default!.slice(2));
    }
  });

  it('plain Node ESM imports both: a session created and read back, a typed error, a webhook verified', async () => {
    const secret = `whsec_${Buffer.from('packed-sdk-signing-secret-000000').toString('base64')}`;
    const body = JSON.stringify({ id: 'evt-1', type: 'session.created', livemode: true, data: {} });
    const at = new Date();
    const headers = { 'webhook-id': 'evt-1', 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': new Webhook(secret).sign('evt-1', at, body) };
    await writeFile(
      join(scratch, 'use.mjs'),
      `
      import { ApiError, createOperatorClient, verifyWebhook } from '@casino-gaming/sdk';
      import { createBackOfficeClient } from '@casino-gaming/integration-service/back-office';
      const client = createOperatorClient({ baseUrl: process.env.API_URL, apiKey: process.env.API_KEY });
      const session = await client.sessions.create({ playerId: 'packed-1', gameId: 'pragmatic-play:vs20olympgate', currency: 'EUR' });
      const read = await client.sessions.get(session.id);
      const error = await client.sessions.create({ playerId: 'packed-1', gameId: 'pragmatic-play:vs20olympgate', currency: 'XXX' })
        .catch((e) => e);
      const event = await verifyWebhook(process.env.BODY, JSON.parse(process.env.HEADERS), process.env.SECRET);
      const tampered = await verifyWebhook(process.env.BODY + ' ', JSON.parse(process.env.HEADERS), process.env.SECRET).catch((e) => e.name);
      const backOffice = typeof createBackOfficeClient('http://127.0.0.1:54321', 'anon').from;
      console.log(JSON.stringify({ session, read, isApiError: error instanceof ApiError, status: error.status,
        code: error.code, errors: error.problem?.errors, event: event.type, tampered, backOffice }));
    `,
    );
    const { stdout } = await run(process.execPath, ['use.mjs'], {
      cwd: scratch,
      env: { ...process.env, API_URL: api.url, API_KEY: api.operator.key, BODY: body, HEADERS: JSON.stringify(headers), SECRET: secret },
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
      event: 'session.created',
      tampered: 'WebhookVerificationError',
      backOffice: 'function',
    });
    expect(result.errors).toEqual([expect.objectContaining({ pointer: '#/currency', code: 'unknown_currency' })]);
  });

  it('TypeScript resolves their declarations through the exports maps (NodeNext)', async () => {
    const consumer = join(scratch, 'consumer.ts');
    await writeFile(
      consumer,
      `
      import { ApiError, createOperatorClient, type CreatedSession, type WalletCall, verifyWalletCall } from '@casino-gaming/sdk';
      import { clientWallets, createBackOfficeClient, type Tables } from '@casino-gaming/integration-service/back-office';
      const client = createOperatorClient({ baseUrl: 'http://127.0.0.1:54321/functions/v1', apiKey: 'cgs_live_x' });
      export const created: Promise<CreatedSession> = client.sessions.create({ playerId: 'p', gameId: 'a:b', currency: 'EUR' });
      export const launchUrl = (session: CreatedSession): string => session.launch_url;
      export const wallets: PromiseLike<{ data: Tables<'wallet'>[] | null }> = clientWallets(createBackOfficeClient('http://x', 'anon'), 'id');
      export const code = (error: ApiError) => error.code;
      export const action = (call: WalletCall): 'balance' | 'debit' | 'credit' | 'rollback' => call.action;
      export const verified: Promise<WalletCall> = verifyWalletCall('{}', {}, 'whsec_x');
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
    const resolved = program.getSourceFiles().map((f) => f.fileName).filter((f) => f.includes('/node_modules/@casino-gaming/'));
    expect(resolved).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/@casino-gaming\/sdk\/dist\/index\.d\.ts$/),
        expect.stringMatching(/@casino-gaming\/integration-service\/dist\/back-office\/index\.d\.ts$/),
      ]),
    );
  });
});
