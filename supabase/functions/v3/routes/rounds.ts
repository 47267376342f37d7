// The operator's rounds: GET /v3/rounds (newest first, filters status, player_id, session_id and
// opened_before, which with status=open lists the rounds left open too long) and GET
// /v3/rounds/{id} with its transactions. Each one database call that checks the key too; the JSON
// is the database's, sent as it is.
import { Hono } from 'hono';
import { apiKeyHash, authenticatedRejection, invalidApiKey } from '../api-key.ts';
import { jsonTextResponse } from '../http.ts';
import { CURSOR_UUID, pageJson, parseListQuery } from '../list-query.ts';
import type { ApiContext } from '../context.ts';
import { parameterContract, queryContract, schemaContract } from '../contract.ts';
import { type Outcome, ownObject } from '../own-object.ts';
import { resource } from '../resource.ts';

const roundsQuery = queryContract('/v3/rounds');
const isRoundId = parameterContract('/v3/rounds/{id}', 'get', 'path', 'id');
const isDateTime = schemaContract('DateTime');
const noStore = { 'cache-control': 'no-store' };

/** The routes of this resource, relative to /v3. */
export function roundRoutes(ctx: ApiContext): Hono {
  const app = new Hono({ strict: false });
  resource(app, '/rounds', { get: (c) => listRounds(ctx, c.req.raw) });
  return resource(app, '/rounds/:id', { get: (c) => readRound(ctx, c.req.raw, c.req.param('id')!) });
}

/** GET /v3/rounds: one page, keyset on (opened_at, id). */
export async function listRounds(ctx: ApiContext, request: Request): Promise<Response> {
  const keyHash = apiKeyHash(request.headers);
  const query = await authenticatedRejection(ctx.sql, keyHash, () =>
    parseListQuery(new URL(request.url), roundsQuery, 2, ([at, id]) => isDateTime(at) && CURSOR_UUID.test(id)));
  const { status, player_id, session_id, opened_before } = query.filters;
  const rows = await ctx.readSql<{ authorized: boolean; id: string | null; position: string; round: string }[]>`
    select * from private.list_rounds(${keyHash}, ${status ?? null}, ${player_id ?? null}, ${session_id ?? null},
      ${opened_before ?? null}, ${query.after?.[0] ?? null}, ${query.after?.[1] ?? null}, ${query.limit + 1})`;
  if (!rows[0]?.authorized) throw invalidApiKey();
  const found = rows.filter((row) => row.id !== null);
  return jsonTextResponse(200, pageJson(found, query.limit, (row) => [row.position, row.id!], (row) => row.round), noStore);
}

/** GET /v3/rounds/{id}: one of the caller's rounds in its key's mode; anything else is 404. */
export async function readRound(ctx: ApiContext, request: Request, id: string): Promise<Response> {
  const row = await ownObject(ctx.sql, request, id, { isId: isRoundId, notFound: 'No round with this id.' }, (keyHash, roundId) =>
    ctx.sql<(Outcome & { round: string })[]>`select * from private.read_round(${keyHash}, ${roundId}::uuid)`);
  return jsonTextResponse(200, row.round, noStore);
}
