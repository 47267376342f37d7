// The one answer to a currency or country the service does not know (docs/validation.md): 422
// reference_unavailable, a field error per field with its code, whatever the endpoint and wherever
// the field is (a body member or a query parameter). The database decides
// (private.reference_problems, in the endpoint's own call); this words it.
import { type FieldError, pointerTo, Problem } from './problem.ts';

/** What private.reference_problems answers of a currency and a country. */
export type ReferenceProblem = 'unknown_currency' | 'currency_unavailable' | 'unknown_country';

export const REFERENCE_DETAILS: Record<ReferenceProblem, string> = {
  unknown_currency: 'The service does not offer this currency; GET /v3/currencies lists those it does.',
  currency_unavailable: 'This currency is not active.',
  unknown_country: 'Not an ISO 3166-1 alpha-2 code assigned to a country.',
};

const FIELD: Record<ReferenceProblem, 'currency' | 'country'> = {
  unknown_currency: 'currency', currency_unavailable: 'currency', unknown_country: 'country',
};

/** The field error of one problem: at a body pointer (by default the field's member) or a query parameter. */
export function referenceError(problem: ReferenceProblem, at: { pointer?: string } | { parameter: true } = {}): FieldError {
  const detail = REFERENCE_DETAILS[problem];
  if ('parameter' in at) return { parameter: FIELD[problem], code: problem, detail };
  return { pointer: at.pointer ?? pointerTo(FIELD[problem]), code: problem, detail };
}

/** 422 reference_unavailable with each field error; nothing was written. */
export function referenceUnavailable(errors: FieldError[]): Problem {
  return new Problem('reference_unavailable', 'A currency or country is not one the service knows; see `errors`.', { errors });
}

/** Throws the 422 when `problems` (private.reference_problems' answer) is not empty. */
export function refuseUnknownReferences(problems: ReferenceProblem[] | null, at: 'body' | 'query'): void {
  if (problems?.length) {
    throw referenceUnavailable(problems.map((p) => referenceError(p, at === 'query' ? { parameter: true } : {})));
  }
}
