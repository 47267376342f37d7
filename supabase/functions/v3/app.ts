// The v3 API: one Hono app over injected dependencies. index.ts wires it for Deno.serve; tests run
// the same app in-process against a real database. Each resource's routes are named handlers in
// routes/<resource>.ts; this file mounts them and turns every error into problem+json.
import { Hono } from 'hono';
import { isDatabaseUnavailable, mayHaveRun } from '../_shared/database.ts';
import { Problem } from './problem.ts';
import { type ApiContext, apiContext, type ApiDependencies } from './context.ts';
import { catalogueRoutes } from './routes/catalogue.ts';
import { freeRoundRoutes } from './routes/free-rounds.ts';
import { metaRoutes } from './routes/meta.ts';
import { playerRoutes } from './routes/players.ts';
import { sandboxRoutes } from './routes/sandbox.ts';
import { providerRoutes } from './routes/provider.ts';
import { reportRoutes } from './routes/reports.ts';
import { roundRoutes } from './routes/rounds.ts';
import { webhookRoutes } from './routes/webhooks.ts';
import { sessionRoutes } from './routes/sessions.ts';
import { sportsbookRoutes } from './routes/sportsbook.ts';
import { walletRoutes } from './routes/wallets.ts';

// Hosted, the function sees /v3/...; served by npm start, /functions/v1/v3/... as callers send it.
const BASES = ['/v3', '/functions/v1/v3'];

export function createApp(deps: ApiDependencies): (request: Request) => Promise<Response> {
  const ctx = apiContext(deps);
  const v3 = new Hono({ strict: false })
    .route('/', sessionRoutes(ctx))
    .route('/', catalogueRoutes(ctx))
    .route('/', walletRoutes(ctx))
    .route('/', metaRoutes(ctx))
    .route('/', providerRoutes(ctx))
    .route('/', roundRoutes(ctx))
    .route('/', webhookRoutes(ctx))
    .route('/', playerRoutes(ctx))
    .route('/', freeRoundRoutes(ctx))
    .route('/', reportRoutes(ctx))
    .route('/', sportsbookRoutes(ctx))
    .route('/', sandboxRoutes(ctx));
  const app = new Hono({ strict: false });
  for (const base of BASES) app.route(base, v3);
  app.notFound((c) => new Problem('not_found', notFoundDetail(new URL(c.req.url))).toResponse());
  app.onError((error, c) => errorResponse(ctx, error, c.req.method));
  // A Problem is an Error, so Hono's onError answers it inside the route's middleware (a CORS header
  // set there stays). Hono rethrows what is not an Error; such an answer to HEAD keeps its headers
  // and drops its body, as Hono does for its own.
  return async (request) => {
    try {
      return await app.fetch(request);
    } catch (error) {
      const response = errorResponse(ctx, error, request.method);
      return request.method === 'HEAD' ? new Response(null, response) : response;
    }
  };
}

/**
 * What a 404 for a path outside the routes says: a path that repeats /v3 (the base URL given with
 * /v3 in it, and paths that start with /v3 again) or lacks it is told the base URL to use.
 */
export function notFoundDetail(url: URL): string {
  const base = `${url.origin}/functions/v1`;
  const right = `The base URL is ${base} and every path starts with /v3, as in ${base}/v3/sessions.`;
  if (/\/v3\/v3(\/|$)/.test(url.pathname)) return `This path has /v3 twice. ${right}`;
  if (!/^(\/functions\/v1)?\/v3(\/|$)/.test(url.pathname)) return `No such resource: this path does not start with /v3. ${right}`;
  return 'No such resource in API v3.';
}

// Requests that write nothing, whatever happened to their statements.
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A Problem as itself; an unreachable database as 503: outcome_unknown when a write's statement may
 * have run (its answer was lost: it may have committed), else service_unavailable (nothing was
 * written); anything else logged, and a bare 500.
 */
function errorResponse(ctx: ApiContext, error: unknown, method: string): Response {
  if (error instanceof Problem) return error.toResponse();
  if (isDatabaseUnavailable(error)) {
    ctx.logError('database unavailable', error);
    const headers = { 'retry-after': '5' };
    if (!READS.has(method) && mayHaveRun(error)) {
      return new Problem('outcome_unknown',
        'The database did not confirm this request: it may have been applied. Send it again unchanged, with the same '
          + 'transaction_id or Idempotency-Key (never a new one), to get its answer.', { headers }).toResponse();
    }
    return new Problem('service_unavailable', 'The service is temporarily unavailable; nothing was written. Retry shortly.', {
      headers,
    }).toResponse();
  }
  ctx.logError('unexpected error', error);
  return new Problem('internal_error', 'Something went wrong on our side.').toResponse();
}
