// What an operator reads of the catalogue: GET /v3/games (filters, cursor pages, ETag), GET
// /v3/games/{game_id}, GET /v3/providers and GET /v3/currencies. Active rows only: what can be
// launched. Each request is one database call that checks the key too; a caller without a working
// key gets 401 before any validation answer.
import { Hono } from 'hono';
import { apiKeyHash, authenticatedRejection, invalidApiKey } from '../../_shared/api-key.ts';
import { conditionalResponse, etagOf } from '../../_shared/http.ts';
import { CURSOR_UUID, pageJson, pageOfAll, parseListQuery } from '../../_shared/list-query.ts';
import { Problem } from '../../_shared/problem.ts';
import type { ApiContext } from '../context.ts';
import { parameterContract, queryContract } from '../contract.ts';
import { splitGameId } from '../session-request.ts';
import { resource } from './resource.ts';

const GAME_CODE = /^[A-Za-z0-9][A-Za-z0-9._~-]{0,127}$/;
const gamesQuery = queryContract('/v3/games');
const isGameId = parameterContract('/v3/games/{game_id}', 'get', 'path', 'game_id');
const providersQuery = queryContract('/v3/providers');
const currenciesQuery = queryContract('/v3/currencies');

/** The routes of this resource, relative to /v3. */
export function catalogueRoutes(ctx: ApiContext): Hono {
  const app = new Hono({ strict: false });
  resource(app, '/games', { get: (c) => listGames(ctx, c.req.raw) });
  resource(app, '/games/:game_id', { get: (c) => readGame(ctx, c.req.raw, c.req.param('game_id')!) });
  resource(app, '/providers', { get: (c) => listReference(ctx, c.req.raw, 'providers') });
  return resource(app, '/currencies', { get: (c) => listReference(ctx, c.req.raw, 'currencies') });
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
  provider_id: string | null;
  code: string;
  /** The game's JSON, as the database wrote it. */
  game: string;
}


/** GET /v3/games: active games of active providers in a stable order, filtered, one page. */
export async function listGames(ctx: ApiContext, request: Request): Promise<Response> {
  const keyHash = apiKeyHash(request.headers);
  const query = await authenticatedRejection(ctx.sql, keyHash, () =>
    parseListQuery(new URL(request.url), gamesQuery, 2, ([provider, code]) => CURSOR_UUID.test(provider) && GAME_CODE.test(code)));
  const { provider, category, currency, country, updated_since } = query.filters;
  const rows = await ctx.sql<GameRow[]>`
    select * from private.list_games(${keyHash}, ${provider ?? null}, ${category ?? null}, ${currency ?? null},
      ${country ?? null}, ${updated_since ?? null}, ${query.after?.[0] ?? null}, ${query.after?.[1] ?? null},
      ${query.limit + 1})`;
  if (!rows[0]?.authorized) throw invalidApiKey();
  const found = rows.filter((row) => row.provider_id !== null);
  return cacheable(request, pageJson(found, query.limit, (row) => [row.provider_id!, row.code], (row) => row.game));
}

/** GET /v3/games/{game_id}: one active game; anything else is 404. */
export async function readGame(ctx: ApiContext, request: Request, gameId: string): Promise<Response> {
  const keyHash = apiKeyHash(request.headers);
  const [provider, code] = await authenticatedRejection(ctx.sql, keyHash, () => {
    if (!isGameId(gameId)) throw new Problem('not_found', 'No game with this game_id: it is `<provider slug>:<game code>`.');
    return splitGameId(gameId);
  });
  const [row] = await ctx.sql<{ outcome: 'found' | 'not_found' | 'unauthorized'; game: string }[]>`
    select * from private.read_game(${keyHash}, ${provider}, ${code})`;
  if (row.outcome === 'unauthorized') throw invalidApiKey();
  if (row.outcome === 'not_found') throw new Problem('not_found', 'No active game with this game_id in the catalogue.');
  return cacheable(request, row.game);
}

/**
 * GET /v3/providers and GET /v3/currencies: the active ones in their order. Short lists read whole;
 * `limit` and `cursor` page them as every list is paged (the cursor names the last key shown).
 */
export async function listReference(ctx: ApiContext, request: Request, list: 'providers' | 'currencies'): Promise<Response> {
  const keyHash = apiKeyHash(request.headers);
  const query = await authenticatedRejection(ctx.sql, keyHash, () =>
    parseListQuery(new URL(request.url), list === 'providers' ? providersQuery : currenciesQuery, 1));
  const rows = list === 'providers'
    ? await ctx.sql<{ authorized: boolean; item: Record<string, string> | null }[]>`
        select authorized, provider as item from private.list_providers(${keyHash})`
    : await ctx.sql<{ authorized: boolean; item: Record<string, string> | null }[]>`
        select authorized, currency as item from private.list_currencies(${keyHash})`;
  if (!rows[0]?.authorized) throw invalidApiKey();
  const items = rows.flatMap((row) => (row.item ? [row.item] : []));
  return cacheable(request, JSON.stringify(pageOfAll(items, query, list === 'providers' ? 'slug' : 'code')));
}
