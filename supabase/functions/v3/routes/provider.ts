// The provider API: what a game provider's server calls while a player plays. GET
// /v3/provider/balance, POST /v3/provider/bets, /wins and /rollbacks, each with the provider's key
// and the session's launch token; GET /v3/provider/free-rounds (a session's usable free-round
// grants) and POST /v3/provider/free-rounds/{grant_id}/payout (a lump-sum grant's one credit).
// Each is one database call into the round engine (one transaction),
// which applies a provider's transaction_id once and answers a repeat with its first answer. For an
// operator in seamless mode the engine queues a call to its wallet; the route makes it at once and
// records the answer (a second transaction), and answers the provider with what the operator said.
import { Hono } from 'hono';
import { cors } from 'hono/cors';
import { type Caller, type CallerEnv, providerKey } from '../caller.ts';
import { DatabaseUnavailable, isDatabaseUnavailable, rerunConflicts } from '../../_shared/database.ts';
import { jsonResponse } from '../http.ts';
import { Problem } from '../problem.ts';
import { readJsonBody } from '../request-body.ts';
import { decimalValue } from '../decimal-value.ts';
import { sha256Hex } from '../sha256.ts';
import { type FinishedCall, makeWalletCall, type QueuedWalletCall, sendWalletCall, type WalletCallSettings } from '../../_shared/wallet-call.ts';
import type { ApiContext } from '../context.ts';
import { bodyContract, parameterContract, queryContract } from '../contract.ts';
import type { VerifiedToken } from '../session-token.ts';
import { resource } from '../resource.ts';

const balanceQuery = queryContract('/v3/provider/balance');
const betBody = bodyContract('/v3/provider/bets');
const winBody = bodyContract('/v3/provider/wins');
const rollbackBody = bodyContract('/v3/provider/rollbacks');
const freeRoundsQuery = queryContract('/v3/provider/free-rounds');
const payoutBody = bodyContract('/v3/provider/free-rounds/{grant_id}/payout');
const isGrantId = parameterContract('/v3/provider/free-rounds/{grant_id}/payout', 'post', 'path', 'grant_id');

/** The routes of this resource, relative to /v3. */
export function providerRoutes(ctx: ApiContext): Hono<CallerEnv> {
  const app = new Hono<CallerEnv>({ strict: false });
  // The demo game is a web page calling this API from another origin (the key and token are bearer
  // values, never cookies, so allowing any origin exposes nothing a server-side caller lacks).
  // Refusals carry the header too (app.ts answers them inside this middleware), else the page would
  // see no answer at all, which a game must treat as a bet of unknown fate.
  app.use('/provider/*', cors({ origin: '*', allowMethods: ['GET', 'POST'], allowHeaders: ['authorization', 'content-type'], maxAge: 600 }));
  const key = providerKey(ctx.sql);
  resource(app, '/provider/balance', { get: (c) => balance(ctx, c.var.caller, c.req.raw) }, key);
  resource(app, '/provider/bets', { post: (c) => bet(ctx, c.var.caller, c.req.raw) }, key);
  resource(app, '/provider/wins', { post: (c) => win(ctx, c.var.caller, c.req.raw) }, key);
  resource(app, '/provider/free-rounds', { get: (c) => freeRounds(ctx, c.var.caller, c.req.raw) }, key);
  resource(app, '/provider/free-rounds/:grant_id/payout', {
    post: (c) => payout(ctx, c.var.caller, c.req.raw, c.req.param('grant_id') ?? ''),
  }, key);
  return resource(app, '/provider/rollbacks', { post: (c) => rollback(ctx, c.var.caller, c.req.raw) }, key);
}

/**
 * What the round engine answers a bet, win or rollback (private.round_bet, round_win, round_rollback):
 * the answer (`ok`, or `replayed`, a repeat's first answer), a call to make to the operator's
 * wallet first (seamless), a test player's slow wallet, an unknown key, or a refusal.
 */
type EngineOutcome = 'ok' | 'replayed' | 'wallet_call' | 'wallet_balance' | 'wallet_timeout' | 'invalid_provider_key' | EngineRefusal;

/** The engine's refusals, each answered as the problem of the same code. */
type EngineRefusal =
  | 'unknown_session' | 'duplicate_transaction' | 'transaction_rolled_back' | 'transaction_pending' | 'operator_suspended'
  | 'session_closed' | 'session_expired' | 'round_mismatch' | 'round_closed' | 'unknown_round' | 'unknown_transaction'
  | 'bet_settled' | 'invalid_rollback' | 'test_player_unknown' | 'insufficient_funds' | 'amount_too_large'
  | 'player_restricted' | 'stake_limit_exceeded' | 'session_time_exceeded' | 'loss_limit_reached'
  | 'wallet_pending' | 'wallet_failed' | 'wallet_refused' | FreeRoundRefusal;

