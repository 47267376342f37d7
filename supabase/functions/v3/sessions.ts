// The v3 operator API as a fetch-style handler over injected dependencies: the same code runs
// under Deno.serve (index.ts) and in vitest against a real database.
import { setImmediate } from 'node:timers';
import { apiKeyHash, authenticatedRejection, invalidApiKey } from '../_shared/api-key.ts';
import { isDatabaseUnavailable, loggableError, type Sql } from '../_shared/database.ts';
import { type FieldError, pointerTo, Problem } from '../_shared/problem.ts';
import { readJsonBody } from '../_shared/request-body.ts';
import { type Env, positiveSetting } from '../_shared/settings.ts';
import { type GameSession, type GameSessionRow, parseSessionId, presentSession, withLaunchToken } from './game-session.ts';
import { serveOpenApi } from './openapi.ts';
import { parseSessionRequest, readIdempotencyKey, requestFingerprint } from './session-request.ts';
import type { SessionTokenSigner } from './session-token.ts';

export type { GameSession } from './game-session.ts';

export interface SessionsConfig {
  /** Where a player starts the game; the launch token is appended as `?token=`. */
  launchBaseUrl: string;
  /** Launch window: the session and its token expire this long after creation. */
  sessionTtlSeconds: number;
  maxBodyBytes: number;
}

export const defaultConfig: SessionsConfig = {
  launchBaseUrl: 'https://play.cgs.example/launch',
  sessionTtlSeconds: 15 * 60,
  maxBodyBytes: 16 * 1024,
};

/** A launch window is for starting a game: longer than a day is a mistake, not a choice. */
export const maxSessionTtlSeconds = 24 * 60 * 60;

/**
 * LAUNCH_BASE_URL and SESSION_TTL_SECONDS. A launch window that is not whole seconds up to a day stops
 * the start, naming the setting, instead of failing every request with a 500; the launch URL is
 * checked where it is parsed, when the handler is created (withLaunchToken).
 */
export function sessionsConfigFromEnv(env: Env): Pick<SessionsConfig, 'launchBaseUrl' | 'sessionTtlSeconds'> {
  return {
    launchBaseUrl: env('LAUNCH_BASE_URL') ?? defaultConfig.launchBaseUrl,
    sessionTtlSeconds: positiveSetting(env, 'SESSION_TTL_SECONDS', {
      fallback: defaultConfig.sessionTtlSeconds, integer: true, max: maxSessionTtlSeconds,
    }),
  };
}

export interface SessionsDependencies {
  sql: Sql;
  signer: SessionTokenSigner;
  clock?: () => Date;
  config?: Partial<SessionsConfig>;
  /** Where internal errors go, as loggableError describes them; never to the caller. */
  logError?: (message: string, error: unknown) => void;
}

interface Outcome {
  outcome: 'created' | 'replayed' | 'unauthorized' | 'in_progress' | 'key_reused' | 'unprocessable';
  response_status: number | null;
  body: GameSession | null;
  problems: string[] | null;
}

const SESSIONS = '/v3/sessions';
// Where callers reach the function: the Supabase gateway's prefix. Hosted, the function sees its
// paths without it, so Location cannot be built from the request's own path.
const GATEWAY = '/functions/v1';
const SESSION = /^\/v3\/sessions\/([^/]+)$/;
const JWKS = '/v3/.well-known/jwks.json';
const OPENAPI = '/v3/openapi.json';

const referenceErrors: Record<string, FieldError> = {
  unknown_provider: { pointer: pointerTo('game_id'), code: 'unknown_provider', detail: 'No provider has this slug.' },
  provider_unavailable: {
    pointer: pointerTo('game_id'), code: 'provider_unavailable', detail: 'The provider is in maintenance or inactive.',
  },
  unknown_currency: { pointer: pointerTo('currency'), code: 'unknown_currency', detail: 'The service does not offer this currency.' },
  currency_unavailable: { pointer: pointerTo('currency'), code: 'currency_unavailable', detail: 'This currency is not active.' },
  unknown_game: { pointer: pointerTo('game_id'), code: 'unknown_game', detail: 'The provider has no game with this code in the catalogue.' },
  game_unavailable: { pointer: pointerTo('game_id'), code: 'game_unavailable', detail: 'The game is in maintenance or inactive.' },
  currency_not_supported: {
    pointer: pointerTo('currency'), code: 'currency_not_supported', detail: 'The game does not play in this currency.',
  },
  country_restricted: { pointer: pointerTo('country'), code: 'country_restricted', detail: 'The game may not be offered in this country.' },
};

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
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

function methodNotAllowed(allow: string): Problem {
  return new Problem('method_not_allowed', `Use ${allow}.`, { headers: { allow } });
}

