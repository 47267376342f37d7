// A game provider's calls, as tests make them: a new session's launch token (POST /v3/sessions), and
// POST /v3/provider/{bets,wins,rollbacks} with the provider's key, each answer held to the OpenAPI
// document.
import { expect } from 'vitest';
import { expectResponseMatches } from '../openapi/contract.ts';
import { type Operator, sessionRequest, validBody } from './api.ts';

type Handle = (request: Request) => Promise<Response>;

const operations = { bets: 'providerBet', wins: 'providerWin', rollbacks: 'providerRollback' } as const;

export interface ProviderAnswer {
  status: number;
  /** The answer's bytes, to compare a replay with. */
  text: string;
  body: Record<string, unknown>;
  /** The Idempotent-Replayed header. */
  replayed: string | null;
}

/** The launch token of a new session of the operator's (for `body`'s player, or the default one). */
export async function launchToken(handle: Handle, operator: Operator, body: object = validBody): Promise<string> {
  const response = await handle(sessionRequest({ ...validBody, ...body }, { key: operator.key }));
  expect(response.status).toBe(201);
  return new URL((await response.json()).launch_url).searchParams.get('token')!;
}

/** A poster of provider calls with `providerKey`. */
export function providerCalls(handle: Handle, providerKey: string) {
  return async (path: keyof typeof operations, body: object): Promise<ProviderAnswer> => {
    const response = await handle(new Request(`http://api.test/v3/provider/${path}`, {
      method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${providerKey}` },
      body: JSON.stringify(body),
    }));
    const text = await response.text();
    expectResponseMatches(operations[path], response, JSON.parse(text));
    return { status: response.status, text, body: JSON.parse(text), replayed: response.headers.get('idempotent-replayed') };
  };
}
