// The sportsbook (issue 35): the provider's calls, POST /v3/provider/sportsbook/bets (place, with the
// session's launch token) and .../bets/{bet_id}/commit, /discard, /settlements, /unsettle and /close
// (the provider's key alone: bets settle long after their session), each one database call into
// the engine (private.sportsbook_*, one transaction) that applies a transaction_id once and answers
// a repeat with its first answer, byte for byte; and the operator's reads, GET /v3/sportsbook/bets
// and /{id}, with every settlement. The rules are the migrations' (20261126000600_sportsbook.sql;
// seamless mode, 20261127001000_sportsbook_seamless.sql). For an operator in seamless mode a call
// that moves money queues a call to its wallet; the route makes it at once and records the answer
// (a second transaction), and answers the provider with what the operator said.
import { Hono } from 'hono';
import { type Caller, type CallerEnv, operatorKey, providerKey } from '../caller.ts';
import { DatabaseUnavailable, isDatabaseUnavailable, rerunConflicts } from '../../_shared/database.ts';
import { makeWalletCall } from '../../_shared/wallet-call.ts';
import { jsonTextResponse } from '../http.ts';
import { CURSOR_UUID, pageJson, parseListQuery } from '../list-query.ts';
import { Problem, pointerTo } from '../problem.ts';
import { readJsonBody } from '../request-body.ts';
import { decimalValue } from '../decimal-value.ts';
import { sha256Hex } from '../sha256.ts';
import type { ApiContext } from '../context.ts';
import { bodyContract, parameterContract, queryContract, schemaContract } from '../contract.ts';
import { type Outcome, ownObject } from '../own-object.ts';
import { resource } from '../resource.ts';

const placeBody = bodyContract('/v3/provider/sportsbook/bets');
const commitBody = bodyContract('/v3/provider/sportsbook/bets/{bet_id}/commit');
const discardBody = bodyContract('/v3/provider/sportsbook/bets/{bet_id}/discard');
const settleBody = bodyContract('/v3/provider/sportsbook/bets/{bet_id}/settlements');
const unsettleBody = bodyContract('/v3/provider/sportsbook/bets/{bet_id}/unsettle');
const closeBody = bodyContract('/v3/provider/sportsbook/bets/{bet_id}/close');
const isBetId = schemaContract('SportsbookBetId');
const betsQuery = queryContract('/v3/sportsbook/bets');
const isId = parameterContract('/v3/sportsbook/bets/{id}', 'get', 'path', 'id');
const isDateTime = schemaContract('DateTime');
const fixtureBody = bodyContract('/v3/sandbox/sportsbook/fixtures/{fixture_id}/settle');
const isFixtureId = schemaContract('SandboxFixtureId');
const noStore = { 'cache-control': 'no-store' };

/** Selections are kept as they came, up to this many bytes of JSON. */
export const SELECTIONS_MAX_BYTES = 8_192;

/** The routes of this resource, relative to /v3. */
export function sportsbookRoutes(ctx: ApiContext): Hono<CallerEnv> {
  const app = new Hono<CallerEnv>({ strict: false });
  const provider = providerKey(ctx.sql);
  const operator = operatorKey(ctx.sql);
  resource(app, '/provider/sportsbook/bets', { post: (c) => place(ctx, c.var.caller, c.req.raw) }, provider);
  for (const [segment, handler] of Object.entries(calls)) {
    resource(app, `/provider/sportsbook/bets/:bet_id/${segment}`, {
      post: (c) => handler(ctx, c.var.caller, c.req.param('bet_id')!, c.req.raw),
    }, provider);
  }
  resource(app, '/sportsbook/bets', { get: (c) => listBets(ctx, c.var.caller, c.req.raw) }, operator);
  for (const action of ['settle', 'resettle', 'void'] as const) {
    resource(app, `/sandbox/sportsbook/fixtures/:fixture_id/${action}`, {
      post: (c) => fixtureOutcome(ctx, c.var.caller, c.req.raw, c.req.param('fixture_id')!, action),
    }, operator);
  }
  return resource(app, '/sportsbook/bets/:id', { get: (c) => readBet(ctx, c.var.caller, c.req.param('id')!) }, operator);
}

