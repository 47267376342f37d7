// Type-level proof that the back-office client is typed from the generated schema: rows, inserts
// and RPC arguments come from src/database.types.ts, and a wrong table or column does not compile.
// Compiled by tests/client/type-tests.test.ts (each @ts-expect-error must stay an error).
import { expectTypeOf } from 'vitest';
import {
  type BackOfficeClient,
  clientApiKeys,
  clientTickets,
  clientWallets,
  createBackOfficeClient,
  currencies,
  type Database,
  gameProviders,
  issueApiKey,
  latestTransactions,
  openTicket,
  postMessage,
  recordTransaction,
  revokeApiKey,
  sendContactMessage,
  type Tables,
  ticketMessages,
} from '../../src/back-office/index.ts';

declare const db: BackOfficeClient;
declare const id: string;
type Data<T> = Awaited<T> extends { data: infer D } ? D : never;

// The factory returns the typed client.
expectTypeOf(createBackOfficeClient('http://localhost', 'anon')).toEqualTypeOf<BackOfficeClient>();

// Rows are the generated Row types.
expectTypeOf<Data<ReturnType<typeof clientWallets>>>().toEqualTypeOf<Tables<'wallet'>[] | null>();
expectTypeOf<Data<ReturnType<typeof latestTransactions>>>().toEqualTypeOf<Tables<'transaction'>[] | null>();
expectTypeOf<Data<ReturnType<typeof clientTickets>>>().toEqualTypeOf<Tables<'support_ticket'>[] | null>();
expectTypeOf<Data<ReturnType<typeof ticketMessages>>>().toEqualTypeOf<Tables<'support_ticket_message'>[] | null>();
expectTypeOf<Data<ReturnType<typeof currencies>>>().toEqualTypeOf<Tables<'currency'>[] | null>();
expectTypeOf<Data<ReturnType<typeof gameProviders>>>().toEqualTypeOf<Tables<'game_provider'>[] | null>();
expectTypeOf<Data<ReturnType<typeof openTicket>>>().toEqualTypeOf<Tables<'support_ticket'> | null>();
expectTypeOf<Data<ReturnType<typeof postMessage>>>().toEqualTypeOf<Tables<'support_ticket_message'> | null>();
// A column list narrows the row to those columns, typed from the schema; the key hash stays out.
expectTypeOf<NonNullable<Data<ReturnType<typeof clientApiKeys>>>[number]>().toEqualTypeOf<
  Omit<Tables<'api_key'>, 'client_id' | 'key_hash'>
>();
expectTypeOf<Data<ReturnType<typeof sendContactMessage>>>().toEqualTypeOf<null>();

// RPC arguments and results are the generated function signatures.
expectTypeOf(issueApiKey).parameter(1).toEqualTypeOf<Database['public']['Functions']['issue_api_key']['Args']>();
expectTypeOf<Data<ReturnType<typeof issueApiKey>>>().toEqualTypeOf<
  Database['public']['Functions']['issue_api_key']['Returns'][number] | null
>();
expectTypeOf(recordTransaction).parameter(1).toEqualTypeOf<
  Database['public']['Functions']['record_transaction']['Args']
>();
expectTypeOf<Data<ReturnType<typeof recordTransaction>>>().toEqualTypeOf<Tables<'transaction'> | null>();
expectTypeOf(revokeApiKey).parameter(1).toEqualTypeOf<string>();

// Inserts take the generated Insert types, cut to what the caller may set.
openTicket(db, { client_id: id, subject: 'Payout delayed', priority: 'high' });
// @ts-expect-error a client cannot choose a ticket's status (not part of NewTicket)
openTicket(db, { client_id: id, subject: 'Payout delayed', status: 'closed' });
// @ts-expect-error subject is required by the table
openTicket(db, { client_id: id });
sendContactMessage(db, { name: 'Ann', email: 'ann@example.test', message: 'Hello' });
// @ts-expect-error the contact form cannot set status (no column grant, not in ContactMessage)
sendContactMessage(db, { name: 'Ann', email: 'ann@example.test', message: 'Hello', status: 'handled' });
// @ts-expect-error client_id is a uuid string, not a number
issueApiKey(db, { client_id: 42, label: 'Production' });
// @ts-expect-error amount is numeric: a string does not compile
recordTransaction(db, { client_id: id, currency_code: 'EUR', type: 'deposit', amount: '10' });
// @ts-expect-error no such function
db.rpc('issue_api_keys', { client_id: id });

// The underlying client is typed too: tables and columns are checked.
// @ts-expect-error no such table
db.from('wallets');
// @ts-expect-error no such column in an insert
db.from('support_ticket').insert({ client_id: id, subject: 'x', severity: 'high' });
// @ts-expect-error a filter value has the column's type
db.from('wallet').select('*').eq('is_primary', 'yes');
const { data: misspelt } = await db.from('wallet').select('balanse');
// @ts-expect-error a misspelt column in select() yields an error type, not a row with that field
misspelt?.[0].balanse.toFixed();
