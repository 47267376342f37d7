// The v3 function served under real Deno against the test database, and an operator with a fresh
// API key, for the tests that talk to it over HTTP (contract, SDK). Stopped after the file.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Sql } from 'postgres';
import { afterAll, beforeAll, inject } from 'vitest';
import { freePort } from '../../scripts/lib/embedded-postgres.ts';
import { type ServedFunction, serveFunction } from '../../scripts/lib/deno-function.ts';
import { connect } from '../helpers/db.ts';
import { newOperator, type Operator } from '../helpers/api.ts';

export interface ServedApi {
  /** The server URL the OpenAPI document names: {url}/v3/sessions. */
  url: string;
  operator: Operator;
  /** The test database, as its owner. */
  sql: Sql;
}

/** Serves the function for this test file; the returned object is filled in before the tests run. */
export function serveApiForFile(name: string): ServedApi {
  const api = { sql: connect() } as ServedApi;
  let served: ServedFunction | undefined;
  let denoDir: string;
  beforeAll(async () => {
    // A Deno cache of its own: the function starts from node_modules alone, as in CI.
    denoDir = await mkdtemp(join(tmpdir(), 'cgs-deno-'));
    const [function_, operator] = await Promise.all([
      // Local-run semantics, as npm start: the tests' webhook and wallet URLs are made up.
      serveFunction({ databaseUrl: inject('databaseUrl'), env: { DENO_DIR: denoDir, ALLOW_PRIVATE_URLS: 'true' } }),
      newOperator(api.sql, name),
    ]);
    served = function_;
    api.url = function_.url;
    api.operator = operator;
  });
  afterAll(async () => {
    await served?.stop();
    await rm(denoDir, { recursive: true, force: true });
  });
  return api;
}

/** The same function over a database that cannot be reached: every database call is a 503. */
export async function serveWithoutDatabase(): Promise<ServedFunction> {
  const deadDatabase = `postgresql://postgres:postgres@127.0.0.1:${await freePort()}/postgres`;
  return serveFunction({ databaseUrl: deadDatabase });
}

/** Holds the advisory lock a running POST /v3/sessions holds for (client, live mode, Idempotency-Key) while `fn` runs. */
export function whileKeyInFlight<T>(
  sql: Sql,
  clientId: string,
  idempotencyKey: string,
  fn: () => Promise<T>,
): Promise<T> {
  return sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(private.idempotency_lock(${clientId}, true, ${idempotencyKey}))`;
    return fn();
  }) as Promise<T>;
}
