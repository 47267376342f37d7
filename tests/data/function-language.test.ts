// A language sql function with its own search_path is never inlined, and Postgres 17 parses and
// plans its body again at every call (a plpgsql function keeps its plans for the connection): on a
// request's path that cost is paid per call, and per row when it builds a row's JSON. The engine's
// caller read, the reference check, the GGR cells and the sportsbook's bet JSON each fell into it.
// The functions still written so are named here with why; a new one fails this test until it is
// plpgsql or added with its reason.
import { describe, expect, test } from 'vitest';
import { connect } from '../helpers/db.ts';

const RARELY_CALLED = 'staff, setup or the scheduled runner, not a request path';
const LATER = 'a read once per request, left for a later step';
const LEFT: Record<string, string> = {
  'public.issue_statements': RARELY_CALLED,
  'public.resolve_round': RARELY_CALLED,
  'public.retry_wallet_call': RARELY_CALLED,
  'public.review_win': RARELY_CALLED,
  'public.set_wallet_settings': RARELY_CALLED,
  'private.new_signing_secret': RARELY_CALLED,
  'private.purge_idempotency_keys': RARELY_CALLED,
  'private.unassigned_countries': RARELY_CALLED,
  'private.jurisdiction_rules': LATER,
  'private.list_game_sessions': LATER,
  'private.list_jurisdictions': LATER,
  'private.read_player_restrictions': LATER,
  'private.read_sandbox_player': LATER,
  'private.wallet_check_target': LATER,
  'private.wallet_setting_json': LATER,
  'private.webhook_endpoint_json': LATER,
  'private.money_text': LATER,
};

describe('functions the requests call', () => {
  const sql = connect();

  test('no language sql function with its own search_path beyond those named, each with its reason', async () => {
    const rows = await sql<{ name: string }[]>`
      select n.nspname || '.' || p.proname as name
      from pg_catalog.pg_proc p
      join pg_catalog.pg_namespace n on n.oid = p.pronamespace
      join pg_catalog.pg_language l on l.oid = p.prolang
      where n.nspname in ('public', 'private') and l.lanname = 'sql'
        and exists (select 1 from unnest(p.proconfig) c where c like 'search_path=%')
      order by 1`;
    expect(rows.map((r) => r.name)).toEqual(Object.keys(LEFT).sort());
  });
});
