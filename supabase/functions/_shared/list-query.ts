// The query of a list endpoint (platform conventions): `limit` 1 to 100 (default 50), an opaque
// `cursor` from the previous page's `next_cursor`, and each endpoint's own filters, checked all at
// once so the caller learns every failing parameter in one 400.
import { type FieldError, Problem } from './problem.ts';

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 100;

export type Rule = (value: string) => string | undefined;

/** A uuid as the database writes it into a cursor (lower case). */
export const CURSOR_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,6})?(Z|([+-])(\d{2}):(\d{2}))$/;

/**
 * RFC 3339 with its offset, so the instant is unambiguous, and every field in range (a 30 February
 * or an hour 25 would reach the database and fail there): years 1 to 9999, offsets within 14 hours.
 */
export function isDateTime(value: string): boolean {
  const m = DATE_TIME.exec(value);
  if (!m) return false;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number);
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return year >= 1 && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth && hour <= 23 && minute <= 59
    && second <= 59 && (m[8] === 'Z' || (Number(m[10]) <= 14 && Number(m[11]) <= 59));
}

/** Filters several lists share. */
export const rules = {
  currency: (v: string) => (/^[A-Z]{3}$/.test(v) ? undefined : 'must be a three-letter ISO 4217 code in capitals'),
  country: (v: string) => (/^[A-Z]{2}$/.test(v) ? undefined : 'must be a two-letter ISO 3166-1 code in capitals'),
  dateTime: (v: string) =>
    isDateTime(v) ? undefined : 'must be an RFC 3339 date-time with its offset, e.g. `2026-01-31T00:00:00Z`',
  oneOf: (allowed: readonly string[]) => (v: string) => (allowed.includes(v) ? undefined : `must be one of ${allowed.join(', ')}`),
} satisfies Record<string, Rule | ((allowed: readonly string[]) => Rule)>;

export interface ParsedQuery<F extends string> {
  limit: number;
  /** The cursor's decoded position, as the endpoint encoded it; null on the first page. */
  after: string[] | null;
  filters: Partial<Record<F, string>>;
}

/**
 * Reads `limit`, `cursor` and the filters `rules` names; any other parameter, a repeated one or a
 * broken rule is a 400 `invalid_parameters` listing each. `cursorParts` is how many strings the
 * endpoint's cursors carry, and `validCursor` what else a cursor it made always satisfies.
 */
export function parseListQuery<F extends string>(
  url: URL,
  rules: Record<F, Rule>,
  cursorParts: number,
  validCursor: (parts: string[]) => boolean = () => true,
): ParsedQuery<F> {
  const errors: FieldError[] = [];
  const fail = (parameter: string, code: string, detail: string) => errors.push({ parameter, code, detail });
  const filters: Partial<Record<F, string>> = {};
  let limit = DEFAULT_LIMIT;
  let after: string[] | null = null;
  for (const name of new Set(url.searchParams.keys())) {
    const values = url.searchParams.getAll(name);
    if (values.length > 1) {
      fail(name, 'repeated', `${name} may be given once.`);
      continue;
    }
    const [value] = values;
    if (name === 'limit') {
      if (!/^[1-9][0-9]{0,2}$/.test(value) || Number(value) > MAX_LIMIT) fail(name, 'invalid_format', `limit must be a whole number from 1 to ${MAX_LIMIT}.`);
      else limit = Number(value);
    } else if (name === 'cursor') {
      after = decodeCursor(value, cursorParts);
      if (!after || !validCursor(after)) fail(name, 'invalid_cursor', 'cursor must be a next_cursor this endpoint returned.');
    } else if (Object.hasOwn(rules, name)) {
      const problem = rules[name as F](value);
      if (problem) fail(name, 'invalid_format', `${name} ${problem}.`);
      else filters[name as F] = value;
    } else {
      fail(name, 'unknown_parameter', 'This parameter is not accepted.');
    }
  }
  if (errors.length) throw new Problem('invalid_parameters', 'The query has invalid parameters; see `errors`.', { errors });
  return { limit, after, filters };
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
export function pageOfAll<T extends Record<string, unknown>>(items: T[], query: ParsedQuery<string>, key: keyof T & string) {
  const start = query.after ? items.findIndex((item) => item[key] === query.after![0]) + 1 : 0;
  if (query.after && start === 0) {
    throw new Problem('invalid_parameters', 'The query has invalid parameters; see `errors`.', {
      errors: [{ parameter: 'cursor', code: 'invalid_cursor', detail: 'cursor must be a next_cursor this endpoint returned.' }],
    });
  }
  return page(items.slice(start, start + query.limit + 1), query.limit, (item) => [String(item[key])]);
}

/** The page in the list shape: `{ data, next_cursor, has_more }`, from one row more than the page. */
export function page<T>(rows: T[], limit: number, positionOf: (row: T) => string[]) {
  const has_more = rows.length > limit;
  const data = has_more ? rows.slice(0, limit) : rows;
  return { data, next_cursor: has_more ? encodeCursor(positionOf(data[data.length - 1])) : null, has_more };
}