/** The engine's refusals of a free bet, win or payout (the free round play migration). */
type FreeRoundRefusal =
  | 'free_round_grant_unknown' | 'free_round_wrong_player' | 'free_round_wrong_game' | 'free_round_stake_mismatch'
  | 'free_rounds_exhausted' | 'free_round_grant_expired' | 'free_round_campaign_cancelled' | 'free_round_campaign_scheduled'
  | 'free_round_mismatch' | 'free_round_already_paid' | 'free_round_not_lump_sum' | 'free_rounds_left' | 'free_round_not_played';

/** What the engine answers a balance request (private.round_balance). */
type BalanceOutcome = 'ok' | 'wallet_call' | 'invalid_provider_key' | 'unknown_session';

/** Every refusal the provider can get: the engine's, and a wallet that gave no balance. */
type Refusal = EngineRefusal | 'wallet_unavailable';

/** The refusals whose problem is one sentence; the others carry the engine's members (refused). */
const refusals: Record<Exclude<Refusal, 'insufficient_funds' | 'wallet_refused'>, string> = {
  unknown_session: "The session token's session is not one of this provider's.",
  test_player_unknown: "A test session's player needs a balance: POST /v3/sandbox/players with the operator's test key.",
  transaction_pending: "The bet this names still waits for the operator's wallet: send this again shortly.",
  wallet_pending: "Recorded: the operator's wallet has not accepted it yet, and the platform keeps sending it. Send this again for its answer.",
  wallet_failed: "The operator's wallet did not answer the debit in time: the bet is rolled back, at the operator too.",
  wallet_unavailable: "The operator's wallet did not answer: try again shortly.",
  session_expired: 'The session was never launched and its launch window has closed.',
  session_closed: 'The session is closed: it takes no more bets.',
  duplicate_transaction: 'This transaction_id was used by another request.',
  transaction_rolled_back: 'This bet was rolled back.',
  unknown_round: 'No round with this round_id: a round starts with a bet.',
  round_closed: 'The round is closed or cancelled.',
  round_mismatch: 'The round belongs to another session.',
  unknown_transaction: 'No bet with this id in this round.',
  bet_settled: 'A win has settled this bet: it can no longer be rolled back.',
  invalid_rollback: 'Only a bet of this session can be rolled back.',
  amount_too_large: 'The amount would take a balance or a round total past 16 digits before the point.',
  player_restricted: 'The player is self-excluded or cooling off: no bets; wins and rollbacks still settle.',
  operator_suspended: "The operator's account is suspended or closed: no bets; wins and rollbacks still settle.",
  stake_limit_exceeded: "The bet is larger than the player's stake limit, or the jurisdiction's maximum stake.",
  session_time_exceeded: "The session has lasted longer than the player's session time limit.",
  loss_limit_reached: 'The bet would take the player past a loss limit; nothing was written.',
  free_round_grant_unknown: "No free-round grant with this id among the session's operator's, in its mode, of this provider.",
  free_round_wrong_player: "The free-round grant is another player's.",
  free_round_wrong_game: "The free-round grant is for another game or currency, or locked to the game its first round played.",
  free_round_stake_mismatch: "A free bet's amount is its grant's bet_amount.",
  free_rounds_exhausted: 'Every round of the free-round grant is used.',
  free_round_grant_expired: 'The free-round grant has expired: it takes no free bet.',
  free_round_campaign_cancelled: 'The free-round campaign, or this player\'s grant of it, was cancelled: no new free bet (a round in play still settles).',
  free_round_campaign_scheduled: 'The free-round campaign has not started yet.',
  free_round_mismatch: 'The round is funded otherwise: a free round takes free bets of its own grant only, and a cash round no free bet.',
  free_round_already_paid: 'The free-round grant was paid out already, under another transaction_id.',
  free_round_not_lump_sum: 'The grant\'s game pays its free-round wins per round: there is no payout to make.',
  free_rounds_left: 'The free-round grant can still be played, or has a round in play: its payout comes at its end.',
  free_round_not_played: 'No round of the free-round grant was played: there is nothing to pay out.',
};

/** The round engine's refusal as the problem the provider gets; `members` from the engine (JSON). */
function refused(outcome: Refusal, members: string | null): Problem {
  const { balance = null, currency, wallet_code } = members ? JSON.parse(members) : {};
  switch (outcome) {
    case 'insufficient_funds':
      return new Problem('insufficient_funds', `The balance is ${balance} ${currency}.`, { members: { balance, currency } });
    case 'wallet_refused':
      return new Problem('wallet_refused', `The operator's wallet refused the debit (${wallet_code}); nothing was written.`, {
        members: { wallet_code, ...(balance !== null ? { balance, currency } : {}) },
      });
    default:
      return new Problem(outcome, refusals[outcome]);
  }
}

