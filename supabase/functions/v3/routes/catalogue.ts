// What an operator reads of the catalogue: GET /v3/games (filters, cursor pages, ETag), GET
// /v3/games/{game_id}, GET /v3/providers and GET /v3/currencies (active rows only: what can be
// launched), and the jurisdictions whose rules sessions follow, GET /v3/jurisdictions and
// /v3/jurisdictions/{code}. Each request is one database call that checks the key too (caller.ts); a
// caller without a working key gets 401 before any validation answer.
import { Hono } from 'hono';
import { type Caller, type CallerEnv, operatorKey } from '../caller.ts';
import { conditionalResponse, etagOf } from '../http.ts';
import { CURSOR_UUID, pageJson, pageOfAll, parseListQuery } from '../list-query.ts';
import { Problem } from '../problem.ts';
import type { Sql } from '../../_shared/database.ts';
import type { ApiContext } from '../context.ts';
import { parameterContract, queryContract } from '../contract.ts';
import { splitGameId } from '../session-request.ts';
import type { ObjectOutcome } from '../own-object.ts';
import { resource } from '../resource.ts';
import { type ReferenceProblem, refuseUnknownReferences } from '../reference.ts';

const GAME_CODE = /^[A-Za-z0-9][A-Za-z0-9._~-]{0,127}$/;
const gamesQuery = queryContract('/v3/games');
const isGameId = parameterContract('/v3/games/{game_id}', 'get', 'path', 'game_id');
type Item = Record<string, unknown>;
type ReferenceRow = { authorized: boolean; item: Item | null };

/** The short lists, read whole and paged by their key. */
const referenceLists = {
  providers: {
    query: queryContract('/v3/providers'), key: 'slug',
    read: (sql: Sql, keyHash: string) => sql<ReferenceRow[]>`select authorized, provider as item from private.list_providers(${keyHash})`,
  },
  currencies: {
    query: queryContract('/v3/currencies'), key: 'code',
    read: (sql: Sql, keyHash: string) => sql<ReferenceRow[]>`select authorized, currency as item from private.list_currencies(${keyHash})`,
  },
  jurisdictions: {
    query: queryContract('/v3/jurisdictions'), key: 'code',
    read: (sql: Sql, keyHash: string, code: string | null = null) =>
      sql<ReferenceRow[]>`select authorized, jurisdiction as item from private.list_jurisdictions(${keyHash}, ${code})`,
  },
};
const JURISDICTION_CODE = /^[A-Z]{2}(-[A-Z0-9]{1,3})?$/;

/** The routes of this resource, relative to /v3. */
export function catalogueRoutes(ctx: ApiContext): Hono<CallerEnv> {
  const app = new Hono<CallerEnv>({ strict: false });
  const key = operatorKey(ctx.sql);
  resource(app, '/games', { get: (c) => listGames(ctx, c.var.caller, c.req.raw) }, key);
  resource(app, '/games/:game_id', { get: (c) => readGame(ctx, c.var.caller, c.req.raw, c.req.param('game_id')!) }, key);
  resource(app, '/providers', { get: (c) => listReference(ctx, c.var.caller, c.req.raw, 'providers') }, key);
  resource(app, '/currencies', { get: (c) => listReference(ctx, c.var.caller, c.req.raw, 'currencies') }, key);
  resource(app, '/jurisdictions', { get: (c) => listReference(ctx, c.var.caller, c.req.raw, 'jurisdictions') }, key);
  return resource(app, '/jurisdictions/:code', { get: (c) => readJurisdiction(ctx, c.var.caller, c.req.raw, c.req.param('code')!) }, key);
}

/**
 * A catalogue read answered with an ETag (a hash of the body) and 304 to a matching If-None-Match:
 * operators sync the catalogue often, and most syncs find nothing new. Private, since it needs a key.
 */
function cacheable(request: Request, text: string): Response {
  return conditionalResponse(request, text, { 'content-type': 'application/json', 'cache-control': 'private, no-cache', etag: etagOf(text) });
}

interface GameRow {
  authorized: boolean;
  /** The currency and country filters' problems (private.reference_problems), on every row; null without either. */
  problems: ReferenceProblem[] | null;
  provider_id: string | null;
  code: string;
  /** The game's JSON, as the database wrote it. */
  game: string;
}


/** GET /v3/games: active games of active providers in a stable order, filtered, one page. */
export async function listGames(ctx: ApiContext, caller: Caller, request: Request): Promise<Response> {
  const query = parseListQuery(new URL(request.url), gamesQuery, 2, ([provider, code]) => CURSOR_UUID.test(provider) && GAME_CODE.test(code));
  const { provider, category, currency, country, updated_since, jurisdiction } = query.filters;
  // The reference check only when there is something to check: most pages filter by neither.
  const checked = currency !== undefined || country !== undefined;
  const rows = await caller.answer(ctx.readSql<GameRow[]>`
    select g.*, (select case when ${checked} then private.reference_problems(${currency ?? null}, ${country ?? null}) end) as problems
    from private.list_games(${caller.keyHash}, ${provider ?? null}, ${category ?? null}, ${currency ?? null},
      ${country ?? null}, ${updated_since ?? null}, ${query.after?.[0] ?? null}, ${query.after?.[1] ?? null},
      ${query.limit + 1}, ${jurisdiction ?? null}) g`);
  refuseUnknownReferences(rows[0].problems, 'query');
  const found = rows.filter((row) => row.provider_id !== null);
  return cacheable(request, pageJson(found, query.limit, (row) => [row.provider_id!, row.code], (row) => row.game));
}

/** GET /v3/games/{game_id}: one active game; anything else is 404. */
export async function readGame(ctx: ApiContext, caller: Caller, request: Request, gameId: string): Promise<Response> {
  if (!isGameId(gameId)) throw new Problem('not_found', 'No game with this game_id: it is `<provider slug>:<game code>`.');
  const [provider, code] = splitGameId(gameId);
  const [row] = await caller.answer(ctx.readSql<{ outcome: ObjectOutcome; game: string }[]>`
    select * from private.read_game(${caller.keyHash}, ${provider}, ${code})`);
  switch (row.outcome) {
    case 'found':
      return cacheable(request, row.game);
    case 'not_found':
      throw new Problem('not_found', 'No active game with this game_id in the catalogue.');
  }
}

/**
 * GET /v3/providers, /v3/currencies and /v3/jurisdictions, in their order (active providers and
 * currencies only). Short lists read whole; `limit` and `cursor` page them as every list is paged
 * (the cursor names the last key shown).
 */
export async function listReference(ctx: ApiContext, caller: Caller, request: Request, list: keyof typeof referenceLists): Promise<Response> {
  const { query: contract, key, read } = referenceLists[list];
  const query = parseListQuery(new URL(request.url), contract, 1);
  const rows = await caller.answer(read(ctx.readSql, caller.keyHash));
  const items = rows.flatMap((row) => (row.item ? [row.item as Record<string, string>] : []));
  return cacheable(request, JSON.stringify(pageOfAll(items, query, key)));
}

/** GET /v3/jurisdictions/{code}: one jurisdiction and its rules; 404 for a code that names none. */
export async function readJurisdiction(ctx: ApiContext, caller: Caller, request: Request, code: string): Promise<Response> {
  const notFound = () => new Problem('not_found', 'No jurisdiction with this code.');
  if (!JURISDICTION_CODE.test(code)) throw notFound();
  const [row] = await caller.answer(referenceLists.jurisdictions.read(ctx.readSql, caller.keyHash, code));
  if (!row.item) throw notFound();
  return cacheable(request, JSON.stringify(row.item));
}
