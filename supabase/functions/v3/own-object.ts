// An operation on one of the caller's objects, named by id in the path (a round, an event, a webhook
// endpoint): one database call that checks the key too and answers `found`, `not_found` or
// `unauthorized`. An id that cannot be one is as absent as another client's, and the caller without
// a working key gets 401 before any other answer.
import { apiKeyHash, authenticatedRejection, invalidApiKey } from './api-key.ts';
import type { Sql } from '../_shared/database.ts';
import { Problem } from './problem.ts';

export interface Outcome {
  outcome: 'found' | 'not_found' | 'unauthorized';
}

export interface OwnObject<P> {
  /** Whether the id can name such an object (its schema in the document). */
  isId: (id: string) => boolean;
  /** The 404's detail. */
  notFound: string;
  /** What else the request must hold (its body), checked after the id and before the call. */
  prepare?: () => Promise<P>;
}

/** The found row; 401 or 404 otherwise. `call` gets the key's hash, the id (lower case) and what `prepare` made. */
export async function ownObject<R extends Outcome, P = undefined>(
  sql: Sql,
  request: Request,
  id: string,
  { isId, notFound, prepare }: OwnObject<P>,
  call: (keyHash: string, id: string, prepared: P) => Promise<R[]>,
): Promise<R> {
  const keyHash = apiKeyHash(request.headers);
  const prepared = await authenticatedRejection(sql, keyHash, async () => {
    if (!isId(id)) throw new Problem('not_found', notFound);
    return (await prepare?.()) as P;
  });
  const [row] = await call(keyHash, id.toLowerCase(), prepared);
  if (row.outcome === 'unauthorized') throw invalidApiKey();
  if (row.outcome === 'not_found') throw new Problem('not_found', notFound);
  return row;
}
