// Responsible gaming: GET and PUT /v3/players/{player_id}/restrictions, an operator's player's
// self-exclusion, cool-off and limits, in the key's mode. Each request is one database call that
// checks the key too; a caller without a working key gets 401 before any 400. The database
// enforces them: at session creation and at every bet (docs/compliance.md).
import { Hono } from 'hono';
import { apiKeyHash, authenticatedRejection, invalidApiKey } from '../../_shared/api-key.ts';
import { jsonTextResponse } from '../../_shared/http.ts';
import { Problem } from '../../_shared/problem.ts';
import { readJsonBody } from '../../_shared/request-body.ts';
import type { ApiContext } from '../context.ts';
import { bodyContract, parameterContract } from '../contract.ts';
import { resource } from './resource.ts';

const restrictionsBody = bodyContract('/v3/players/{player_id}/restrictions', 'put');
const isPlayerId = parameterContract('/v3/players/{player_id}/restrictions', 'get', 'path', 'player_id');
const noStore = { 'cache-control': 'no-store' };

/** The routes of this resource, relative to /v3. */
export function playerRoutes(ctx: ApiContext): Hono {
  const app = new Hono({ strict: false });
  return resource(app, '/players/:player_id/restrictions', {
    get: (c) => readRestrictions(ctx, c.req.raw, c.req.param('player_id')!),
    put: (c) => putRestrictions(ctx, c.req.raw, c.req.param('player_id')!),
  });
}

/** The {player_id} of a path: 1 to 128 characters, not only spaces, or 400 before the database sees it. */
export function playerIdOf(segment: string): string {
  let id: string;
  try {
    id = decodeURIComponent(segment);
  } catch {
    id = segment;
  }
  if (!isPlayerId(id)) {
    throw new Problem('invalid_parameters', 'The path has an invalid parameter; see `errors`.', {
      errors: [{ parameter: 'player_id', code: 'invalid_format', detail: 'A player_id is 1 to 128 characters, not only spaces.' }],
    });
  }
  return id;
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
