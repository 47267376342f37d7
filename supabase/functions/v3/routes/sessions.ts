// Game sessions: POST /v3/sessions creates one for a player (spec 4.1), GET /v3/sessions/{id} reads
// one of the caller's back. Each request is one database call; a caller without a working key gets
// 401 before any validation answer.
import { Hono } from 'hono';
import { setImmediate } from 'node:timers';
import { type Caller, type CallerEnv, operatorKey } from '../caller.ts';
import { jsonResponse } from '../http.ts';
import { CURSOR_UUID, page, parseListQuery } from '../list-query.ts';
import { type FieldError, pointerTo, Problem } from '../problem.ts';
import { readJsonBody } from '../request-body.ts';
import type { ApiContext } from '../context.ts';
import { queryContract, schemaContract } from '../contract.ts';
import type { ObjectOutcome } from '../own-object.ts';
import { referenceError } from '../reference.ts';
import { resource } from '../resource.ts';
import { type GameSession, type GameSessionRow, parseSessionId, presentSession, rulesFor } from '../game-session.ts';
import { parseSessionRequest, readIdempotencyKey, requestFingerprint } from '../session-request.ts';

/** What the database answers a session's creation (private.create_game_session). */
interface Outcome {
  outcome: 'created' | 'replayed' | 'unauthorized' | 'in_progress' | 'key_reused' | 'unprocessable' | 'kyc_required'
    | 'player_restricted';
  response_status: number | null;
  body: GameSession | null;
  problems: string[] | null;
}

// Where callers reach the function: the Supabase gateway's prefix. Hosted, the function sees its
// paths without it, so Location cannot be built from the request's own path.
const LOCATION_BASE = '/functions/v1/v3/sessions';

const referenceErrors: Record<string, FieldError> = {
  unknown_provider: { pointer: pointerTo('game_id'), code: 'unknown_provider', detail: 'No provider has this slug.' },
  provider_unavailable: {
    pointer: pointerTo('game_id'), code: 'provider_unavailable', detail: 'The provider is in maintenance or inactive.',
  },
  unknown_currency: referenceError('unknown_currency'),
  currency_unavailable: referenceError('currency_unavailable'),
  unknown_country: referenceError('unknown_country'),
  unknown_game: { pointer: pointerTo('game_id'), code: 'unknown_game', detail: 'The provider has no game with this code in the catalogue.' },
  game_unavailable: { pointer: pointerTo('game_id'), code: 'game_unavailable', detail: 'The game is in maintenance or inactive.' },
  currency_not_supported: {
    pointer: pointerTo('currency'), code: 'currency_not_supported', detail: 'The game does not play in this currency.',
  },
  country_restricted: {
    pointer: pointerTo('country'), code: 'country_restricted',
    detail: 'The game, or the licence of the session\'s jurisdiction, does not cover this country.',
  },
  country_required: {
    pointer: pointerTo('country'), code: 'country_required', detail: 'The jurisdiction\'s licence covers some countries only: say the player\'s.',
  },
  jurisdiction_required: {
    pointer: pointerTo('jurisdiction'), code: 'jurisdiction_required', detail: 'You hold licences: name the one this session is played under.',
  },
  jurisdiction_not_held: {
    pointer: pointerTo('jurisdiction'), code: 'jurisdiction_not_held', detail: 'You hold no licence for this jurisdiction.',
  },
  game_not_certified: { pointer: pointerTo('game_id'), code: 'game_not_certified', detail: 'The game is not certified in this jurisdiction.' },
};

/** The routes of this resource, relative to /v3. */
export function sessionRoutes(ctx: ApiContext): Hono<CallerEnv> {
  const app = new Hono<CallerEnv>({ strict: false });
  const key = operatorKey(ctx.sql);
  resource(app, '/sessions', {
    get: (c) => listSessions(ctx, c.var.caller, c.req.raw),
    post: (c) => createSession(ctx, c.var.caller, c.req.raw),
  }, key);
  resource(app, '/sessions/:id', { get: (c) => readSession(ctx, c.var.caller, c.req.param('id')!) }, key);
  return resource(app, '/sessions/:id/close', { post: (c) => readSession(ctx, c.var.caller, c.req.param('id')!, 'close') }, key);
}

/**
 * Resolves once postgres.js has written a query just started on a free connection (without
 * prepared statements, its Parse/Describe; Bind/Execute follow a round trip later). It starts a
 * query a microtask after the first then() or catch() on it and writes from a setImmediate callback
 * set then, so an immediate set here would run first: this one sets another, which waits for the
 * next turn of the event loop (tests/sessions/sign-overlap.test.ts). A query still waiting for a
 * free connection leaves later, which only means less of the signing overlaps with it.
 */
function statementSent(): Promise<void> {
  return new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
}

