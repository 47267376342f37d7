// An operation on one of the caller's objects, named by id in the path (a round, an event, a webhook
// endpoint): one database call that checks the key too and answers `found`, `not_found` or
// `unauthorized`. An id that cannot be one is as absent as another client's (the key middleware
// makes sure the caller's key works before that 404 goes out).
import type { Caller } from './caller.ts';
import { Problem } from './problem.ts';

/** What the database answers for one of the caller's objects. */
export type ObjectOutcome = 'found' | 'not_found' | 'unauthorized';

export interface Outcome {
  outcome: ObjectOutcome;
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
  caller: Caller,
  id: string,
  { isId, notFound, prepare }: OwnObject<P>,
  call: (keyHash: string, id: string, prepared: P) => Promise<R[]>,
): Promise<R> {
  if (!isId(id)) throw new Problem('not_found', notFound);
  const prepared = (await prepare?.()) as P;
  const [row] = await caller.answer(call(caller.keyHash, id.toLowerCase(), prepared));
  const outcome: Exclude<ObjectOutcome, 'unauthorized'> = row.outcome;
  switch (outcome) {
    case 'found':
      return row as R;
    case 'not_found':
      throw new Problem('not_found', notFound);
  }
}
