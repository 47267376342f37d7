// The operator's webhooks: its endpoints (POST and GET /v3/webhook-endpoints, GET and DELETE
// /v3/webhook-endpoints/{id}; the signing secret is in the create answer alone) and its events of
// the last 30 days (GET /v3/events, GET /v3/events/{id}), in the key's mode. Each request is one
// database call that checks the key too.
import { Hono } from 'hono';
import { type Caller, type CallerEnv, operatorKey } from '../caller.ts';
import { jsonResponse, jsonTextResponse } from '../http.ts';
import { CURSOR_UUID, pageJson, pageOfAll, parseListQuery } from '../list-query.ts';
import { readJsonBody } from '../request-body.ts';
import { checkCallableUrl } from '../callable-url.ts';
import type { ApiContext } from '../context.ts';
import { bodyContract, parameterContract, queryContract, schemaContract } from '../contract.ts';
import { type Outcome, ownObject } from '../own-object.ts';
import { resource } from '../resource.ts';

const createBody = bodyContract('/v3/webhook-endpoints');
const updateBody = bodyContract('/v3/webhook-endpoints/{id}', 'patch');
const listQuery = queryContract('/v3/webhook-endpoints');
const endpointObject = {
  isId: parameterContract('/v3/webhook-endpoints/{id}', 'get', 'path', 'id'),
  notFound: 'No webhook endpoint with this id.',
};
const eventsQuery = queryContract('/v3/events');
const eventObject = { isId: parameterContract('/v3/events/{id}', 'get', 'path', 'id'), notFound: 'No event with this id.' };
const isDateTime = schemaContract('DateTime');
const noStore = { 'cache-control': 'no-store' };

/** The routes of this resource, relative to /v3. */
export function webhookRoutes(ctx: ApiContext): Hono<CallerEnv> {
  const app = new Hono<CallerEnv>({ strict: false });
  const key = operatorKey(ctx.sql);
  resource(app, '/webhook-endpoints', {
    get: (c) => listEndpoints(ctx, c.var.caller, c.req.raw),
    post: (c) => createEndpoint(ctx, c.var.caller, c.req.raw),
  }, key);
  resource(app, '/webhook-endpoints/:id', {
    get: (c) => endpointCall(ctx, c.var.caller, c.req.param('id')!, false),
    delete: (c) => endpointCall(ctx, c.var.caller, c.req.param('id')!, true),
    patch: (c) => changeEndpoint(ctx, c.var.caller, c.req.raw, c.req.param('id')!, 'update'),
  }, key);
  resource(app, '/webhook-endpoints/:id/rotate-secret', {
    post: (c) => changeEndpoint(ctx, c.var.caller, c.req.raw, c.req.param('id')!, 'rotate'),
  }, key);
  resource(app, '/webhook-endpoints/:id/test', { post: (c) => changeEndpoint(ctx, c.var.caller, c.req.raw, c.req.param('id')!, 'test') }, key);
  resource(app, '/events', { get: (c) => listEvents(ctx, c.var.caller, c.req.raw) }, key);
  resource(app, '/events/:id', { get: (c) => readEvent(ctx, c.var.caller, c.req.param('id')!) }, key);
  resource(app, '/events/:id/deliveries', { get: (c) => eventDeliveries(ctx, c.var.caller, c.req.param('id')!, false) }, key);
  return resource(app, '/events/:id/redeliver', { post: (c) => eventDeliveries(ctx, c.var.caller, c.req.param('id')!, true) }, key);
}

/** GET /v3/events/{id}/deliveries, and POST .../redeliver (the same answer, once it is due again). */
export async function eventDeliveries(ctx: ApiContext, caller: Caller, id: string, redeliver: boolean): Promise<Response> {
  const row = await ownObject(caller, id, eventObject, (keyHash, eventId) =>
    ctx.sql<(Outcome & { deliveries: string })[]>`
      select * from private.event_deliveries(${keyHash}, ${eventId}::uuid, ${redeliver})`);
  return jsonTextResponse(200, `{"data":${row.deliveries}}`, noStore);
}