/**
 * What the engine answers: the answer (`ok`, or `replayed`), a call to make to the operator's wallet
 * first (seamless), a test player's slow wallet, an unknown key, or a refusal.
 */
type EngineOutcome = 'ok' | 'replayed' | 'wallet_call' | 'wallet_timeout' | 'invalid_provider_key' | Refusal;

type Refusal =
  | 'unknown_session' | 'duplicate_transaction' | 'duplicate_bet' | 'not_sportsbook'
  | 'operator_suspended' | 'session_closed' | 'session_expired' | 'test_player_unknown' | 'insufficient_funds'
  | 'amount_too_large' | 'player_restricted' | 'stake_limit_exceeded' | 'session_time_exceeded' | 'loss_limit_reached'
  | 'wallet_failed' | 'unknown_bet' | 'unknown_transaction' | 'bet_reserved' | 'bet_not_reserved' | 'bet_discarded'
  | 'bet_not_settled' | 'bet_closed' | 'invalid_settlement' | 'settlement_cancelled' | 'transaction_pending'
  | 'wallet_pending' | 'wallet_refused';

const refusals: Record<Exclude<Refusal, 'insufficient_funds' | 'invalid_settlement' | 'wallet_refused'>, string> = {
  unknown_session: "The session token's session is not one of this provider's.",
  duplicate_transaction: 'This transaction_id was used by another request.',
  duplicate_bet: "This bet_id is another bet's.",
  not_sportsbook: "The session's game is not a sportsbook: its bets are the casino calls'.",
  operator_suspended: "The operator's account is suspended or closed: no bets; settlements still come.",
  session_closed: 'The session is closed: it takes no more bets.',
  session_expired: 'The session was never launched and its launch window has closed.',
  test_player_unknown: "A test session's player needs a balance: POST /v3/sandbox/players with the operator's test key.",
  amount_too_large: 'The amount would take a balance past 16 digits before the point.',
  player_restricted: 'The player is self-excluded or cooling off: no bets; settlements still come.',
  stake_limit_exceeded: "The stake is larger than the player's stake limit, or the jurisdiction's maximum stake.",
  session_time_exceeded: "The session has lasted longer than the player's session time limit.",
  loss_limit_reached: 'The stake would take the player past a loss limit; nothing was written.',
  wallet_failed: "The wallet did not take the stake (a test player's failing wallet, or the operator's wallet gave no answer in time): the bet is not placed.",
  wallet_pending: "Recorded: the operator's wallet has not taken it yet, and the platform keeps sending it. Send this again for its answer.",
  transaction_pending: "The bet's stake still waits for the operator's wallet: send this again shortly.",
  unknown_bet: "No bet of this provider's with this bet_id: a bet starts with its placement.",
  unknown_transaction: "The settlement named is another bet's.",
  bet_reserved: 'The bet is reserved: commit it first.',
  bet_not_reserved: 'Only a reserved bet can be discarded.',
  bet_discarded: 'The bet was discarded.',
  bet_not_settled: 'The bet is not settled.',
  bet_closed: 'The bet is closed: it takes nothing more.',
  settlement_cancelled: 'An unsettle named this settlement before it came: it stays undone.',
};

/** The engine's refusal as the problem the provider gets; `members` from the engine (JSON). */
function refused(outcome: Refusal, members: string | null): Problem {
  const found = members ? JSON.parse(members) : {};
  switch (outcome) {
    case 'insufficient_funds':
      return new Problem('insufficient_funds', `The balance is ${found.balance} ${found.currency}.`, {
        members: { balance: found.balance, currency: found.currency },
      });
    case 'invalid_settlement':
      return new Problem('invalid_settlement', found.reason === 'payout_above_potential'
        ? `The payout is above the bet's potential payout, ${found.potential_payout}.`
        : `The result and the payout disagree: lost pays 0, won more than 0, void the stake (${found.stake}).`, {
        members: { reason: found.reason },
      });
    case 'wallet_refused':
      return new Problem('wallet_refused', `The operator's wallet refused the stake (${found.wallet_code}); the bet is not placed.`, {
        members: { wallet_code: found.wallet_code, ...(found.balance != null ? { balance: found.balance, currency: found.currency } : {}) },
      });
    default:
      return new Problem(outcome, refusals[outcome]);
  }
}