export function createSessionsHandler(deps: SessionsDependencies): (request: Request) => Promise<Response> {
  const config = { ...defaultConfig, ...deps.config };
  const clock = deps.clock ?? (() => new Date());
  const log = deps.logError ?? ((message, error) => console.error(message, error));
  const logError = (message: string, error: unknown) => log(message, loggableError(error));

  const launch = { signer: deps.signer, withToken: withLaunchToken(config.launchBaseUrl) };

  async function createSession(request: Request): Promise<Response> {
    const keyHash = apiKeyHash(request.headers);
    const { idempotencyKey, fields } = await authenticatedRejection(deps.sql, keyHash, async () => ({
      idempotencyKey: readIdempotencyKey(request.headers),
      fields: parseSessionRequest(await readJsonBody(request, config.maxBodyBytes)),
    }));

    const id = crypto.randomUUID();
    const createdAt = clock();
    const expiresAt = new Date(createdAt.getTime() + config.sessionTtlSeconds * 1000);
    const requested = { id, player_id: fields.player_id, game_id: fields.game_id, currency: fields.currency };
    const present = () => presentSession({ ...requested, status: 'created', created_at: createdAt, expires_at: expiresAt }, createdAt, launch);
    const call = (replay: { fingerprint: string; session: GameSession } | null) =>
      deps.sql<Outcome[]>`
        select * from private.create_game_session(
          ${keyHash}, ${idempotencyKey}, ${replay?.fingerprint ?? null}, ${id},
          ${fields.player_id}, ${fields.provider}, ${fields.game}, ${fields.currency}, ${fields.country},
          ${createdAt}, ${expiresAt},
          ${(replay?.session ?? null) as never}::json)`;

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
    const [result] = await pending;

    const created = (body: GameSession, headers: Record<string, string> = {}) =>
      json(result.response_status!, body, { location: `${GATEWAY}${SESSIONS}/${body.id}`, 'cache-control': 'no-store', ...headers });
    switch (result.outcome) {
      case 'created':
        return created(session);
      case 'replayed':
        return created(result.body!, { 'idempotent-replayed': 'true' });
      case 'unauthorized':
        throw invalidApiKey();
      case 'in_progress':
        throw new Problem('idempotency_key_in_use', 'A request with this Idempotency-Key is still running; retry shortly.', {
          headers: { 'retry-after': '1' },
        });
      case 'key_reused':
        throw new Problem('idempotency_key_reused', 'This Idempotency-Key was used with a different request body.');
      case 'unprocessable':
        throw new Problem('reference_unavailable', 'The game or currency cannot be played; see `errors`.', {
          errors: result.problems!.map((code) => referenceErrors[code]),
        });
    }
  }

  async function readSession(request: Request, segment: string): Promise<Response> {
    const keyHash = apiKeyHash(request.headers);
    const id = await authenticatedRejection(deps.sql, keyHash, () => parseSessionId(segment));
    const [row] = await deps.sql<(GameSessionRow & { outcome: 'found' | 'not_found' | 'unauthorized' })[]>`
      select * from private.read_game_session(${keyHash}, ${id})`;
    if (row.outcome === 'unauthorized') throw invalidApiKey();
    // Another client's session is as absent as one that never existed.
    if (row.outcome === 'not_found') throw new Problem('not_found', 'No session with this id.');
    return json(200, presentSession(row, clock(), launch), { 'cache-control': 'no-store' });
  }

  function route(request: Request): Response | Promise<Response> {
    // Hosted, the function sees /v3/...; served by npm start, /functions/v1/v3/... as callers send it.
    const path = new URL(request.url).pathname.replace(/\/+$/, '');
    const resource = path.startsWith(`${GATEWAY}/`) ? path.slice(GATEWAY.length) : path;
    if (resource === SESSIONS) {
      if (request.method !== 'POST') throw methodNotAllowed('POST');
      return createSession(request);
    }
    const session = SESSION.exec(resource);
    if (session) {
      if (request.method !== 'GET') throw methodNotAllowed('GET');
      return readSession(request, session[1]);
    }
    if (resource === JWKS) {
      if (request.method !== 'GET') throw methodNotAllowed('GET');
      return json(200, deps.signer.jwks, { 'cache-control': 'public, max-age=300' });
    }
    if (resource === OPENAPI) {
      if (request.method !== 'GET') throw methodNotAllowed('GET');
      return serveOpenApi(request);
    }
    throw new Problem('not_found', 'No such resource in API v3.');
  }

  return async (request) => {
    try {
      return await route(request);
    } catch (error) {
      if (error instanceof Problem) return error.toResponse();
      if (isDatabaseUnavailable(error)) {
        logError('database unavailable', error);
        return new Problem('service_unavailable', 'The service is temporarily unavailable; retry shortly.', {
          headers: { 'retry-after': '5' },
        }).toResponse();
      }
      logError('unexpected error', error);
      return new Problem('internal_error', 'Something went wrong on our side.').toResponse();
    }
  };
}
