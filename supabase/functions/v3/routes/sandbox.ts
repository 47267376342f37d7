// The sandbox (test keys only): POST /v3/sandbox/players gives a test player a test balance, which
// the round engine then moves for that player's test sessions instead of the float, and GET
// /v3/sandbox/players/{player_id} reads its balances; POST
// /v3/sandbox/wallet-checks plays the self-check against the operator's test seamless wallet; POST
// /v3/sandbox/reset puts the caller's test world back. A caller without a working key gets 401
// before any 400.
import { Hono } from 'hono';
import { type Caller, type CallerEnv, operatorKey } from '../caller.ts';
import { jsonResponse, jsonTextResponse } from '../http.ts';
import { Problem } from '../problem.ts';
import { type ReferenceProblem, referenceError, referenceUnavailable, refuseUnknownReferences } from '../reference.ts';
import { readJsonBody } from '../request-body.ts';
import { checkWallet, type WalletCheckTarget } from '../wallet-check.ts';
import { checkCallableUrl } from '../callable-url.ts';
import type { ApiContext } from '../context.ts';
import { bodyContract } from '../contract.ts';
import { playerIdOf } from '../player-id.ts';
import { resource } from '../resource.ts';
import { rerunConflicts } from '../../_shared/database.ts';

const playerBody = bodyContract('/v3/sandbox/players');
const walletCheckBody = bodyContract('/v3/sandbox/wallet-checks');

/** The routes of this resource, relative to /v3. */
export function sandboxRoutes(ctx: ApiContext): Hono<CallerEnv> {
  const app = new Hono<CallerEnv>({ strict: false });
  const key = operatorKey(ctx.sql);
  resource(app, '/sandbox/players', { post: (c) => createTestPlayer(ctx, c.var.caller, c.req.raw) }, key);
  resource(app, '/sandbox/players/:player_id', { get: (c) => readTestPlayer(ctx, c.var.caller, c.req.param('player_id')!) }, key);
  resource(app, '/sandbox/reset', { post: (c) => resetSandbox(ctx, c.var.caller) }, key);
  return resource(app, '/sandbox/wallet-checks', { post: (c) => checkTestWallet(ctx, c.var.caller, c.req.raw) }, key);
}

/** What the database answers a read of a test player (private.read_sandbox_player). */
type ReadPlayerOutcome = 'found' | 'not_found' | 'live_key' | 'unauthorized';
/** What the database answers a reset (private.reset_sandbox). */
type ResetOutcome = 'reset' | 'live_key' | 'unauthorized';
/** What the database answers a test player's balance set (private.put_sandbox_player). */
type PutPlayerOutcome = 'created' | 'live_key' | 'unknown_currency' | 'currency_unavailable' | 'float_too_large' | 'unauthorized';

/**
 * POST /v3/sandbox/wallet-checks: the self-check of the caller's seamless wallet in test mode, a
 * report per scenario. Test keys only, so a live wallet never sees these calls.
 */
export async function checkTestWallet(ctx: ApiContext, caller: Caller, request: Request): Promise<Response> {
  const body = walletCheckBody(await readJsonBody(request, ctx.config.maxBodyBytes));
  const [row] = await caller.answer(ctx.sql<
    { authorized: boolean; livemode: boolean; target: { url: string; secrets: string[] } | null; problems: ReferenceProblem[] }[]
  >`
    select t.*, private.reference_problems(${body.currency}, null, true) as problems from private.wallet_check_target(${caller.keyHash}) t`);
  if (row.livemode) throw liveKey();
  refuseUnknownReferences(row.problems, 'body');
  if (!row.target) throw new Problem('not_seamless', 'Your test-mode wallet is not seamless: PUT /v3/wallet-settings with a test key and a url first.');
  await checkCallableUrl(ctx, row.target.url);
  const target: WalletCheckTarget = {
    url: row.target.url, secrets: row.target.secrets, timeoutMs: ctx.config.walletTimeoutMs, allowPrivateUrls: ctx.config.allowPrivateUrls,
  };
  const scenarios = await checkWallet(target, body);
  return jsonResponse(200, { passed: scenarios.every((s) => s.passed), scenarios }, { 'cache-control': 'no-store' });
}

const liveKey = () => new Problem('live_key', 'The sandbox takes test keys (cgs_test_) only.');

/** GET /v3/sandbox/players/{player_id}: the test player's balance in each currency it has one in. */
export async function readTestPlayer(ctx: ApiContext, caller: Caller, segment: string): Promise<Response> {
  const playerId = playerIdOf(segment);
  const [row] = await caller.answer(ctx.sql<{ outcome: ReadPlayerOutcome; players: string | null }[]>`
    select * from private.read_sandbox_player(${caller.keyHash}, ${playerId})`);
  switch (row.outcome) {
    case 'found':
      return jsonTextResponse(200, `{"data":${row.players}}`, { 'cache-control': 'no-store' });
    case 'live_key':
      throw liveKey();
    case 'not_found':
      throw new Problem('not_found', 'No test player with this id: POST /v3/sandbox/players makes one.');
  }
}

/**
 * POST /v3/sandbox/players: creates or resets a test player's balance in a currency; the difference
 * is a deposit or withdraw of the test float, in the test ledger.
 */
export async function createTestPlayer(ctx: ApiContext, caller: Caller, request: Request): Promise<Response> {
  const body = playerBody(await readJsonBody(request, ctx.config.maxBodyBytes));
  const [row] = await caller.answer(ctx.sql<{ outcome: PutPlayerOutcome; player: string }[]>`
    select * from private.put_sandbox_player(${caller.keyHash}, ${body.player_id}, ${body.currency}, ${body.balance}::numeric,
      ${body.behaviour ?? 'normal'})`);
  switch (row.outcome) {
    case 'created':
      return jsonTextResponse(200, row.player, { 'cache-control': 'no-store' });
    case 'live_key':
      throw liveKey();
    case 'unknown_currency':
    case 'currency_unavailable':
      throw referenceUnavailable([referenceError(row.outcome)]);
    case 'float_too_large':
      // The test float is the sum of the test players' balances, and holds less than 10^16 as the float does.
      throw new Problem('validation_failed', 'The request body has invalid fields; see `errors`.', {
        errors: [{
          pointer: '#/balance', code: 'invalid_range',
          detail: `Your test players' balances in ${body.currency} would sum to 10^16 or more: the test float holds less.`,
        }],
      });
  }
}

/**
 * POST /v3/sandbox/reset: removes the caller's test players, test restrictions and test webhook
 * endpoints, puts its test wallet settings back to transfer, closes its test sessions, ends its test
 * rounds, free rounds and sportsbook bets; answers how many of each. Test keys only: live records
 * are never touched. No body is read. Run again when a concurrent call of the engine's deadlocked
 * with it (the reset locks many rows; nothing of a call rolled back was written).
 */
export async function resetSandbox(ctx: ApiContext, caller: Caller): Promise<Response> {
  const [row] = await caller.answer(rerunConflicts(() => ctx.sql<{ outcome: ResetOutcome; body: string }[]>`
    select * from private.reset_sandbox(${caller.keyHash})`));
  switch (row.outcome) {
    case 'reset':
      return jsonTextResponse(200, row.body, { 'cache-control': 'no-store' });
    case 'live_key':
      throw liveKey();
  }
}
