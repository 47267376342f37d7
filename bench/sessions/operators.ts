// The benchmark's operators: a few client accounts, signed up through auth.users as Supabase Auth
// does (the sign-up trigger makes them clients), each with API keys issued as `npm run key` does.
import type { Sql } from 'postgres';

export async function issueOperatorKeys(sql: Sql, clients: number, keysPerClient: number, name = 'operator'): Promise<string[]> {
  const accounts = await sql<{ id: string }[]>`
    insert into auth.users (id, aud, role, email, raw_user_meta_data, raw_app_meta_data, created_at, updated_at)
    select gen_random_uuid(), 'authenticated', 'authenticated', ${name} || g || '@bench.test', '{}',
           '{"provider":"email"}', now(), now()
    from generate_series(1, ${clients}) g
    returning id`;
  const keys: string[] = [];
  // Taken in turn by the load, so consecutive requests come from different clients.
  for (let k = 0; k < keysPerClient; k++) {
    for (const { id } of accounts) {
      const [issued] = await sql<{ key: string }[]>`select key from public.issue_api_key(${id}, ${`Bench ${k + 1}`})`;
      keys.push(issued.key);
    }
  }
  return keys;
}