/** GET /v3/events: newest first, keyset on (created_at, id). */
export async function listEvents(ctx: ApiContext, caller: Caller, request: Request): Promise<Response> {
  const query = parseListQuery(new URL(request.url), eventsQuery, 2, ([at, id]) => isDateTime(at) && CURSOR_UUID.test(id));
  const rows = await caller.answer(ctx.readSql<{ authorized: boolean; id: string | null; position: string; event: string }[]>`
    select * from private.list_events(${caller.keyHash}, ${query.filters.type ?? null}, ${query.after?.[0] ?? null},
      ${query.after?.[1] ?? null}, ${query.limit + 1})`);
  const found = rows.filter((row) => row.id !== null);
  return jsonTextResponse(200, pageJson(found, query.limit, (row) => [row.position, row.id!], (row) => row.event), noStore);
}

/** GET /v3/events/{id}: one of the caller's events; anything else is 404. */
export async function readEvent(ctx: ApiContext, caller: Caller, id: string): Promise<Response> {
  const row = await ownObject(caller, id, eventObject, (keyHash, eventId) =>
    ctx.sql<(Outcome & { event: string })[]>`select * from private.read_event(${keyHash}, ${eventId}::uuid)`);
  return jsonTextResponse(200, row.event, noStore);
}

/** POST /v3/webhook-endpoints: 201 with the endpoint and its secret, shown this once. */
export async function createEndpoint(ctx: ApiContext, caller: Caller, request: Request): Promise<Response> {
  const body = createBody(await readJsonBody(request, ctx.config.maxBodyBytes));
  await checkCallableUrl(ctx, body.url);
  const [row] = await caller.answer(ctx.sql<{ authorized: boolean; endpoint: string; secret: string }[]>`
    select * from private.create_webhook_endpoint(${caller.keyHash}, ${body.url}, ${body.event_types ?? []}, ${body.description ?? null})`);
  const endpoint = JSON.parse(row.endpoint);
  return jsonResponse(201, { ...endpoint, secret: row.secret }, { ...noStore, location: `/functions/v1/v3/webhook-endpoints/${endpoint.id}` });
}

/** GET /v3/webhook-endpoints: a client has a handful, read whole and paged by id. */
export async function listEndpoints(ctx: ApiContext, caller: Caller, request: Request): Promise<Response> {
  const query = parseListQuery(new URL(request.url), listQuery, 1);
  const rows = await caller.answer(ctx.sql<{ authorized: boolean; endpoint: string | null }[]>`
    select * from private.list_webhook_endpoints(${caller.keyHash})`);
  const endpoints = rows.flatMap((row) => (row.endpoint ? [JSON.parse(row.endpoint) as Record<string, unknown>] : []));
  return jsonResponse(200, pageOfAll(endpoints, query, 'id'), noStore);
}

/**
 * PATCH (the fields given), POST .../rotate-secret (200 with the new secret, shown once) or POST
 * .../test (202 with the ping event) on one of the caller's endpoints; anything else is 404.
 */
export async function changeEndpoint(
  ctx: ApiContext, caller: Caller, request: Request, id: string, action: 'update' | 'rotate' | 'test',
): Promise<Response> {
  const prepare = async () => {
    if (action !== 'update') return null;
    const patch = updateBody(await readJsonBody(request, ctx.config.maxBodyBytes));
    await checkCallableUrl(ctx, patch.url);
    return patch;
  };
  const row = await ownObject(caller, id, { ...endpointObject, prepare }, (keyHash, endpointId, patch) =>
    ctx.sql<(Outcome & { endpoint: string; secret: string; event: string })[]>`
      select * from private.change_webhook_endpoint(${keyHash}, ${endpointId}::uuid, ${action}, ${patch as never}::jsonb)`);
  if (action === 'test') return jsonTextResponse(202, row.event, noStore);
  if (action === 'rotate') return jsonResponse(200, { ...JSON.parse(row.endpoint), secret: row.secret }, noStore);
  return jsonTextResponse(200, row.endpoint, noStore);
}

/** GET (read) or DELETE (remove) one of the caller's endpoints; anything else is 404. */
export async function endpointCall(ctx: ApiContext, caller: Caller, id: string, remove: boolean): Promise<Response> {
  const row = await ownObject(caller, id, endpointObject, (keyHash, endpointId) =>
    ctx.sql<(Outcome & { endpoint: string })[]>`
      select * from private.webhook_endpoint_call(${keyHash}, ${endpointId}::uuid, ${remove})`);
  return jsonTextResponse(200, row.endpoint, noStore);
}
