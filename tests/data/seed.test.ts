// supabase/seed.sql, the demo content `npm start` and `supabase db reset` load: it adds no reference
// data (that is the migrations'), its accounts are ones Supabase Auth can sign in, and its money adds
// up. On a database of its own, so the totals are exact whatever other test files insert.
import postgres, { type Sql } from 'postgres';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { freshMigratedDatabase, paths, runSqlFile, withDatabase } from '../../scripts/lib/database.ts';

const DATABASE = `${new URL(inject('databaseUrl')).pathname.slice(1) || 'postgres'}_seed`;
let sql: Sql;
const totals = () => sql<{ currencies: number; providers: number; sandbox: string[]; settings: number }[]>`
  select (select count(*)::int from public.currency) as currencies,
         (select count(*)::int from public.game_provider where not test_only) as providers,
         (select array_agg(slug) from public.game_provider where test_only) as sandbox,
         (select count(*)::int from public.app_setting) as settings`;
let migrated: Awaited<ReturnType<typeof totals>>[number];

beforeAll(async () => {
  const url = await freshMigratedDatabase(inject('databaseUrl'), DATABASE);
  sql = postgres(url, { max: 2, onnotice: () => {} });
  [migrated] = await totals();
  await runSqlFile(url, paths.seed);
});
afterAll(async () => {
  await sql?.end();
  const admin = postgres(withDatabase(inject('databaseUrl'), 'postgres'), { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists "${DATABASE}" with (force)`).finally(() => admin.end());
});

describe('the demo seed', () => {
  test('the migrations alone ship exactly 41 currencies, 12 providers and the sandbox\'s; the seed adds no reference data', async () => {
    expect(migrated).toEqual({ currencies: 41, providers: 12, sandbox: ['cgs-sandbox'], settings: migrated.settings });
    expect(migrated.settings).toBeGreaterThanOrEqual(2);
    expect((await totals())[0]).toEqual(migrated);
  });

  test('a demo catalogue of over 300 games across the 12 providers, each provider counting its active games', async () => {
    const providers = await sql`
      select gp.slug, gp.games_count,
             (select count(*)::int from public.game g where g.provider_id = gp.id and g.status = 'active') as active,
             (select count(*)::int from public.game g where g.provider_id = gp.id) as games
      from public.game_provider gp where not gp.test_only order by gp.sort_order`;
    expect(providers).toHaveLength(12);
    expect(providers.reduce((sum, p) => sum + p.games, 0)).toBeGreaterThanOrEqual(300);
    for (const p of providers) expect(p.games_count).toBe(p.active);
    expect(providers.every((p) => p.active > 0)).toBe(true);
    // The game the README's examples launch.
    const [readme] = await sql`select g.status from public.game g join public.game_provider gp on gp.id = g.provider_id
                               where gp.slug = 'pragmatic-play' and g.code = 'vs20olympgate'`;
    expect(readme).toEqual({ status: 'active' });
  });

  test('free rounds: a realistic share of the slots support them, the README\'s game among them, each with stakes in its currencies', async () => {
    const [share] = await sql`
      select count(f.game_id)::int as supported, count(*)::int as slots,
             count(*) filter (where f.game_id is not null and cardinality(g.currencies) > 0
                              and not (select array_agg(k order by k) from jsonb_object_keys(f.stakes) k) = (select array_agg(c order by c) from unnest(g.currencies) c))::int as wrong_currencies,
             count(distinct f.payout_mode)::int as modes
      from public.game g join public.game_provider gp on gp.id = g.provider_id
      left join public.game_free_rounds f on f.game_id = g.id
      where not gp.test_only and g.category in ('slots', 'jackpot')`;
    expect(share.supported / share.slots).toBeGreaterThan(0.5);
    expect(share.supported / share.slots).toBeLessThan(0.85);
    expect(share).toMatchObject({ wrong_currencies: 0, modes: 2 });
    const [readme] = await sql`
      select f.payout_mode from public.game_free_rounds f join public.game g on g.id = f.game_id where g.code = 'vs20olympgate'`;
    expect(readme).toEqual({ payout_mode: 'lump_sum' });
  });

  test('three demo accounts with their roles and password, and no NULL in the token columns Supabase Auth reads', async () => {
    const accounts = await sql`
      select u.email, array_agg(r.role::text order by r.role) as roles,
             u.confirmation_token, u.recovery_token, u.email_change_token_new, u.email_change,
             u.encrypted_password = extensions.crypt('demo-password', u.encrypted_password) as password_ok
      from auth.users u join public.user_role r on r.user_id = u.id
      group by u.id order by u.email`;
    const blank = { confirmation_token: '', recovery_token: '', email_change_token_new: '', email_change: '', password_ok: true };
    expect(accounts).toEqual([
      { email: 'admin@demo.test', roles: ['admin', 'client'], ...blank },
      { email: 'client@demo.test', roles: ['client'], ...blank },
      { email: 'manager@demo.test', roles: ['manager', 'client'], ...blank },
    ]);
  });

  test('every demo wallet\'s balance is the sum of its transactions', async () => {
    const wallets = await sql`
      select w.currency_code, w.balance, coalesce(sum(t.amount), 0)::numeric(20,4) as moved
      from public.wallet w
      left join public.transaction t on t.client_id = w.client_id and t.currency_code = w.currency_code
      group by w.id order by w.currency_code`;
    expect(wallets.length).toBeGreaterThan(0);
    for (const w of wallets) expect(w.moved, w.currency_code).toBe(w.balance);
  });
});
