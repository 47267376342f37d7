// The Postman collection (openapi/postman.json) run as the portal's downloads page says: newman, the
// collection's own variables, `baseUrl` the served function and `bearerToken` a fresh test key.
// Every request passes its tests, and the sandbox is as usable after the run as before: the wallet
// still in transfer mode, no webhook endpoint left to retry, no cool-off on anyone, and a new
// session of the demo game plays.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import newman, { type NewmanRunSummary } from 'newman';
import type { Sql } from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postmanFile } from '../../scripts/openapi-artifacts.ts';
import { serveFunction, type ServedFunction } from '../../scripts/lib/deno-function.ts';
import { freePort } from '../../scripts/lib/embedded-postgres.ts';
import { isolatedDatabase, issueKey, newOperator, type Operator } from '../helpers/api.ts';

let owner: Sql;
let served: ServedFunction;
let operator: Operator;
let testKey: string;
let folder: string;
let requestNames: string[];

beforeAll(async () => {
  const db = await isolatedDatabase('postman_run');
  owner = db.owner;
  folder = await mkdtemp(join(tmpdir(), 'cgs-postman-'));
  // ALLOW_PRIVATE_URLS as npm start sets it: the run's webhook endpoint points at the loopback.
  served = await serveFunction({
    databaseUrl: db.url, port: await freePort(), env: { DENO_DIR: join(folder, 'deno'), ALLOW_PRIVATE_URLS: 'true' },
  });
  operator = await newOperator(owner, 'postman');
  interface Item { name: string; item?: Item[] }
  const names = (items: Item[]): string[] => items.flatMap((i) => (i.item ? names(i.item) : [i.name]));
  requestNames = names(JSON.parse(await readFile(postmanFile, 'utf8')).item);
  testKey = (await issueKey(owner, operator.account, 'Postman', false)).key;
}, 120_000);

afterAll(async () => {
  await served?.stop();
  if (folder) await rm(folder, { recursive: true, force: true });
});

async function run(variables: Record<string, string>): Promise<NewmanRunSummary> {
  const collection = JSON.parse(await readFile(postmanFile, 'utf8'));
  return new Promise((resolve, reject) =>
    newman.run({
      collection,
      envVar: Object.entries(variables).map(([key, value]) => ({ key, value })),
      reporters: [],
      timeoutRequest: 30_000,
    }, (error, summary) => (error ? reject(error) : resolve(summary)))
  );
}

/** Each request's name, status and the tests it failed. */
function report(summary: NewmanRunSummary) {
  return summary.run.executions.map((e) => ({
    request: e.item.name,
    status: e.response?.code,
    tests: (e.assertions ?? []).length,
    failed: (e.assertions ?? []).filter((a) => a.error).map((a) => `${a.assertion}: ${a.error!.message}`),
  }));
}

const api = (path: string, init: { method?: string; key?: string; body?: unknown } = {}) =>
  fetch(`${served.url}${path}`, {
    method: init.method ?? (init.body ? 'POST' : 'GET'),
    headers: { authorization: `Bearer ${init.key ?? testKey}`, 'content-type': 'application/json' },
    body: init.body ? JSON.stringify(init.body) : undefined,
  }).then(async (response) => ({ status: response.status, body: await response.json() }));

describe('the Postman collection, run with newman against the function and a test key', () => {
  let summary: NewmanRunSummary;

  beforeAll(async () => {
    summary = await run({ baseUrl: served.url, bearerToken: testKey });
  }, 120_000);

  it('passes every request\'s tests, top to bottom: every operation but the reset, which runs only when asked', () => {
    const results = report(summary);
    expect(results.filter((r) => r.failed.length || r.status === undefined || r.tests === 0)).toEqual([]);
    expect(summary.run.failures.map((f) => `${f.source?.name}: ${f.error.message}`)).toEqual([]);
    expect(results.map((r) => r.request)).toEqual(requestNames.filter((name) => name !== 'Reset your sandbox'));
  });

  it('leaves the sandbox usable: transfer mode, no endpoint, no cool-off, and a new session plays', async () => {
    expect((await api('/v3/wallet-settings')).body).toMatchObject({ mode: 'transfer' });
    expect((await api('/v3/webhook-endpoints')).body.data).toEqual([]);
    expect(await owner`select player_id from public.player_restriction
                       where client_id = ${operator.account.id} and (cool_off_until is not null or self_excluded_until is not null
                         or self_excluded_indefinitely)`).toEqual([]);
    await api('/v3/sandbox/players', { body: { player_id: 'after-postman', currency: 'EUR', balance: '10' } });
    const session = await api('/v3/sessions', { body: { player_id: 'after-postman', game_id: 'cgs-sandbox:lucky-sevens', currency: 'EUR' } });
    expect(session.status).toBe(201);
    const token = new URL(session.body.launch_url).searchParams.get('token');
    const bet = await api('/v3/provider/bets', {
      key: 'cgs_prov_SANDBOX-demo-game-public-key-test-only-0000',
      body: { session_token: token, transaction_id: 'after-postman-bet', round_id: 'after-postman-round', amount: '1' },
    });
    expect(bet).toMatchObject({ status: 200, body: { balance: '9.0000' } });
  });

  it('runs green again (ids chained afresh, the test player made again), ending with the reset when asked', async () => {
    const again = await run({ baseUrl: served.url, bearerToken: testKey, resetSandbox: 'true' });
    const results = report(again);
    expect(results.filter((r) => r.failed.length || r.status === undefined)).toEqual([]);
    expect(results.map((r) => r.request)).toEqual(requestNames);
    expect((await api('/v3/sandbox/players/postman-player')).status).toBe(404);
  }, 120_000);
});
