// End to end: the Edge Function under real Deno (as `npm start` serves it), over HTTP, against the
// test database, including a burst of concurrent creations.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import net from 'node:net';
import { join } from 'node:path';
import { createLocalJWKSet, exportJWK, generateKeyPair, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { checkFunction, type ServedFunction, serveFunction } from '../../scripts/lib/deno-function.ts';
import { connect } from '../helpers/db.ts';
import { expectResponseMatches, type OperationId } from '../openapi/contract.ts';
import { serveWithoutDatabase } from '../openapi/served-api.ts';
import { newOperator, type Operator, validBody } from '../helpers/api.ts';

const sql = connect();
let served: ServedFunction;
let alice: Operator;
let denoDir: string;

beforeAll(async () => {
  // An empty Deno cache: the function must start with what node_modules holds, no registry.
  denoDir = await mkdtemp(join(tmpdir(), 'cgs-deno-'));
  const env = { DENO_DIR: denoDir };
  [served, alice] = await Promise.all([
    serveFunction({ databaseUrl: inject('databaseUrl'), env }),
    newOperator(sql, 'alice'),
  ]);
});
afterAll(async () => {
  await served?.stop();
  await rm(denoDir, { recursive: true, force: true });
});

/** Reads a response's body, after checking status, headers and body against the OpenAPI description. */
async function documented(operationId: OperationId, response: Response) {
  const text = await response.clone().text();
  const body = text && response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text;
  expectResponseMatches(operationId, response, body);
  return body;
}

const post = (body: unknown, headers: Record<string, string> = {}, base = served.url) =>
  fetch(`${base}/v3/sessions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${alice.key}`, ...headers },
    body: JSON.stringify(body),
  });

/** Starts the function with `env` and expects it to stop before listening: resolves with its output. */
async function refusedStart(env: Record<string, string>): Promise<Error> {
  const started = serveFunction({ databaseUrl: inject('databaseUrl'), env: { DENO_DIR: denoDir, ...env } });
  return started.then(async (served) => {
    await served.stop();
    throw new Error('the function started');
  }, (refused: Error) => refused);
}

