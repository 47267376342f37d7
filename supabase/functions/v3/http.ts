// The responses routes build alike: a JSON body, 405 naming the methods allowed, and a cacheable
// body with its ETag (304 when the caller has it already).
import { Problem } from './problem.ts';
import { sha256Hex } from './sha256.ts';

export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return jsonTextResponse(status, JSON.stringify(body), headers);
}

/** A body already written as JSON (by the database, for the lists it builds). */
export function jsonTextResponse(status: number, json: string, headers: Record<string, string> = {}): Response {
  return new Response(json, { status, headers: { 'content-type': 'application/json', ...headers } });
}

/** A strong validator for a body: a hash of its bytes. */
export function etagOf(text: string): string {
  return `"${sha256Hex(text).slice(0, 32)}"`;
}

// What a 304 repeats of the 200 it stands for (RFC 9110 15.4.5): the validators and caching
// headers, never representation metadata such as Content-Type, which would describe a body it lacks.
const NOT_MODIFIED_HEADERS = new Set(['cache-control', 'content-location', 'date', 'etag', 'expires', 'vary']);

/** 200 with `text`, or 304 with no body when If-None-Match holds its ETag (weak or strong) or `*`. */
export function conditionalResponse(request: Request, text: string, headers: Record<string, string> & { etag: string }): Response {
  const match = request.headers.get('if-none-match')?.split(',').map((tag) => tag.trim().replace(/^W\//, ''));
  if (match?.includes(headers.etag) || match?.includes('*')) {
    const kept = Object.entries(headers).filter(([name]) => NOT_MODIFIED_HEADERS.has(name.toLowerCase()));
    return new Response(null, { status: 304, headers: Object.fromEntries(kept) });
  }
  return new Response(text, { status: 200, headers });
}

export function methodNotAllowed(allow: string): Problem {
  return new Problem('method_not_allowed', `Use ${allow}.`, { headers: { allow } });
}