/** JSON with every object's members in one order, so the same selections however spelt mean the same. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.keys(value).sort().map((key) => [key, canonical((value as Record<string, unknown>)[key])]));
}

type Applied = { outcome: EngineOutcome; body: string | null };

/**
 * The engine's one call (run again when a concurrent movement took the balance it read), and the
 * wallet call it queued (seamless) made at once, answered.
 */
async function answer(ctx: ApiContext, caller: Caller, call: () => Promise<Applied[]>): Promise<Response> {
  const [applied] = await caller.answer(rerunConflicts(call));
  const result: Applied = applied.outcome === 'wallet_call'
    // The engine has recorded the call: losing the database from here on leaves it applied and its
    // answer unknown, whatever the failing statement was.
    ? await makeWalletCall(ctx.sql, JSON.parse(applied.body!), {
      timeoutMs: ctx.config.walletTimeoutMs, allowPrivateUrls: ctx.config.allowPrivateUrls,
    }).then((finished) => {
      // A superseded attempt (its lease ran out and another took it) cannot answer for the call.
      if (finished.outcome === 'stale') throw new Error('the wallet call answered stale');
      return { outcome: finished.outcome, body: finished.body };
    }, (error: unknown) => {
      throw isDatabaseUnavailable(error) ? new DatabaseUnavailable(true, error) : error;
    })
    : applied;
  const answered = (headers: Record<string, string> = {}) =>
    new Response(result.body, { status: 200, headers: { 'content-type': 'application/json', ...noStore, ...headers } });
  switch (result.outcome) {
    case 'ok':
      return answered();
    case 'replayed':
      return answered({ 'idempotent-replayed': 'true' });
    case 'wallet_timeout':
      // A test player whose wallet is slow: answered as a wallet that never answered, as late.
      await new Promise((resolve) => setTimeout(resolve, ctx.config.walletTimeoutMs));
      throw refused('wallet_failed', null);
    case 'wallet_call':
    case 'invalid_provider_key':
      throw new Error(`the engine answered ${result.outcome} after its call`);
    default:
      throw refused(result.outcome, result.body);
  }
}

/** POST /v3/provider/sportsbook/bets: the key, then the body and the token (401 before any 400), then the engine. */
export async function place(ctx: ApiContext, caller: Caller, request: Request): Promise<Response> {
  const body = placeBody(await readJsonBody(request, ctx.config.maxBodyBytes));
  const errors = [];
  if (new TextEncoder().encode(JSON.stringify(body.selections)).length > SELECTIONS_MAX_BYTES) {
    errors.push({ pointer: pointerTo('selections'), code: 'invalid_format', detail: `selections must be at most ${SELECTIONS_MAX_BYTES} bytes of JSON.` });
  }
  if (Number(body.potential_payout) < Number(body.amount)) {
    errors.push({ pointer: pointerTo('potential_payout'), code: 'invalid_range', detail: 'potential_payout must be at least the amount.' });
  }
  if (errors.length) throw new Problem('validation_failed', 'The request body has invalid fields; see `errors`.', { errors });
  const token = ctx.signer.verify(body.session_token);
  if (!token) throw new Problem('invalid_session_token', 'The session token was not issued by this service, or was changed.');
  const twoPhase = body.two_phase ?? false;
  const fingerprint = sha256Hex(JSON.stringify(['sportsbook_place', token.sessionId, body.bet_id, body.transaction_id,
    decimalValue(body.amount), decimalValue(body.odds), decimalValue(body.potential_payout), canonical(body.selections), twoPhase]));
  return answer(ctx, caller, () =>
    ctx.sql<Applied[]>`
      select outcome, body::text from private.sportsbook_place(${caller.keyHash}, ${token.sessionId}::uuid, ${body.bet_id},
        ${body.transaction_id}, ${body.amount}::numeric, ${body.odds}::numeric, ${body.potential_payout}::numeric,
        ${ctx.sql.json((body.selections ?? null) as never)}, ${twoPhase}, ${fingerprint})`);
}

