// Free rounds, the operator's side: campaigns (POST and GET /v3/free-rounds/campaigns, GET
// .../{id}, POST .../{id}/cancel, POST .../{id}/players, DELETE .../{id}/players/{player_id}) and
// their grants to players (GET /v3/free-rounds/grants, GET .../{id}), in the key's mode. Each request is one database call that
// checks the key too; the JSON is the database's, sent as it is. The provider plays the rounds
// through the round engine (docs/free-rounds.md).
import { Hono } from 'hono';
import { type Caller, type CallerEnv, operatorKey } from '../caller.ts';
import { jsonTextResponse } from '../http.ts';
import { CURSOR_UUID, pageJson, parseListQuery } from '../list-query.ts';
import { type FieldError, Problem, type ProblemCode } from '../problem.ts';
import { readJsonBody } from '../request-body.ts';
import type { ApiContext } from '../context.ts';
import { bodyContract, parameterContract, queryContract, schemaContract } from '../contract.ts';
import { type Outcome, ownObject } from '../own-object.ts';
import { playerIdOf } from '../player-id.ts';
import { resource } from '../resource.ts';
import { REFERENCE_DETAILS } from '../reference.ts';

const createBody = bodyContract('/v3/free-rounds/campaigns');
const playersBody = bodyContract('/v3/free-rounds/campaigns/{id}/players');
const campaignsQuery = queryContract('/v3/free-rounds/campaigns');
const grantsQuery = queryContract('/v3/free-rounds/grants');
const campaignObject = {
  isId: parameterContract('/v3/free-rounds/campaigns/{id}', 'get', 'path', 'id'),
  notFound: 'No free-round campaign with this id.',
};
const grantObject = { isId: parameterContract('/v3/free-rounds/grants/{id}', 'get', 'path', 'id'), notFound: 'No free-round grant with this id.' };
const isDateTime = schemaContract('DateTime');
const noStore = { 'cache-control': 'no-store' };

/** The routes of this resource, relative to /v3. */
export function freeRoundRoutes(ctx: ApiContext): Hono<CallerEnv> {
  const app = new Hono<CallerEnv>({ strict: false });
  const key = operatorKey(ctx.sql);
  resource(app, '/free-rounds/campaigns', {
    get: (c) => listCampaigns(ctx, c.var.caller, c.req.raw),
    post: (c) => createCampaign(ctx, c.var.caller, c.req.raw),
  }, key);
  resource(app, '/free-rounds/campaigns/:id', { get: (c) => campaignCall(ctx, c.var.caller, c.req.raw, c.req.param('id')!, 'read') }, key);
  resource(app, '/free-rounds/campaigns/:id/cancel', {
    post: (c) => campaignCall(ctx, c.var.caller, c.req.raw, c.req.param('id')!, 'cancel'),
  }, key);
  resource(app, '/free-rounds/campaigns/:id/players', {
    post: (c) => campaignCall(ctx, c.var.caller, c.req.raw, c.req.param('id')!, 'grant'),
  }, key);
  resource(app, '/free-rounds/campaigns/:id/players/:player_id', {
    delete: (c) => cancelGrant(ctx, c.var.caller, c.req.param('id')!, c.req.param('player_id')!),
  }, key);
  resource(app, '/free-rounds/grants', { get: (c) => listGrants(ctx, c.var.caller, c.req.raw) }, key);
  return resource(app, '/free-rounds/grants/:id', { get: (c) => readGrant(ctx, c.var.caller, c.req.param('id')!) }, key);
}

/** A reason the database gives for refusing a campaign, at a field of the body. */
interface Refusal {
  pointer: string;
  code: string;
  /** stake_not_allowed: the game and the stakes it allows in the currency. */
  game_id?: string;
  allowed?: number[];
  /** rounds_above_limit, validity_above_limit: the provider's limit (rounds, days). */
  limit?: number;
}

/** What the database answers a campaign's creation (private.create_free_round_campaign). */
type CreateOutcome =
  | 'created' | 'replayed' | 'conflict' | 'unauthorized' | 'reference_unavailable' | 'invalid_validity' | 'mixed_providers'
  | 'not_supported' | 'stake_not_allowed' | 'limit_exceeded';