function verifiedToken(ctx: ApiContext, token: string): VerifiedToken {
  const verified = ctx.signer.verify(token);
  if (!verified) throw new Problem('invalid_session_token', 'The session token was not issued by this service, or was changed.');
  return verified;
}

function walletSettings(ctx: ApiContext): WalletCallSettings {
  return { timeoutMs: ctx.config.walletTimeoutMs, allowPrivateUrls: ctx.config.allowPrivateUrls };
}

/** GET /v3/provider/balance: the balance a bet would be taken from (the float, or the operator's wallet). */
export async function balance(ctx: ApiContext, caller: Caller, request: Request): Promise<Response> {
  const { values, errors } = balanceQuery(new URL(request.url));
  if (errors.length) throw new Problem('invalid_parameters', 'The query has invalid parameters; see `errors`.', { errors });
  const token = verifiedToken(ctx, values.session_token);
  const [{ outcome, body }] = await caller.answer(ctx.sql<{ outcome: BalanceOutcome; body: { balance: string; currency: string } & QueuedWalletCall }[]>`
    select * from private.round_balance(${caller.keyHash}, ${token.sessionId}::uuid)`);
  const answered = (balance: string, currency: string) => jsonResponse(200, { balance, currency }, { 'cache-control': 'no-store' });
  switch (outcome) {
    case 'ok':
      return answered(body.balance, body.currency);
    case 'wallet_call': {
      const answer = await sendWalletCall(body, walletSettings(ctx));
      if (answer.kind !== 'accepted') throw refused('wallet_unavailable', null);
      return answered(answer.balance, body.request.currency);
    }
    case 'unknown_session':
      throw refused(outcome, null);
  }
}

/** The engine's answer: its outcome, and the provider's answer as stored (replayed as these bytes). */
type Applied = Omit<FinishedCall, 'outcome'> & { outcome: EngineOutcome };

/**
 * A bet, win or rollback: the key, then the body and the token (401 before any 400), then the
 * engine's one call. The fingerprint is the request's meaning, every field in a fixed order with
 * its default and amounts by value, so a retry however spelt is the same request.
 */
async function apply<B extends { session_token: string }>(
  ctx: ApiContext,
  caller: Caller,
  request: Request,
  kind: 'bet' | 'win' | 'rollback',
  parse: (body: unknown) => B,
  meaning: (body: B) => unknown[],
  call: (keyHash: string, sessionId: string, body: B, fingerprint: string, walletBalance: string | null) => Promise<Applied[]>,
): Promise<Response> {
  const body = parse(await readJsonBody(request, ctx.config.maxBodyBytes));
  const token = verifiedToken(ctx, body.session_token);
  const fingerprint = sha256Hex(JSON.stringify([kind, token.sessionId, ...meaning(body)]));
  return answerApplied(ctx, caller, (walletBalance) => call(caller.keyHash, token.sessionId, body, fingerprint, walletBalance));
}

/**
 * The engine's call made and answered: run again for concurrent ones (rerunConflicts); a free bet
 * in seamless mode first needs the operator's balance for its answer (`wallet_balance`: a balance
 * call, then the same engine call with it; no debit is made); a queued wallet call made at once.
 */
async function answerApplied(ctx: ApiContext, caller: Caller, call: (walletBalance: string | null) => Promise<Applied[]>): Promise<Response> {
  let [applied] = await caller.answer(rerunConflicts(() => call(null)));
  if (applied.outcome === 'wallet_balance') {
    const asked = await sendWalletCall(JSON.parse(applied.body!), walletSettings(ctx));
    if (asked.kind !== 'accepted') throw refused('wallet_unavailable', null);
    [applied] = await caller.answer(rerunConflicts(() => call(asked.balance)));
    if (applied.outcome === 'wallet_balance') throw refused('wallet_unavailable', null);
  }
  const result = applied.outcome === 'wallet_call'
    // The engine has recorded the request: losing the database from here on leaves it applied and
    // its answer unknown, whatever the failing statement was.
    ? await makeWalletCall(ctx.sql, JSON.parse(applied.body!), walletSettings(ctx)).catch((error: unknown) => {
      throw isDatabaseUnavailable(error) ? new DatabaseUnavailable(true, error) : error;
    })
    : { ...applied, outcome: applied.outcome as Exclude<EngineOutcome, 'wallet_balance' | 'wallet_call' | 'invalid_provider_key'> };
  const answered = (headers: Record<string, string> = {}) =>
    new Response(result.body, { status: 200, headers: { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers } });
  switch (result.outcome) {
    case 'ok':
      return answered();
    case 'replayed':
      return answered({ 'idempotent-replayed': 'true' });
    case 'wallet_timeout':
      // A test player whose wallet is slow: answered as a wallet that never answered, as late.
      await new Promise((resolve) => setTimeout(resolve, ctx.config.walletTimeoutMs));
      throw refused('wallet_failed', null);
    case 'stale':
      // The call's attempt was superseded (its lease ran out and another took it): that attempt
      // answers for it, this request cannot. An internal error, logged.
      throw new Error('the wallet call answered stale');
    default:
      throw refused(result.outcome, result.body);
  }
}

