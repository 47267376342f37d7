// What describes the API rather than acting in it, public and cacheable: the key providers verify
// launch tokens with (JWKS) and the OpenAPI 3.1 document.
import { Hono } from 'hono';
import { jsonResponse, methodNotAllowed } from '../../_shared/http.ts';
import type { ApiContext } from '../context.ts';
import { serveOpenApi } from '../openapi.ts';

/** The routes of this resource, relative to /v3. */
export function metaRoutes(ctx: ApiContext): Hono {
  return new Hono({ strict: false })
    .get('/.well-known/jwks.json', () => jsonResponse(200, ctx.signer.jwks, { 'cache-control': 'public, max-age=300' }))
    .all('/.well-known/jwks.json', () => {
      throw methodNotAllowed('GET');
    })
    .get('/openapi.json', (c) => serveOpenApi(c.req.raw))
    .all('/openapi.json', () => {
      throw methodNotAllowed('GET');
    });
}