describe('v3 under Deno', () => {
  // A whole type-check of the function: minutes on a loaded machine, not the default 30 s.
  it('type-checks under Deno (deno check), offline', async () => {
    await expect(checkFunction({ DENO_DIR: denoDir })).resolves.toBeUndefined();
  }, 180_000);

  it('creates a session over HTTP: 201, Location under /functions/v1, a launch URL', async () => {
    const response = await post(validBody);
    expect(response.status).toBe(201);
    const session = await documented('createSession', response);
    expect(response.headers.get('location')).toBe(`/functions/v1/v3/sessions/${session.id}`);
    expect(session).toMatchObject({ ...validBody, status: 'created', launch_url: expect.stringContaining('?token=') });
  });

  it('replays an Idempotency-Key retry byte for byte over HTTP', async () => {
    const headers = { 'idempotency-key': `e2e-${Date.now()}` };
    const first = await post(validBody, headers);
    const retry = await post(validBody, headers);
    expect([first.status, retry.status]).toEqual([201, 201]);
    await documented('createSession', retry);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await retry.text()).toBe(await first.text());
  });

  it('answers 503 problem+json when its database is unreachable', async () => {
    const orphan = await serveWithoutDatabase();
    try {
      const response = await post(validBody, {}, orphan.url);
      expect(response.status).toBe(503);
      expect((await documented('createSession', response)).code).toBe('service_unavailable');
    } finally {
      await orphan.stop();
    }
  });

  it('answers errors as problem+json over HTTP (401, 405, 413)', async () => {
    const unauthorized = await post(validBody, { authorization: 'Bearer nope' });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(unauthorized.headers.get('content-type')).toBe('application/problem+json');
    const notAllowed = await fetch(`${served.url}/v3/sessions`, { method: 'DELETE' });
    expect(notAllowed.status).toBe(405);
    expect(notAllowed.headers.get('allow')).toBe('GET, POST');
    const tooLarge = await post({ ...validBody, player_id: 'x'.repeat(32 * 1024) });
    expect(tooLarge.status).toBe(413);
    for (const response of [unauthorized, notAllowed, tooLarge]) await documented('createSession', response);
  });

  // readJsonBody takes a body with a declared length in one read; that is bounded only because the
  // HTTP layer ends the body at its Content-Length. A server that read on would not answer 201 here.
  it('reads a body up to its Content-Length and no further', async () => {
    const body = JSON.stringify({ ...validBody, player_id: 'framed' });
    const { hostname, port } = new URL(served.url);
    const socket = net.connect(Number(port), hostname);
    const firstLine = new Promise<string>((resolve, reject) => {
      let received = '';
      socket.on('data', (chunk) => {
        received += chunk.toString('latin1');
        if (received.includes('\r\n')) resolve(received.slice(0, received.indexOf('\r\n')));
      });
      socket.on('error', reject);
      socket.on('close', () => reject(new Error('the connection closed without an answer')));
    });
    socket.write([
      'POST /functions/v1/v3/sessions HTTP/1.1', `host: ${hostname}:${port}`, 'content-type: application/json',
      `authorization: Bearer ${alice.key}`, `content-length: ${Buffer.byteLength(body)}`, '', body,
    ].join('\r\n') + 'x'.repeat(20 * 1024));
    try {
      expect(await firstLine).toBe('HTTP/1.1 201 Created');
    } finally {
      socket.destroy();
    }
  });

  it('serves the JWKS providers verify launch tokens with', async () => {
    const response = await fetch(`${served.url}/v3/.well-known/jwks.json`);
    expect(response.status).toBe(200);
    expect((await documented('getJwks', response)).keys[0]).toMatchObject({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA' });
  });

  it('reads a session back at its Location, and serves the OpenAPI document it was bundled with', async () => {
    const created = await post(validBody);
    const location = created.headers.get('location')!;
    const read = await fetch(new URL(location, served.url), { headers: { authorization: `Bearer ${alice.key}` } });
    expect(read.status).toBe(200);
    const { id } = await documented('createSession', created);
    expect(await documented('getSession', read)).toMatchObject({ id, status: 'created', launch_url: expect.any(String) });
    const document = await fetch(`${served.url}/v3/openapi.json`);
    expect(document.status).toBe(200);
    const file = await readFile(new URL('../../supabase/functions/v3/openapi.json', import.meta.url), 'utf8');
    // Its first server is where it was read: this function's own port, not the default one.
    const bundled = JSON.parse(file);
    expect(await documented('getOpenApiDescription', document)).toEqual({
      ...bundled, servers: [{ url: served.url, description: 'Where this document was read' }, ...bundled.servers.slice(1)],
    });
  });

  it('creates 200 sessions sent at once: 200 × 201, 200 distinct sessions, 200 rows', async () => {
    const [{ before }] = await sql`select count(*)::int as before from public.game_session where client_id = ${alice.account.id}`;
    const responses = await Promise.all(
      Array.from({ length: 200 }, (_, i) => post({ ...validBody, player_id: `burst-${i}` })),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(200).fill(201));
    const ids = new Set((await Promise.all(responses.map((r) => documented('createSession', r)))).map((s) => s.id));
    expect(ids.size).toBe(200);
    const [{ rows }] = await sql`
      select count(*)::int as rows from public.game_session
      where client_id = ${alice.account.id} and id = any(${[...ids]}::uuid[])`;
    expect(rows).toBe(200);
    const [{ after }] = await sql`select count(*)::int as after from public.game_session where client_id = ${alice.account.id}`;
    expect(after).toBe(before + 200);
  });
});

describe('v3 under Deno: the launch token settings', () => {
  /** Serves the function with `env` for one session: its published JWKS, the session and its token. */
  async function signedBy(env: Record<string, string>) {
    const configured = await serveFunction({ databaseUrl: inject('databaseUrl'), env: { DENO_DIR: denoDir, ...env } });
    try {
      const jwks = await documented('getJwks', await fetch(`${configured.url}/v3/.well-known/jwks.json`));
      const session = await documented('createSession', await post(validBody, {}, configured.url));
      return { jwks, session, token: new URL(session.launch_url).searchParams.get('token')! };
    } finally {
      await configured.stop();
    }
  }

  it('signs with ES256 when SESSION_TOKEN_ALG=ES256, verifiable with the JWKS it publishes', async () => {
    const { jwks, session, token } = await signedBy({ SESSION_TOKEN_ALG: 'ES256' });
    expect(jwks.keys[0]).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256' });
    const { payload } = await jwtVerify(token, createLocalJWKSet(jwks), { audience: 'pragmatic-play', algorithms: ['ES256'] });
    expect(payload).toMatchObject({ jti: session.id, sub: validBody.player_id });
  });

  it.each(['EdDSA', 'ES256'] as const)('signs with a configured %s key (SESSION_TOKEN_PRIVATE_JWK) and publishes its public half', async (alg) => {
    const pair = await generateKeyPair(alg, { extractable: true });
    const privateJwk = { ...(await exportJWK(pair.privateKey)), kid: 'deno-2026' };
    const { jwks, token } = await signedBy({ SESSION_TOKEN_PRIVATE_JWK: JSON.stringify(privateJwk) });
    expect(jwks.keys).toEqual([{ ...(await exportJWK(pair.publicKey)), kid: 'deno-2026', alg, use: 'sig' }]);
    const { protectedHeader } = await jwtVerify(token, pair.publicKey, { audience: 'pragmatic-play', algorithms: [alg] });
    expect(protectedHeader.kid).toBe('deno-2026');
  });

  it('does not start when SESSION_TOKEN_PRIVATE_JWK does not match SESSION_TOKEN_ALG, and never prints the key', async () => {
    const privateJwk = await exportJWK((await generateKeyPair('EdDSA', { extractable: true })).privateKey);
    const error = await refusedStart({ SESSION_TOKEN_ALG: 'ES256', SESSION_TOKEN_PRIVATE_JWK: JSON.stringify(privateJwk) });
    expect(error.message).toMatch(/deno exited .*SESSION_TOKEN_ALG is ES256 but the session token key is OKP Ed25519/s);
    expect(error.message).not.toContain(privateJwk.d);
  });

  it('serves with prepared statements on a direct connection (DB_PREPARE=true)', async () => {
    const prepared = await serveFunction({
      databaseUrl: inject('databaseUrl'), env: { DENO_DIR: denoDir, DB_POOL_MAX: '1', DB_PREPARE: 'true' },
    });
    try {
      // One connection: the second and third calls run the statement the first one prepared.
      for (const player of ['prepared-1', 'prepared-2', 'prepared-3']) {
        const response = await post({ ...validBody, player_id: player }, {}, prepared.url);
        expect(response.status).toBe(201);
        expect((await documented('createSession', response)).player_id).toBe(player);
      }
    } finally {
      await prepared.stop();
    }
  });

  it('does not start with a DB_PREPARE that is neither true nor false', async () => {
    const error = await refusedStart({ DB_PREPARE: 'yes' });
    expect(error.message).toMatch(/deno exited .*DB_PREPARE must be true or false, not "yes"/s);
  });

  it('does not start with a launch window it cannot serve (SESSION_TTL_SECONDS=0)', async () => {
    const error = await refusedStart({ SESSION_TTL_SECONDS: '0' });
    expect(error.message).toMatch(/deno exited .*SESSION_TTL_SECONDS must be a positive integer up to 86400, not "0"/s);
  });
});
