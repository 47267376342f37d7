// Responsible gaming: GET and PUT /v3/players/{player_id}/restrictions, an operator's player's
// self-exclusion, cool-off and limits, in the key's mode. Each request is one database call that
// checks the key too; a caller without a working key gets 401 before any 400. The database
// enforces them: at session creation and at every bet (docs/compliance.md).
import { Hono } from 'hono';
import { type Caller, type CallerEnv, operatorKey } from '../caller.ts';
import { jsonTextResponse } from '../http.ts';
import { Problem } from '../problem.ts';
import { readJsonBody } from '../request-body.ts';
import type { ApiContext } from '../context.ts';
import { bodyContract } from '../contract.ts';
import { playerIdOf } from '../player-id.ts';
import { referenceError, referenceUnavailable } from '../reference.ts';
import { resource } from '../resource.ts';

const restrictionsBody = bodyContract('/v3/players/{player_id}/restrictions', 'put');
const noStore = { 'cache-control': 'no-store' };

/** The routes of this resource, relative to /v3. */
export function playerRoutes(ctx: ApiContext): Hono<CallerEnv> {
  const app = new Hono<CallerEnv>({ strict: false });
  return resource(app, '/players/:player_id/restrictions', {
    get: (c) => readRestrictions(ctx, c.var.caller, c.req.param('player_id')!),
    put: (c) => putRestrictions(ctx, c.var.caller, c.req.raw, c.req.param('player_id')!),
  }, operatorKey(ctx.sql));
}

/** What the database answers a PUT of the restrictions (private.put_player_restrictions). */
type PutOutcome = 'updated' | 'exclusion_active' | 'unknown_currency' | 'unauthorized';

/** GET /v3/players/{player_id}/restrictions */
export async function readRestrictions(ctx: ApiContext, caller: Caller, segment: string): Promise<Response> {
  const playerId = playerIdOf(segment);
  const [row] = await caller.answer(ctx.sql<{ authorized: boolean; restrictions: string }[]>`
    select * from private.read_player_restrictions(${caller.keyHash}, ${playerId})`);
  return jsonTextResponse(200, row.restrictions, noStore);
}

/** PUT /v3/players/{player_id}/restrictions: the whole set, replacing what was set. */
export async function putRestrictions(ctx: ApiContext, caller: Caller, request: Request, segment: string): Promise<Response> {
  const playerId = playerIdOf(segment);
  const body = restrictionsBody(await readJsonBody(request, ctx.config.maxBodyBytes));
  const [row] = await caller.answer(ctx.sql<{ outcome: PutOutcome; body: string }[]>`
    select * from private.put_player_restrictions(${caller.keyHash}, ${playerId}, ${ctx.sql.json(body as never)})`);
  switch (row.outcome) {
    case 'updated':
      return jsonTextResponse(200, row.body, noStore);
    case 'unknown_currency':
      // The body: the pointers of the limits in a currency the service does not have.
      throw referenceUnavailable((JSON.parse(row.body) as string[]).map((pointer) => referenceError('unknown_currency', { pointer })));
    case 'exclusion_active':
      throw new Problem('exclusion_active', 'A self-exclusion or cool-off is running: it cannot be lifted or shortened before it ends.');
  }
}