/** A free-round grant named, appended to a request's meaning (a cash request's meaning is unchanged). */
const grantMeaning = (grantId: string | undefined) => (grantId ? [grantId] : []);

/** POST /v3/provider/bets */
export function bet(ctx: ApiContext, caller: Caller, request: Request): Promise<Response> {
  return apply(ctx, caller, request, 'bet', betBody,
    (b) => [b.transaction_id, b.round_id, decimalValue(b.amount), b.round_closed ?? false, ...grantMeaning(b.free_round_grant_id)],
    (keyHash, sessionId, b, fingerprint, walletBalance) =>
    ctx.sql<Applied[]>`
      select outcome, body::text, balance from private.round_bet(${keyHash}, ${sessionId}::uuid, ${b.transaction_id},
        ${b.round_id}, ${b.amount}::numeric, ${b.round_closed ?? false}, ${fingerprint}, ${b.free_round_grant_id ?? null}::uuid,
        ${walletBalance})`);
}

/** POST /v3/provider/wins */
export function win(ctx: ApiContext, caller: Caller, request: Request): Promise<Response> {
  return apply(ctx, caller, request, 'win', winBody,
    (w) => [w.transaction_id, w.round_id, decimalValue(w.amount), w.round_closed ?? false, w.bet_transaction_id ?? null,
      ...grantMeaning(w.free_round_grant_id)],
    (keyHash, sessionId, w, fingerprint) =>
    ctx.sql<Applied[]>`
      select outcome, body::text, balance from private.round_win(${keyHash}, ${sessionId}::uuid, ${w.transaction_id},
        ${w.round_id}, ${w.amount}::numeric, ${w.round_closed ?? false}, ${w.bet_transaction_id ?? null}, ${fingerprint},
        ${w.free_round_grant_id ?? null}::uuid)`);
}

/**
 * POST /v3/provider/free-rounds/{grant_id}/payout: a lump-sum grant's one credit (no session token:
 * it is paid in the session of the grant's last round). Its transaction_id applies once, forever.
 */
export async function payout(ctx: ApiContext, caller: Caller, request: Request, grantId: string): Promise<Response> {
  const body = payoutBody(await readJsonBody(request, ctx.config.maxBodyBytes));
  if (!isGrantId(grantId)) throw refused('free_round_grant_unknown', null);
  const fingerprint = sha256Hex(JSON.stringify(['payout', grantId, body.transaction_id, decimalValue(body.amount)]));
  return answerApplied(ctx, caller, () => ctx.sql<Applied[]>`
    select outcome, body::text, balance from private.free_round_payout(${caller.keyHash}, ${grantId}::uuid,
      ${body.transaction_id}, ${body.amount}::numeric, ${fingerprint})`);
}

/** GET /v3/provider/free-rounds: the grants the session's player can play in it now. */
export async function freeRounds(ctx: ApiContext, caller: Caller, request: Request): Promise<Response> {
  const { values, errors } = freeRoundsQuery(new URL(request.url));
  if (errors.length) throw new Problem('invalid_parameters', 'The query has invalid parameters; see `errors`.', { errors });
  const token = verifiedToken(ctx, values.session_token);
  const [{ outcome, body }] = await caller.answer(ctx.sql<{ outcome: 'ok' | 'invalid_provider_key' | 'unknown_session'; body: string | null }[]>`
    select outcome, body::text from private.session_free_rounds(${caller.keyHash}, ${token.sessionId}::uuid)`);
  if (outcome !== 'ok') throw refused('unknown_session', null);
  return new Response(body, { status: 200, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' } });
}

/** POST /v3/provider/rollbacks */
export function rollback(ctx: ApiContext, caller: Caller, request: Request): Promise<Response> {
  return apply(ctx, caller, request, 'rollback', rollbackBody, (r) => [r.transaction_id, r.rolled_back_transaction_id],
    (keyHash, sessionId, r, fingerprint) =>
    ctx.sql<Applied[]>`
      select outcome, body::text, balance from private.round_rollback(${keyHash}, ${sessionId}::uuid, ${r.transaction_id},
        ${r.rolled_back_transaction_id}, ${fingerprint})`);
}