type Call = (ctx: ApiContext, caller: Caller, betId: string, request: Request) => Promise<Response>;

/**
 * A call on a placed bet: the key, then the body (a bet_id that cannot be one names no bet), then
 * the engine. The fingerprint is the request's meaning: every field, amounts by value.
 */
function betCall<B extends { transaction_id: string }>(
  kind: string,
  parse: (body: unknown) => B,
  meaning: (body: B) => unknown[],
  call: (ctx: ApiContext, keyHash: string, betId: string, body: B, fingerprint: string) => Promise<Applied[]>,
): Call {
  return async (ctx, caller, betId, request) => {
    const body = parse(await readJsonBody(request, ctx.config.maxBodyBytes));
    const fingerprint = sha256Hex(JSON.stringify([`sportsbook_${kind}`, betId, body.transaction_id, ...meaning(body)]));
    if (!isBetId(betId)) {
      await caller.answer(ctx.sql<{ authorized: boolean }[]>`
        select private.sportsbook_provider(${caller.keyHash}) is not null as authorized`);
      throw refused('unknown_bet', null);
    }
    return answer(ctx, caller, () => call(ctx, caller.keyHash, betId, body, fingerprint));
  };
}

const calls: Record<string, Call> = {
  commit: betCall('commit', commitBody, () => [], (ctx, keyHash, betId, b, fingerprint) =>
    ctx.sql<Applied[]>`select outcome, body::text from private.sportsbook_commit(${keyHash}, ${betId}, ${b.transaction_id}, ${fingerprint})`),
  discard: betCall('discard', discardBody, () => [], (ctx, keyHash, betId, b, fingerprint) =>
    ctx.sql<Applied[]>`select outcome, body::text from private.sportsbook_discard(${keyHash}, ${betId}, ${b.transaction_id}, ${fingerprint})`),
  settlements: betCall('settle', settleBody, (b) => [b.result, decimalValue(b.payout)], (ctx, keyHash, betId, b, fingerprint) =>
    ctx.sql<Applied[]>`
      select outcome, body::text from private.sportsbook_settle(${keyHash}, ${betId}, ${b.transaction_id}, ${b.result},
        ${b.payout}::numeric, ${fingerprint})`),
  unsettle: betCall('unsettle', unsettleBody, (b) => [b.settlement_transaction_id ?? null], (ctx, keyHash, betId, b, fingerprint) =>
    ctx.sql<Applied[]>`
      select outcome, body::text from private.sportsbook_unsettle(${keyHash}, ${betId}, ${b.transaction_id},
        ${b.settlement_transaction_id ?? null}, ${fingerprint})`),
  close: betCall('close', closeBody, () => [], (ctx, keyHash, betId, b, fingerprint) =>
    ctx.sql<Applied[]>`select outcome, body::text from private.sportsbook_close(${keyHash}, ${betId}, ${b.transaction_id}, ${fingerprint})`),
};

/** GET /v3/sportsbook/bets: one page, keyset on (placed_at, id). */
export async function listBets(ctx: ApiContext, caller: Caller, request: Request): Promise<Response> {
  const query = parseListQuery(new URL(request.url), betsQuery, 2, ([at, id]) => isDateTime(at) && CURSOR_UUID.test(id));
  const { status, player_id, settled_after } = query.filters;
  const rows = await caller.answer(ctx.readSql<{ authorized: boolean; id: string | null; position: string; bet: string }[]>`
    select * from private.list_sportsbook_bets(${caller.keyHash}, ${status ?? null}, ${player_id ?? null}, ${settled_after ?? null},
      ${query.after?.[0] ?? null}, ${query.after?.[1] ?? null}, ${query.limit + 1})`);
  const found = rows.filter((row) => row.id !== null);
  return jsonTextResponse(200, pageJson(found, query.limit, (row) => [row.position, row.id!], (row) => row.bet), noStore);
}

