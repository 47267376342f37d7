// The query of a list endpoint (platform conventions): `limit` 1 to 100 (default 50), an opaque
// `cursor` from the previous page's `next_cursor`, and each endpoint's own filters, all as the
// OpenAPI document declares them (v3/contract.ts), checked at once so the caller learns every
// failing parameter in one 400.
import { type FieldError, Problem } from './problem.ts';

/** A uuid as the database writes it into a cursor (lower case). */
export const CURSOR_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

type ListParameters = { limit?: number; cursor?: string };

export interface ParsedQuery<F> {
  limit: number;
  /** The cursor's decoded position, as the endpoint encoded it; null on the first page. */
  after: string[] | null;
  filters: F;
}

const invalidParameters = (errors: FieldError[]) =>
  new Problem('invalid_parameters', 'The query has invalid parameters; see `errors`.', { errors });

const invalidCursor: FieldError = { parameter: 'cursor', code: 'invalid_cursor', detail: 'cursor must be a next_cursor this endpoint returned.' };

/**
 * The query as the endpoint's contract checks it, and its cursor decoded: any failure, or a cursor
 * this endpoint could not have made, is a 400 `invalid_parameters` listing each. `cursorParts` is
 * how many strings the endpoint's cursors carry, and `validCursor` what else a cursor it made
 * always satisfies.
 */
export function parseListQuery<Q extends ListParameters>(
  url: URL,
  contract: (url: URL) => { values: Q; errors: FieldError[] },
  cursorParts: number,
  validCursor: (parts: string[]) => boolean = () => true,
): ParsedQuery<Omit<Q, keyof ListParameters>> {
  const { values, errors } = contract(url);
  const { limit, cursor, ...filters } = values;
  let after: string[] | null = null;
  if (cursor !== undefined) {
    after = decodeCursor(cursor, cursorParts);
    if (!after || !validCursor(after)) errors.push(invalidCursor);
  }
  if (errors.length) throw invalidParameters(errors);
  return { limit: limit!, after, filters };
}

/** An opaque cursor: the position's strings as base64url JSON. */
export function encodeCursor(parts: string[]): string {
  return btoa(JSON.stringify(parts)).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

function decodeCursor(cursor: string, parts: number): string[] | null {
  if (!/^[A-Za-z0-9_-]{1,2048}$/.test(cursor)) return null;
  try {
    const decoded = JSON.parse(atob(cursor.replaceAll('-', '+').replaceAll('_', '/')));
    return Array.isArray(decoded) && decoded.length === parts && decoded.every((p) => typeof p === 'string' && p.length <= 200)
      ? decoded
      : null;
  } catch {
    return null;
  }
}

/**
 * A page of a short list read whole (providers, currencies, wallets), keyed by a unique field: the
 * cursor names the last key shown, and a key no longer in the list is a 400, never a silent restart.
 */
export function pageOfAll<T extends Record<string, unknown>>(items: T[], query: ParsedQuery<unknown>, key: keyof T & string) {
  const start = query.after ? items.findIndex((item) => item[key] === query.after![0]) + 1 : 0;
  if (query.after && start === 0) throw invalidParameters([invalidCursor]);
  return page(items.slice(start, start + query.limit + 1), query.limit, (item) => [String(item[key])]);
}

/**
 * The page as JSON text, each row's item already JSON (the database writes it), put in as it is:
 * a page is parsed and written again nowhere on its way out.
 */
export function pageJson<T>(rows: T[], limit: number, positionOf: (row: T) => string[], itemJson: (row: T) => string): string {
  const { data, next_cursor, has_more } = page(rows, limit, positionOf);
  return `{"data":[${data.map(itemJson).join(',')}],"next_cursor":${JSON.stringify(next_cursor)},"has_more":${has_more}}`;
}

/** The page in the list shape: `{ data, next_cursor, has_more }`, from one row more than the page. */
export function page<T>(rows: T[], limit: number, positionOf: (row: T) => string[]) {
  const has_more = rows.length > limit;
  const data = has_more ? rows.slice(0, limit) : rows;
  return { data, next_cursor: has_more ? encodeCursor(positionOf(data[data.length - 1])) : null, has_more };
}
