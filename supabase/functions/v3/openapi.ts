// GET /v3/openapi.json: the OpenAPI 3.1 description, bundled with the function (an import, so it
// needs no file access under Deno or Node), serialized once, cacheable and revalidatable by ETag.
import document from './openapi.json' with { type: 'json' };
import { conditionalResponse, etagOf } from './http.ts';

const body = JSON.stringify(document);
const headers = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'public, max-age=300', etag: etagOf(body) };

export function serveOpenApi(request: Request): Response {
  return conditionalResponse(request, body, headers);
}
