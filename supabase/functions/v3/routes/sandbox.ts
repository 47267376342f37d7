// The sandbox: POST /v3/sandbox/players gives a test player a test balance (test keys only), which
// the round engine then moves for that player's test sessions instead of the float. One database
// call that checks the key too; a caller without a working key gets 401 before any 400.
import { Hono } from 'hono';
import { apiKeyHash, authenticatedRejection, invalidApiKey } from '../../_shared/api-key.ts';
import { jsonTextResponse } from '../../_shared/http.ts';
import { pointerTo, Problem } from '../../_shared/problem.ts';
import { readJsonBody } from '../../_shared/request-body.ts';
import type { ApiContext } from '../context.ts';
import { bodyContract } from '../contract.ts';
import { resource } from './resource.ts';

const playerBody = bodyContract('/v3/sandbox/players');

/** The routes of this resource, relative to /v3. */
export function sandboxRoutes(ctx: ApiContext): Hono {
  const app = new Hono({ strict: false });
  return resource(app, '/sandbox/players', { post: (c) => createTestPlayer(ctx, c.req.raw) });
}

/** POST /v3/sandbox/players: creates or resets a test player's balance in a currency. */
export async function createTestPlayer(ctx: ApiContext, request: Request): Promise<Response> {
  const keyHash = apiKeyHash(request.headers);
  const body = await authenticatedRejection(ctx.sql, keyHash, async () => playerBody(await readJsonBody(request, ctx.config.maxBodyBytes)));
  const [row] = await ctx.sql<{ outcome: string; player: string }[]>`
    select * from private.put_sandbox_player(${keyHash}, ${body.player_id}, ${body.currency}, ${body.balance}::numeric,
      ${body.behaviour ?? 'normal'})`;
  switch (row.outcome) {
    case 'unauthorized':
      throw invalidApiKey();
    case 'live_key':
      throw new Problem('live_key', 'The sandbox takes test keys (cgs_test_) only.');
    case 'unknown_currency':
      throw new Problem('validation_failed', 'The request body has invalid fields; see `errors`.', {
        errors: [{ pointer: pointerTo('currency'), code: 'unknown_currency', detail: 'The service does not offer this currency.' }],
      });
  }
  return jsonTextResponse(200, row.player, { 'cache-control': 'no-store' });
}
