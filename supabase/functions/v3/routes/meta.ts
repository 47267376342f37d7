// What describes the API rather than acting in it, public and cacheable: the key providers verify
// launch tokens with (JWKS) and the OpenAPI 3.1 document.
import { Hono } from 'hono';
import { jsonResponse } from '../http.ts';
import type { ApiContext } from '../context.ts';
import { serveOpenApi } from '../openapi.ts';
import { resource } from '../resource.ts';

/** The routes of this resource, relative to /v3. */
export function metaRoutes(ctx: ApiContext): Hono {
  const app = new Hono({ strict: false });
  resource(app, '/.well-known/jwks.json', { get: () => jsonResponse(200, ctx.signer.jwks, { 'cache-control': 'public, max-age=300' }) });
  return resource(app, '/openapi.json', { get: (c) => serveOpenApi(c.req.raw) });
}
