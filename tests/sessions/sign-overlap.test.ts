// Where the launch token's signature falls in a request. Without an Idempotency-Key the database
// call must already be on its way to Postgres when the signing starts, so that the signature runs
// while the database works instead of adding to every request's latency. With one, the session is
// stored for replays with the call, so it is signed first.
import { Buffer } from 'node:buffer';
import net from 'node:net';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSessionTokenSigner, type SessionTokenSigner } from '../../supabase/functions/v3/session-token.ts';
import { connect } from '../helpers/db.ts';
import { ISSUER, newOperator, type Operator, sessionRequest, sessionsHandler, validBody } from '../helpers/api.ts';

const sql = connect();
let handle: (request: Request) => Promise<Response>;
let alice: Operator;
/** Whether the call had been written to a socket when the signer was called, per signature. */
let sentWhenSigned: boolean[] = [];
let statementsSent = 0;

beforeAll(async () => {
  const real = await createSessionTokenSigner({ issuer: ISSUER });
  const signer: SessionTokenSigner = {
    alg: real.alg,
    jwks: real.jwks,
    sign(claims) {
      sentWhenSigned.push(statementsSent > 0);
      return real.sign(claims);
    },
    verify: (token) => real.verify(token),
  };
  ({ handle } = await sessionsHandler({ signer }));
  alice = await newOperator(sql, 'alice');
  // The pool's connection opened: a statement waiting for one leaves late, whatever the handler does.
  expect((await handle(sessionRequest(validBody, { key: alice.key }))).status).toBe(201);
});

/** Counts writes of the endpoint's call on any socket (the pool's among them) while `run` runs. */
async function watchingWrites(run: () => Promise<void>): Promise<void> {
  const write = net.Socket.prototype.write;
  const own = Object.getOwnPropertyDescriptor(net.Socket.prototype, 'write');
  net.Socket.prototype.write = function (this: net.Socket, chunk: unknown, ...rest: unknown[]) {
    if (Buffer.isBuffer(chunk) && chunk.includes('create_game_session')) statementsSent++;
    return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
  } as typeof write;
  try {
    await run();
  } finally {
    if (own) Object.defineProperty(net.Socket.prototype, 'write', own);
    else delete (net.Socket.prototype as { write?: unknown }).write;
  }
  // Else the spy saw nothing, and "not sent when signed" would hold vacuously.
  expect(statementsSent).toBeGreaterThan(0);
}

beforeEach(() => {
  sentWhenSigned = [];
  statementsSent = 0;
});

describe('the launch token signature', () => {
  it('starts after the database call is written, without an Idempotency-Key', async () => {
    await watchingWrites(async () => {
      const response = await handle(sessionRequest({ ...validBody, player_id: 'overlap' }, { key: alice.key }));
      expect(response.status).toBe(201);
    });
    expect(sentWhenSigned).toEqual([true]);
  });

  it('comes first with an Idempotency-Key, whose stored response holds the token', async () => {
    await watchingWrites(async () => {
      const response = await handle(sessionRequest(
        { ...validBody, player_id: 'overlap-idempotent' },
        { key: alice.key, headers: { 'idempotency-key': crypto.randomUUID() } },
      ));
      expect(response.status).toBe(201);
    });
    expect(sentWhenSigned).toEqual([false]);
  });
});
