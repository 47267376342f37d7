// The two responses every route builds alike: a JSON body, and 405 naming the methods allowed.
import { Problem } from './problem.ts';

export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

export function methodNotAllowed(allow: string): Problem {
  return new Problem('method_not_allowed', `Use ${allow}.`, { headers: { allow } });
}
