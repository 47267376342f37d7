// The jurisdictions' rules, as launch tokens carry them: read from the database a minute at a time
// rather than per session (they change rarely, and the database still decides what is allowed), and
// read again at once for a code not seen yet.
import type { Sql } from '../_shared/database.ts';

export type Rules = Record<string, unknown>;
export type RulesOf = (code: string) => Promise<Rules | undefined>;

const FRESH_MS = 60_000;
const RETRY_UNKNOWN_MS = 1_000;

export function jurisdictionRules(sql: Sql, now: () => number = Date.now): RulesOf {
  let loaded: Promise<Map<string, Rules>> | null = null;
  let loadedAt = 0;
  const load = () => {
    loadedAt = now();
    const loading = sql<{ code: string; rules: Rules }[]>`select code, rules from private.jurisdiction_rules()`
      .then((rows) => new Map(rows.map((row) => [row.code, row.rules])));
    loaded = loading;
    loading.catch(() => loaded === loading && (loaded = null));
    return loading;
  };
  return async (code) => {
    const rules = (await (loaded && now() - loadedAt < FRESH_MS ? loaded : load())).get(code);
    return rules ?? (now() - loadedAt >= RETRY_UNKNOWN_MS ? (await load()).get(code) : undefined);
  };
}