/** POST /v3/sessions: checks, then one call that decides and records; 201 with the launch URL. */
export async function createSession(ctx: ApiContext, caller: Caller, request: Request): Promise<Response> {
  const { sql, config, clock, launch } = ctx;
  const { keyHash, livemode } = caller;
  const idempotencyKey = readIdempotencyKey(request.headers);
  const fields = parseSessionRequest(await readJsonBody(request, config.maxBodyBytes));

  const id = crypto.randomUUID();
  const createdAt = clock();
  const expiresAt = new Date(createdAt.getTime() + config.sessionTtlSeconds * 1000);
  // A jurisdiction's rules go in the token, and its reality-check interval unless the request sets one.
  const rules = fields.jurisdiction ? await ctx.rulesOf(fields.jurisdiction) : undefined;
  const realityCheck = fields.reality_check_minutes ?? (rules?.reality_check_minutes as number | null | undefined) ?? null;
  const requested = {
    id, player_id: fields.player_id, game_id: fields.game_id, currency: fields.currency, jurisdiction: fields.jurisdiction,
    kyc_status: fields.kyc_status, reality_check_minutes: realityCheck,
  };
  const present = () =>
    presentSession({ ...requested, status: 'created', livemode, created_at: createdAt, expires_at: expiresAt }, createdAt, launch,
      new Map(rules && fields.jurisdiction ? [[fields.jurisdiction, rules]] : []));
  const call = (replay: { fingerprint: string; session: GameSession } | null) =>
    sql<Outcome[]>`
      select * from private.create_game_session(
        ${keyHash}, ${livemode}, ${idempotencyKey}, ${replay?.fingerprint ?? null}, ${id},
        ${fields.player_id}, ${fields.provider}, ${fields.game}, ${fields.currency}, ${fields.country},
        ${createdAt}, ${expiresAt},
        ${(replay?.session ?? null) as never}::json, ${fields.jurisdiction}, ${fields.kyc_status}, ${realityCheck})`;

  // With an Idempotency-Key the session goes in with the call (a json parameter, stored verbatim
  // for replays), so it is built and its launch token signed first. Without one nothing will
  // replay it: the call leaves first and the token is signed while the database works, which
  // takes the signature off the request's latency.
  let session: GameSession;
  let pending: Promise<Outcome[]>;
  if (idempotencyKey !== null) {
    session = present();
    pending = call({ fingerprint: requestFingerprint(fields), session });
  } else {
    pending = call(null);
    // Starts the query, and handles it from here on: a failure that arrives while the token is
    // signed is not "unhandled".
    pending.catch(() => {});
    await statementSent();
    session = present();
  }
  const [result] = await caller.answer(pending);

  const created = (body: GameSession, headers: Record<string, string> = {}) =>
    jsonResponse(result.response_status!, body, { location: `${LOCATION_BASE}/${body.id}`, 'cache-control': 'no-store', ...headers });
  switch (result.outcome) {
    case 'created':
      return created(session);
    case 'replayed':
      return created(result.body!, { 'idempotent-replayed': 'true' });
    case 'in_progress':
      throw new Problem('idempotency_key_in_use', 'A request with this Idempotency-Key is still running; retry shortly.', {
        headers: { 'retry-after': '1' },
      });
    case 'key_reused':
      throw new Problem('idempotency_key_reused', 'This Idempotency-Key was used with a different request body.');
    case 'unprocessable':
      throw new Problem('reference_unavailable', 'The game, currency, country or jurisdiction cannot be played; see `errors`.', {
        errors: result.problems!.map((code) => referenceErrors[code]),
      });
    case 'player_restricted':
      throw new Problem('player_restricted', 'The player is self-excluded or cooling off: no new sessions until it ends.');
    case 'kyc_required':
      throw new Problem('kyc_required', 'The jurisdiction lets only KYC-verified players play: send `kyc_status` `verified` once they are.');
  }
}

// A cursor's position is the database's created_at, in UTC to the microsecond.
const POSITION = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const isDateTime = schemaContract('DateTime');
const sessionsQuery = queryContract('/v3/sessions');

/** GET /v3/sessions: the caller's sessions, newest first, filtered by player and status, one page. */
export async function listSessions(ctx: ApiContext, caller: Caller, request: Request): Promise<Response> {
  const query = parseListQuery(new URL(request.url), sessionsQuery, 2, ([at, id]) => POSITION.test(at) && isDateTime(at) && CURSOR_UUID.test(id));
  const now = ctx.clock();
  const rows = await caller.answer(ctx.readSql<(GameSessionRow & { authorized: boolean; position: string })[]>`
    select * from private.list_game_sessions(${caller.keyHash}, ${query.filters.player_id ?? null}, ${query.filters.status ?? null},
      ${now}, ${query.after?.[0] ?? null}, ${query.after?.[1] ?? null}, ${query.limit + 1})`);
  const found = rows.filter((row) => row.id !== null);
  const body = page(found, query.limit, (row) => [row.position, row.id]);
  const rules = await rulesFor(body.data, ctx.rulesOf);
  return jsonResponse(200, { ...body, data: body.data.map((row) => presentSession(row, now, ctx.launch, rules)) }, {
    'cache-control': 'no-store',
  });
}

/**
 * GET /v3/sessions/{id}: one of the caller's sessions; another client's is as absent as none. POST
 * /v3/sessions/{id}/close (`close`): the same, once closed (no more bets; wins and rollbacks settle).
 */
export async function readSession(ctx: ApiContext, caller: Caller, segment: string, action?: 'close'): Promise<Response> {
  const id = parseSessionId(segment);
  type Row = GameSessionRow & { outcome: ObjectOutcome };
  const [row] = await caller.answer(action === 'close'
    ? ctx.sql<Row[]>`select * from private.close_game_session(${caller.keyHash}, ${id})`
    : ctx.sql<Row[]>`select * from private.read_game_session(${caller.keyHash}, ${id})`);
  switch (row.outcome) {
    case 'found':
      return jsonResponse(200, presentSession(row, ctx.clock(), ctx.launch, await rulesFor([row], ctx.rulesOf)), {
        'cache-control': 'no-store',
      });
    case 'not_found':
      throw new Problem('not_found', 'No session with this id.');
  }
}
