// Responsible gaming: GET and PUT /v3/players/{player_id}/restrictions, an operator's player's
// self-exclusion, cool-off and limits, in the key's mode. Each request is one database call that
// checks the key too; a caller without a working key gets 401 before any 400. The database
// enforces them: at session creation and at every bet (docs/compliance.md).
import { Hono } from 'hono';
import { apiKeyHash, authenticatedRejection, invalidApiKey } from '../api-key.ts';
import { jsonTextResponse } from '../http.ts';
import { Problem } from '../problem.ts';
import { readJsonBody } from '../request-body.ts';
import type { ApiContext } from '../context.ts';
import { bodyContract } from '../contract.ts';
import { playerIdOf } from '../player-id.ts';
import { resource } from '../resource.ts';

const restrictionsBody = bodyContract('/v3/players/{player_id}/restrictions', 'put');
const noStore = { 'cache-control': 'no-store' };

/** The routes of this resource, relative to /v3. */
export function playerRoutes(ctx: ApiContext): Hono {
  const app = new Hono({ strict: false });
  return resource(app, '/players/:player_id/restrictions', {
    get: (c) => readRestrictions(ctx, c.req.raw, c.req.param('player_id')!),
    put: (c) => putRestrictions(ctx, c.req.raw, c.req.param('player_id')!),
  });
}

/** GET /v3/players/{player_id}/restrictions */
export async function readRestrictions(ctx: ApiContext, request: Request, segment: string): Promise<Response> {
  const keyHash = apiKeyHash(request.headers);
  const playerId = await authenticatedRejection(ctx.sql, keyHash, () => playerIdOf(segment));
  const [row] = await ctx.sql<{ authorized: boolean; restrictions: string }[]>`
    select * from private.read_player_restrictions(${keyHash}, ${playerId})`;
  if (!row.authorized) throw invalidApiKey();
  return jsonTextResponse(200, row.restrictions, noStore);
}

/** PUT /v3/players/{player_id}/restrictions: the whole set, replacing what was set. */
export async function putRestrictions(ctx: ApiContext, request: Request, segment: string): Promise<Response> {
  const keyHash = apiKeyHash(request.headers);
  const { playerId, body } = await authenticatedRejection(ctx.sql, keyHash, async () => ({
    playerId: playerIdOf(segment),
    body: restrictionsBody(await readJsonBody(request, ctx.config.maxBodyBytes)),
  }));
  const [row] = await ctx.sql<{ outcome: string; body: string }[]>`
    select * from private.put_player_restrictions(${keyHash}, ${playerId}, ${ctx.sql.json(body as never)})`;
  if (row.outcome === 'unauthorized') throw invalidApiKey();
  if (row.outcome === 'exclusion_active') {
    throw new Problem('exclusion_active', 'A self-exclusion or cool-off is running: it cannot be lifted or shortened before it ends.');
  }
  return jsonTextResponse(200, row.body, noStore);
}