const refusals: Record<Exclude<CreateOutcome, 'created' | 'replayed' | 'conflict' | 'unauthorized'>, [ProblemCode, string]> = {
  reference_unavailable: ['reference_unavailable', 'A game or the currency cannot be used; see `errors`.'],
  invalid_validity: ['invalid_validity', 'valid_until must be after valid_from and in the future; see `errors`.'],
  mixed_providers: ['mixed_providers', 'A campaign\'s games are of one provider.'],
  not_supported: ['free_rounds_not_supported', 'A game does not support free rounds; see `errors`.'],
  stake_not_allowed: ['stake_not_allowed', 'The stake is not one the games allow in this currency; see `errors`.'],
  limit_exceeded: ['free_rounds_limit_exceeded', 'The rounds or the validity are beyond what the provider allows; see `errors`.'],
};

const refusalDetails: Record<string, (refusal: Refusal) => string> = {
  unknown_game: () => 'No game with this id in the catalogue.',
  game_unavailable: () => 'The game is in maintenance or inactive.',
  currency_not_supported: () => 'The game does not play in this currency.',
  unknown_currency: () => REFERENCE_DETAILS.unknown_currency,
  currency_unavailable: () => REFERENCE_DETAILS.currency_unavailable,
  valid_until_not_after_valid_from: () => 'valid_until must be after valid_from.',
  valid_until_passed: () => 'valid_until has passed.',
  mixed_providers: () => 'The games are of several providers.',
  free_rounds_not_supported: () => 'This game does not support free rounds.',
  stake_not_allowed: (r) =>
    r.allowed?.length ? `${r.game_id} allows ${r.allowed.join(', ')} in this currency.` : `${r.game_id} has no free-round stakes in this currency.`,
  rounds_above_limit: (r) => `The provider allows at most ${r.limit} rounds.`,
  validity_above_limit: (r) => `The provider allows at most ${r.limit} days after valid_from.`,
};

const fieldErrorOf = (refusal: Refusal): FieldError => ({
  pointer: refusal.pointer, code: refusal.code, detail: refusalDetails[refusal.code]?.(refusal) ?? 'Refused.',
});

/**
 * POST /v3/free-rounds/campaigns: 201 with the campaign; 200 with it as it is now for a repeat of
 * the same external_id and body; 409 for another body; 422 naming each reason it cannot be made.
 */
export async function createCampaign(ctx: ApiContext, caller: Caller, request: Request): Promise<Response> {
  const body = createBody(await readJsonBody(request, ctx.config.maxBodyBytes));
  const [row] = await caller.answer(ctx.sql<{ outcome: CreateOutcome; campaign: string | null; problems: Refusal[] | null }[]>`
    select * from private.create_free_round_campaign(${caller.keyHash}, ${body.external_id}, ${body.name}, ${body.game_ids},
      ${body.currency}, ${body.bet_amount}::numeric, ${body.rounds}, ${body.valid_from ?? null}::timestamptz,
      ${body.valid_until}::timestamptz, ${body.max_win ?? null}::numeric, ${body.player_ids ?? null}::text[])`);
  switch (row.outcome) {
    case 'created':
      return jsonTextResponse(201, row.campaign!, noStore);
    case 'replayed':
      return jsonTextResponse(200, row.campaign!, noStore);
    case 'conflict':
      throw new Problem('external_id_conflict', 'A campaign with this external_id was made with another body.');
    default: {
      const [code, detail] = refusals[row.outcome];
      throw new Problem(code, detail, { errors: row.problems!.map(fieldErrorOf) });
    }
  }
}

/** What the database answers a call on one campaign (private.free_round_campaign_call). */
type CampaignOutcome = Outcome['outcome'] | 'campaign_ended' | 'campaign_cancelled';

/**
 * GET /v3/free-rounds/campaigns/{id} (`read`), POST .../cancel (`cancel`) and POST .../players
 * (`grant`) on one of the caller's campaigns; anything else is 404.
 */
export async function campaignCall(
  ctx: ApiContext, caller: Caller, request: Request, id: string, action: 'read' | 'cancel' | 'grant',
): Promise<Response> {
  if (!campaignObject.isId(id)) throw new Problem('not_found', campaignObject.notFound);
  const players = action === 'grant' ? playersBody(await readJsonBody(request, ctx.config.maxBodyBytes)).player_ids : null;
  const [row] = await caller.answer(ctx.sql<{ outcome: CampaignOutcome; body: string }[]>`
    select * from private.free_round_campaign_call(${caller.keyHash}, ${id}::uuid, ${action}, ${players}::text[])`);
  switch (row.outcome) {
    case 'found':
      return jsonTextResponse(200, row.body, noStore);
    case 'not_found':
      throw new Problem('not_found', campaignObject.notFound);
    case 'campaign_ended':
      throw new Problem('campaign_ended', 'The campaign ended at its valid_until: it can no longer be cancelled or granted.');
    case 'campaign_cancelled':
      throw new Problem('campaign_cancelled', 'The campaign was cancelled: it gives no new grants.');
  }
}

