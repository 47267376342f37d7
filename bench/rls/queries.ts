// The reads the back office and the public site make, each written twice: as the API sends it
// under RLS, and as the owner would write it by hand with RLS bypassed. `$1` is the caller's id.
//
// A client's read is sent without its own filter, the most natural query a front-end developer
// writes: RLS alone keeps it to the caller's rows, and it must cost about what the filtered read
// costs with RLS bypassed. A staff read must cost about what it costs with RLS bypassed.

import type { PostgrestGet } from '../lib/request.ts';

export type Who = 'client' | 'staff' | 'anon';

export interface QueryCase {
  name: string;
  who: Who;
  underRls: string;
  byHand: string;
  /** The most the request under RLS may cost, as a multiple of the bypassed one. */
  target: number;
}

export const TARGETS: Record<Who, number> = { client: 1.2, staff: 1.05, anon: 1.2 };

const latest50 = 'select * from public.transaction where client_id = $1 order by created_at desc limit 50';
const count = 'select count(*) from public.transaction where client_id = $1';
const messages = `
  select m.* from public.support_ticket_message m
  where m.ticket_id in (select t.id from public.support_ticket t where t.client_id = $1)
  order by m.ticket_id, m.created_at`;

const same = (name: string, who: Who, statement: string): QueryCase =>
  ({ name, who, underRls: statement, byHand: statement, target: TARGETS[who] });
const unfiltered = (name: string, underRls: string, byHand: string): QueryCase =>
  ({ name, who: 'client', underRls, byHand, target: TARGETS.client });

export const queryCases: QueryCase[] = [
  unfiltered('client, no filter: latest 50 own transactions',
    'select * from public.transaction order by created_at desc limit 50', latest50),
  unfiltered('client, no filter: count own transactions', 'select count(*) from public.transaction', count),
  unfiltered('client, no filter: own wallets', 'select * from public.wallet', 'select * from public.wallet where client_id = $1'),
  unfiltered('client, no filter: messages of own tickets',
    'select m.* from public.support_ticket_message m order by m.ticket_id, m.created_at', messages),
  same('staff: latest 50 transactions of all', 'staff', 'select * from public.transaction order by created_at desc limit 50'),
  same('staff: count all transactions', 'staff', 'select count(*) from public.transaction'),
  same('anon: currency list', 'anon', 'select * from public.currency order by sort_order'),
  same('anon: provider list', 'anon', 'select * from public.game_provider order by sort_order'),
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