/** GET /v3/sportsbook/bets/{id}: one of the caller's bets in its key's mode; anything else is 404. */
export async function readBet(ctx: ApiContext, caller: Caller, id: string): Promise<Response> {
  const row = await ownObject(caller, id, { isId, notFound: 'No sportsbook bet with this id.' }, (keyHash, betId) =>
    ctx.sql<(Outcome & { bet: string })[]>`select * from private.read_sportsbook_bet(${keyHash}, ${betId}::uuid)`);
  return jsonTextResponse(200, row.bet, noStore);
}

/** What the database answers a fixture's outcome (private.sandbox_fixture_outcome). */
type FixtureOutcome = 'ok' | 'unauthorized' | 'live_key' | 'fixture_settled' | 'fixture_not_settled';

/**
 * POST /v3/sandbox/sportsbook/fixtures/{fixture_id}/settle, /resettle and /void: the demo
 * sportsbook's provider part, played by the platform with the caller's outcome. Every bet it
 * changes is a call of the demo provider's to the engine, in one transaction; the seamless wallet
 * calls they queued are made at once after it (each retried by the runner until taken, as any).
 */
export async function fixtureOutcome(
  ctx: ApiContext, caller: Caller, request: Request, fixtureId: string, action: 'settle' | 'resettle' | 'void',
): Promise<Response> {
  const outcome = action === 'void' ? 'void' : fixtureBody(await readJsonBody(request, ctx.config.maxBodyBytes)).outcome;
  const liveKey = () => new Problem('live_key', 'The sandbox takes test keys (cgs_test_) only.');
  if (!isFixtureId(fixtureId)) {
    const [key] = await caller.answer(ctx.sql<{ authorized: boolean; livemode: boolean | null }[]>`
      select a.key_id is not null as authorized, a.livemode
      from (select 1) one left join private.authenticate_api_key(${caller.keyHash}) a on true`);
    if (key.livemode) throw liveKey();
    throw new Problem('not_found', 'No fixture with this id: a fixture id is lower-case letters, digits and hyphens.');
  }
  const id = fixtureId;
  const rows = await caller.answer(rerunConflicts(() => ctx.sql<
    { outcome: FixtureOutcome; bet_round_id: string | null; engine_outcome: string | null; engine_body: string | null }[]
  >`
    select outcome, bet_round_id, engine_outcome, engine_body::text
    from private.sandbox_fixture_outcome(${caller.keyHash}, ${id}, ${action}, ${outcome})`));
  const [first] = rows;
  if (first.outcome === 'live_key') throw liveKey();
  if (first.outcome === 'fixture_settled') {
    throw new Problem('fixture_settled', 'The fixture has an outcome already: POST .../resettle to change it.');
  }
  if (first.outcome === 'fixture_not_settled') {
    throw new Problem('fixture_not_settled', 'The fixture has no outcome yet: POST .../settle first.');
  }
  const settings = { timeoutMs: ctx.config.walletTimeoutMs, allowPrivateUrls: ctx.config.allowPrivateUrls };
  await Promise.all(rows.filter((row) => row.engine_outcome === 'wallet_call').map((row) =>
    makeWalletCall(ctx.sql, JSON.parse(row.engine_body!), settings).catch((error: unknown) => {
      throw isDatabaseUnavailable(error) ? new DatabaseUnavailable(true, error) : error;
    })
  ));
  const changed = rows.flatMap((row) => (row.bet_round_id ? [row.bet_round_id] : []));
  const bets = changed.length
    ? await ctx.sql<{ bet: string }[]>`select bet from private.sandbox_fixture_bets(${caller.keyHash}, ${changed}::uuid[])`
    : [];
  return jsonTextResponse(200, `{"fixture_id":${JSON.stringify(id)},"outcome":${JSON.stringify(outcome)},"bets":[${bets.map((row) => row.bet).join(',')}]}`,
    noStore);
}