/** What the database answers a grant's cancel (private.cancel_free_round_grant). */
type CancelGrantOutcome = 'found' | 'unauthorized' | 'campaign_not_found' | 'grant_not_found' | 'campaign_ended' | 'grant_completed';

/**
 * DELETE /v3/free-rounds/campaigns/{id}/players/{player_id}: 200 with the player's grant, cancelled
 * (a repeat answers it as it is); its round in play still settles. 404 for a campaign not the
 * caller's or a player it has no grant for; 409 for a grant over (its campaign ended, or completed).
 */
export async function cancelGrant(ctx: ApiContext, caller: Caller, id: string, playerSegment: string): Promise<Response> {
  const playerId = playerIdOf(playerSegment);
  if (!campaignObject.isId(id)) throw new Problem('not_found', campaignObject.notFound);
  const [row] = await caller.answer(ctx.sql<{ outcome: CancelGrantOutcome; grant: string }[]>`
    select * from private.cancel_free_round_grant(${caller.keyHash}, ${id}::uuid, ${playerId})`);
  switch (row.outcome) {
    case 'found':
      return jsonTextResponse(200, row.grant, noStore);
    case 'campaign_not_found':
      throw new Problem('not_found', campaignObject.notFound);
    case 'grant_not_found':
      throw new Problem('not_found', 'The campaign has no grant for this player.');
    case 'campaign_ended':
      throw new Problem('campaign_ended', 'The campaign ended at its valid_until: its unfinished grants expired.');
    case 'grant_completed':
      throw new Problem('grant_completed', 'The player\'s grant is completed: every round was played and paid.');
  }
}

/** GET /v3/free-rounds/campaigns: newest first, keyset on (created_at, id). */
export async function listCampaigns(ctx: ApiContext, caller: Caller, request: Request): Promise<Response> {
  const query = parseListQuery(new URL(request.url), campaignsQuery, 2, ([at, id]) => isDateTime(at) && CURSOR_UUID.test(id));
  const rows = await caller.answer(ctx.readSql<{ authorized: boolean; id: string | null; position: string; campaign: string }[]>`
    select * from private.list_free_round_campaigns(${caller.keyHash}, ${query.filters.status ?? null},
      ${query.after?.[0] ?? null}, ${query.after?.[1] ?? null}, ${query.limit + 1})`);
  const found = rows.filter((row) => row.id !== null);
  return jsonTextResponse(200, pageJson(found, query.limit, (row) => [row.position, row.id!], (row) => row.campaign), noStore);
}

/** GET /v3/free-rounds/grants: newest first, keyset on (created_at, id). */
export async function listGrants(ctx: ApiContext, caller: Caller, request: Request): Promise<Response> {
  const query = parseListQuery(new URL(request.url), grantsQuery, 2, ([at, id]) => isDateTime(at) && CURSOR_UUID.test(id));
  const { player_id, campaign_id, status } = query.filters;
  const rows = await caller.answer(ctx.readSql<{ authorized: boolean; id: string | null; position: string; grant: string }[]>`
    select * from private.list_free_round_grants(${caller.keyHash}, ${player_id ?? null}, ${campaign_id ?? null}::uuid,
      ${status ?? null}, ${query.after?.[0] ?? null}, ${query.after?.[1] ?? null}, ${query.limit + 1})`);
  const found = rows.filter((row) => row.id !== null);
  return jsonTextResponse(200, pageJson(found, query.limit, (row) => [row.position, row.id!], (row) => row.grant), noStore);
}

/** GET /v3/free-rounds/grants/{id}: one of the caller's grants in its key's mode; anything else is 404. */
export async function readGrant(ctx: ApiContext, caller: Caller, id: string): Promise<Response> {
  const row = await ownObject(caller, id, grantObject, (keyHash, grantId) =>
    ctx.sql<(Outcome & { grant: string })[]>`select * from private.read_free_round_grant(${keyHash}, ${grantId}::uuid)`);
  return jsonTextResponse(200, row.grant, noStore);
}
