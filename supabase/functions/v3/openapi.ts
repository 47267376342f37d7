// GET /v3/openapi.json: the OpenAPI 3.1 description, bundled with the function (an import, so it
// needs no file access under Deno or Node), cacheable and revalidatable by ETag. Its first server is
// the address the caller used (its origin, and the path before /v3), so a client generated from it,
// or the API reference reading it, calls where the document was read, whatever the port; the
// document's own first entry (the default local address) gives way to it.
import document from './openapi.json' with { type: 'json' };
import { conditionalResponse, etagOf } from './http.ts';

interface Served {
  body: string;
  headers: Record<string, string> & { etag: string };
}

// Serialized once per base URL; a function is reached under a few, so the cache stays small.
const served = new Map<string, Served>();
const MAX_BASES = 32;

/** The base URL (`{origin}/functions/v1`) a request for `.../v3/openapi.json` was sent under. */
export function baseUrlOf(request: Request): string {
  const url = new URL(request.url);
  const prefix = url.pathname.replace(/\/v3\/openapi\.json\/?$/, '');
  // Hosted, Supabase hands the function /v3/... without the /functions/v1 its caller sent.
  return `${url.origin}${prefix || '/functions/v1'}`;
}

export function serveOpenApi(request: Request): Response {
  const base = baseUrlOf(request);
  let found = served.get(base);
  if (!found) {
    const servers = [{ url: base, description: 'Where this document was read' }, ...document.servers.slice(1)];
    const body = JSON.stringify({ ...document, servers });
    found = {
      body,
      headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'public, max-age=300', etag: etagOf(body) },
    };
    if (served.size >= MAX_BASES) served.delete(served.keys().next().value!);
    served.set(base, found);
  }
  return conditionalResponse(request, found.body, found.headers);
}
