// The operator's rounds: GET /v3/rounds (newest first, filters status, player_id, session_id and
// opened_before, which with status=open lists the rounds left open too long) and GET
// /v3/rounds/{id} with its transactions. Each one database call that checks the key too; the JSON
// is the database's, sent as it is.
import { Hono } from 'hono';
import { type Caller, type CallerEnv, operatorKey } from '../caller.ts';
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
export function roundRoutes(ctx: ApiContext): Hono<CallerEnv> {
  const app = new Hono<CallerEnv>({ strict: false });
  const key = operatorKey(ctx.sql);
  resource(app, '/rounds', { get: (c) => listRounds(ctx, c.var.caller, c.req.raw) }, key);
  return resource(app, '/rounds/:id', { get: (c) => readRound(ctx, c.var.caller, c.req.param('id')!) }, key);
}

/** GET /v3/rounds: one page, keyset on (opened_at, id). */
export async function listRounds(ctx: ApiContext, caller: Caller, request: Request): Promise<Response> {
  const query = parseListQuery(new URL(request.url), roundsQuery, 2, ([at, id]) => isDateTime(at) && CURSOR_UUID.test(id));
  const { status, player_id, session_id, opened_before } = query.filters;
  const rows = await caller.answer(ctx.readSql<{ authorized: boolean; id: string | null; position: string; round: string }[]>`
    select * from private.list_rounds(${caller.keyHash}, ${status ?? null}, ${player_id ?? null}, ${session_id ?? null},
      ${opened_before ?? null}, ${query.after?.[0] ?? null}, ${query.after?.[1] ?? null}, ${query.limit + 1})`);
  const found = rows.filter((row) => row.id !== null);
  return jsonTextResponse(200, pageJson(found, query.limit, (row) => [row.position, row.id!], (row) => row.round), noStore);
}

/** GET /v3/rounds/{id}: one of the caller's rounds in its key's mode; anything else is 404. */
export async function readRound(ctx: ApiContext, caller: Caller, id: string): Promise<Response> {
  const row = await ownObject(caller, id, { isId: isRoundId, notFound: 'No round with this id.' }, (keyHash, roundId) =>
    ctx.sql<(Outcome & { round: string })[]>`select * from private.read_round(${keyHash}, ${roundId}::uuid)`);
  return jsonTextResponse(200, row.round, noStore);
}
