// The RLS benchmark's data set: 10,000 clients and 1,000,000 transactions, with wallets, API keys,
// tickets and messages in proportion, and two staff accounts.
//
// Loaded as the owner in bulk: foreign-key triggers are skipped (session_replication_role =
// replica; every reference is built from rows inserted just before), and the transaction table's
// secondary indexes are dropped for the load and rebuilt from their own definitions afterwards.
// Row checks (amount signs, formats) still run. With every check and index in place, loading
// would take much of the benchmark's time instead of the reads it is there to time.
import os from 'node:os';
import postgres, { type Sql } from 'postgres';

export const scale = {
  clients: 10_000,
  transactions: 1_000_000,
  tickets: 20_000,
  messagesPerTicket: 5,
};

export interface DataSet {
  clients: string[];
  staff: string;
  rows: Record<string, number>;
}

export async function loadData(url: string, log: (line: string) => void): Promise<DataSet> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  const step = async <T>(what: string, fn: () => Promise<T>): Promise<T> => {
    const started = Date.now();
    const result = await fn();
    log(`  ${what}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return result;
  };
  try {
    await sql`set maintenance_work_mem = '1GB'`;
    await step('accounts (through the sign-up trigger)', () => createAccounts(sql));
    await sql`set session_replication_role = replica`;
    await step('wallets, api keys, tickets, messages', () => createWalletsKeysAndTickets(sql));
    const indexes = await dropSecondaryIndexes(sql, 'transaction');
    await step('transactions', () => createTransactions(url));
    await step(`${indexes.length} transaction indexes rebuilt`, async () => {
      for (const definition of indexes) await sql.unsafe(definition);
    });
    await sql`set session_replication_role = origin`;
    await step('vacuum analyze', () => sql`vacuum analyze`);
    return await readDataSet(sql);
  } finally {
    await sql.end();
  }
}

/** Through auth.users, so the sign-up trigger creates each profile and `client` role. */
async function createAccounts(sql: Sql): Promise<void> {
  await sql`
    insert into auth.users (id, aud, role, email, raw_user_meta_data, raw_app_meta_data, created_at, updated_at)
    select gen_random_uuid(), 'authenticated', 'authenticated', name || '@bench.test', '{}', '{"provider":"email"}',
           now(), now()
    from (select 'client' || g as name from generate_series(1, ${scale.clients}) g
          union all values ('mona'), ('adam')) accounts`;
  await sql`
    insert into public.user_role (user_id, role)
    select u.id, r.role::public.app_role
    from auth.users u join (values ('mona@bench.test', 'manager'), ('adam@bench.test', 'admin')) r (email, role)
      on u.email = r.email`;
}

async function createWalletsKeysAndTickets(sql: Sql): Promise<void> {
  // 2 or 3 wallets per client in neighbouring currencies, the first one primary.
  await sql`
    with c as (select id, row_number() over (order by id) as n from auth.users where email like 'client%'),
         cur as (select code, row_number() over (order by sort_order) as n, count(*) over () as total
                 from public.currency)
    insert into public.wallet (client_id, currency_code, balance, is_primary)
    select c.id, cur.code, round((random() * 10000)::numeric, 4), k = 0
    from c cross join generate_series(0, 1 + (c.n % 2)::int) k
    join cur on cur.n = 1 + (c.n + k) % cur.total`;
  // 1 or 2 keys per client.
  await sql`
    insert into public.api_key (client_id, label, key_prefix, key_hash)
    select u.id, 'Key ' || k, 'cgs_live_' || substr(md5(u.id::text || k), 1, 7),
           encode(sha256(convert_to(u.id::text || k, 'UTF8')), 'hex')
    from auth.users u cross join generate_series(1, 1 + (hashtext(u.id::text) & 1)) k
    where u.email like 'client%'`;
  await sql`
    with c as (select id, row_number() over (order by id) - 1 as n from auth.users where email like 'client%')
    insert into public.support_ticket (client_id, subject, created_at)
    select c.id, 'Ticket ' || g, now() - random() * interval '365 days'
    from generate_series(0, ${scale.tickets - 1}) g join c on c.n = g % ${scale.clients}`;
  // Clients and staff take turns on each ticket.
  await sql`
    with staff as (select id from auth.users where email = 'mona@bench.test')
    insert into public.support_ticket_message (ticket_id, author_id, body, created_at)
    select t.id, case when k % 2 = 0 then t.client_id else staff.id end, 'Message ' || k,
           t.created_at + k * interval '1 hour'
    from public.support_ticket t cross join staff cross join generate_series(0, ${scale.messagesPerTicket - 1}) k`;
}

/**
 * Each wallet gets the same share; amounts follow the ledger's sign convention. Generating rows
 * is CPU-bound, so the load is split over one connection per core.
 */
async function createTransactions(url: string): Promise<void> {
  const parts = Math.max(1, Math.min(os.availableParallelism(), 4));
  const size = Math.ceil(scale.transactions / parts);
  await Promise.all(Array.from({ length: parts }, async (_, part) => {
    const sql = postgres(url, { max: 1, onnotice: () => {} });
    try {
      await sql`set session_replication_role = replica`;
      await sql`
        with w as (select client_id, currency_code, row_number() over (order by id) - 1 as n from public.wallet),
             staff as (select id from auth.users where email = 'mona@bench.test'),
             g as (select g, (array['deposit', 'withdraw', 'bet', 'win', 'fee', 'adjustment'])[1 + g % 6] as type
                   from generate_series(${part * size}::int, ${Math.min(scale.transactions, (part + 1) * size) - 1}::int) g)
        insert into public.transaction (client_id, type, currency_code, amount, created_by, created_at)
        select w.client_id, g.type, w.currency_code,
               round((random() * 500 + 1)::numeric, 4) * case when g.type in ('withdraw', 'bet', 'fee') then -1 else 1 end,
               staff.id, now() - random() * interval '365 days'
        from g join w on w.n = g.g % (select count(*) from public.wallet) cross join staff`;
    } finally {
      await sql.end();
    }
  }));
}

/** Drops the indexes that back no constraint and returns their definitions to rebuild them. */
async function dropSecondaryIndexes(sql: Sql, table: string): Promise<string[]> {
  const indexes = await sql<{ name: string; definition: string }[]>`
    select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as definition
    from pg_index i
    where i.indrelid = ${`public.${table}`}::regclass
      and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)`;
  for (const { name } of indexes) await sql.unsafe(`drop index ${name}`);
  return indexes.map((i) => i.definition);
}

export async function readDataSet(sql: Sql): Promise<DataSet> {
  const clients = await sql<{ id: string }[]>`
    select u.id from auth.users u where u.email like 'client%' order by u.id`;
  const [{ id: staff }] = await sql<{ id: string }[]>`select id from auth.users where email = 'mona@bench.test'`;
  const counts = await sql<{ name: string; n: number }[]>`
    select relname as name, n_live_tup::int as n from pg_stat_user_tables
    where schemaname = 'public' and relname in
      ('profile', 'wallet', 'api_key', 'transaction', 'support_ticket', 'support_ticket_message')`;
  return { clients: clients.map((c) => c.id), staff, rows: Object.fromEntries(counts.map((c) => [c.name, c.n])) };
}
