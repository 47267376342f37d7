// GET /v3/openapi.json: the OpenAPI 3.1 description, bundled with the function (an import, so it
// needs no file access under Deno or Node), serialized once, cacheable and revalidatable by ETag.
import document from './openapi.json' with { type: 'json' };
import { sha256Hex } from '../_shared/sha256.ts';

const body = JSON.stringify(document);
const etag = `"${sha256Hex(body).slice(0, 32)}"`;

export function serveOpenApi(request: Request): Response {
  const headers = {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'public, max-age=300',
    etag,
  };
  const match = request.headers.get('if-none-match')?.split(',').map((tag) => tag.trim().replace(/^W\//, ''));
  if (match?.includes(headers.etag) || match?.includes('*')) return new Response(null, { status: 304, headers });
  return new Response(body, { status: 200, headers });
}
