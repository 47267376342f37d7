// The reads the back office and the public site make, each written twice: as the API sends it
// under RLS, and as the owner would write it by hand with RLS bypassed. `$1` is the caller's id.
//
// The back office's typed client sends a client's own filter with every client read (Supabase's
// guidance: the filter is the index path, the policy the guard), so the targeted client rows carry
// it on both sides. One plan serves clients and staff alike (both are `authenticated`), and a plan
// cannot pick the client's index for one caller and the whole table's for another; the rows marked
// `informational` show what forgetting the filter costs.

import type { PostgrestGet } from '../lib/request.ts';

export type Who = 'client' | 'staff' | 'anon';

export interface QueryCase {
  name: string;
  who: Who;
  underRls: string;
  byHand: string;
  /** Not held to the target: shows a cost, does not promise one. */
  informational?: boolean;
}

const latest50 = 'select * from public.transaction where client_id = $1 order by created_at desc limit 50';
const count = 'select count(*) from public.transaction where client_id = $1';
const messages = `
  select m.* from public.support_ticket_message m
  where m.ticket_id in (select t.id from public.support_ticket t where t.client_id = $1)
  order by m.ticket_id, m.created_at`;

const same = (name: string, who: Who, statement: string): QueryCase => ({ name, who, underRls: statement, byHand: statement });

export const queryCases: QueryCase[] = [
  same('client: latest 50 own transactions', 'client', latest50),
  same('client: count own transactions', 'client', count),
  same('client: own wallets', 'client', 'select * from public.wallet where client_id = $1'),
  same('client: messages of own tickets', 'client', messages),
  same('staff: latest 50 transactions of all', 'staff', 'select * from public.transaction order by created_at desc limit 50'),
  same('staff: count all transactions', 'staff', 'select count(*) from public.transaction'),
  same('anon: currency list', 'anon', 'select * from public.currency order by sort_order'),
  same('anon: provider list', 'anon', 'select * from public.game_provider order by sort_order'),
  {
    name: 'client, own filter forgotten: latest 50',
    who: 'client',
    underRls: 'select * from public.transaction order by created_at desc limit 50',
    byHand: latest50,
    informational: true,
  },
  {
    name: 'client, own filter forgotten: count',
    who: 'client',
    underRls: 'select count(*) from public.transaction',
    byHand: count,
    informational: true,
  },
  {
    name: 'client, own filter forgotten: messages',
    who: 'client',
    underRls: 'select * from public.support_ticket_message m order by m.ticket_id, m.created_at',
    byHand: messages,
    informational: true,
  },
];

/**
 * What PostgREST would be asked for `statement`: the path of the table it reads, and whether it is
 * a count (sent as is; a read is wrapped into PostgREST's JSON body).
 */
export function postgrestGetOf(statement: string): PostgrestGet {
  const table = /from public\.(\w+)/.exec(statement)?.[1];
  if (!table) throw new Error(`no table in ${statement}`);
  return { path: `/${table}`, count: /^\s*select count\(\*\)/i.test(statement) };
}

/** The parameters a statement takes: the caller's id where it says `$1`. */
export function paramsFor(statement: string, id: string | undefined): string[] {
  return statement.includes('$1') && id ? [id] : [];
}
