// npm run key -- issue --client <email or id> [--label <text>] [--test]   prints a new API key, once
// npm run key -- issue --provider <slug> [--label <text>]                  prints a new provider key, once
// npm run key -- revoke-provider <id or prefix>                            the provider key stops working
// npm run key -- revoke <id, key prefix or the key itself>          the key stops working at once
// npm run key -- list [--client <email or id>]
// Works on DATABASE_URL or the embedded default, as the database owner (the service's operators).
import { parseArgs } from 'node:util';
import postgres, { type Sql } from 'postgres';
import { sha256Hex } from '../supabase/functions/v3/sha256.ts';
import { openTarget } from './lib/target.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const USAGE = 'usage: npm run key -- issue --client <email or id> [--label <text>] [--test] | issue --provider <slug> [--label <text>]'
  + ' | revoke <id or prefix> | revoke-provider <id or prefix> | list [--client ...]';

class UsageError extends Error {}

async function clientId(sql: Sql, client: string | undefined): Promise<string> {
  if (!client) throw new UsageError(USAGE);
  const [account] = await sql<{ id: string }[]>`
    select id from auth.users where ${UUID.test(client) ? sql`id = ${client}::uuid` : sql`lower(email) = lower(${client})`}`;
  if (!account) throw new UsageError(`no account ${client}`);
  return account.id;
}

async function keyId(sql: Sql, reference: string | undefined): Promise<string> {
  if (!reference) throw new UsageError(USAGE);
  if (UUID.test(reference)) return reference;
  const hash = sha256Hex(reference);
  const keys = await sql<{ id: string; key_prefix: string; label: string }[]>`
    select id, key_prefix, label from public.api_key where key_prefix = ${reference} or key_hash = ${hash}`;
  if (keys.length === 1) return keys[0].id;
  if (!keys.length) throw new UsageError(`no api key with id or prefix ${reference}`);
  throw new UsageError(`${keys.length} keys have prefix ${reference}; revoke by id:\n`
    + keys.map((k) => `  ${k.id}  ${k.label}`).join('\n'));
}

async function providerKeyId(sql: Sql, reference: string | undefined): Promise<string> {
  if (!reference) throw new UsageError(USAGE);
  if (UUID.test(reference)) return reference;
  const keys = await sql<{ id: string }[]>`
    select id from public.provider_key where key_prefix = ${reference} or key_hash = ${sha256Hex(reference)}`;
  if (keys.length === 1) return keys[0].id;
  throw new UsageError(keys.length ? `${keys.length} provider keys have prefix ${reference}; revoke by id` : `no provider key ${reference}`);
}

async function run(sql: Sql, argv: string[]): Promise<void> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { client: { type: 'string' }, provider: { type: 'string' }, label: { type: 'string' }, test: { type: 'boolean' } },
  });
  const [command, reference] = positionals;
  if (command === 'issue' && values.provider !== undefined) {
    const [issued] = await sql<{ id: string; key: string }[]>`
      select * from public.issue_provider_key(${values.provider}, ${values.label ?? 'Default'})`;
    console.log(`Provider key for ${values.provider} (id ${issued.id}). It is shown only this once; store it now:\n`);
    console.log(`  ${issued.key}\n`);
  } else if (command === 'revoke-provider') {
    const [revoked] = await sql`select * from public.revoke_provider_key(${await providerKeyId(sql, reference)})`;
    console.log(`revoked ${revoked.key_prefix}… at ${revoked.revoked_at.toISOString()}`);
  } else if (command === 'issue') {
    const id = await clientId(sql, values.client);
    const [issued] = await sql<{ id: string; key: string; key_prefix: string }[]>`
      select * from public.issue_api_key(${id}, ${values.label ?? 'Default'}, ${!values.test})`;
    const mode = values.test ? 'Test' : 'Live';
    console.log(`${mode} API key for ${values.client} (id ${issued.id}). It is shown only this once; store it now:\n`);
    console.log(`  ${issued.key}\n`);
  } else if (command === 'revoke') {
    const [revoked] = await sql`select * from public.revoke_api_key(${await keyId(sql, reference)})`;
    console.log(`revoked ${revoked.key_prefix}… at ${revoked.revoked_at.toISOString()}`);
  } else if (command === 'list') {
    const client = values.client ? await clientId(sql, values.client) : null;
    console.table(await sql`
      select k.id, u.email as client, k.label, k.key_prefix, case when k.livemode then 'live' else 'test' end as mode,
             k.status, k.last_used_at, k.created_at
      from public.api_key k join auth.users u on u.id = k.client_id
      where ${client}::uuid is null or k.client_id = ${client}
      order by k.created_at`);
  } else {
    throw new UsageError(USAGE);
  }
}

const target = await openTarget();
const sql = postgres(target.url, { max: 1, onnotice: () => {} });
let exitCode = 0;
try {
  await run(sql, process.argv.slice(2));
} catch (error) {
  // The database's own words are fine here: the operator runs this against their own database.
  console.error(error instanceof UsageError ? error.message : `error: ${(error as Error).message}`);
  exitCode = 1;
} finally {
  await sql.end();
  await target.stop();
}
process.exit(exitCode);
