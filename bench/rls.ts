// RLS overhead (issue 5): each read under RLS, as PostgREST runs it, against the same read by the
// owner with RLS bypassed and the filter written by hand; plus whether the plan evaluates the
// policy helpers once per query.
import postgres from 'postgres';
import { interleavedMedians, type Rounds } from './lib/measure.ts';
import { planOf, timedRequest, type Caller } from './lib/request.ts';
import type { Section } from './lib/section.ts';
import { loadData, scale, type DataSet } from './rls/data.ts';
import { checkPlan } from './rls/plans.ts';
import { paramsFor, queryCases, type QueryCase } from './rls/queries.ts';

const TARGET = 1.2;
// Fast reads get many rounds (their medians differ by tens of microseconds); slow ones at least 30.
const targeted: Rounds = { warmup: 10, min: 30, max: 400, budgetMs: 4000 };
// The forgotten-filter rows take up to a second each; their ratio is in the thousands.
const informational: Rounds = { warmup: 2, min: 10, max: 10, budgetMs: 0 };
// Client reads rotate over this many clients, so no single client's pages stay unusually warm.
const CLIENTS = 10;

export const rlsOverhead: Section = {
  name: 'RLS overhead',
  async run(cluster, log) {
    const url = await cluster.database('bench_rls');
    log(`RLS overhead: loading ${scale.clients} clients and ${scale.transactions} transactions`);
    const started = Date.now();
    const data = await loadData(url, log);
    const loadSeconds = (Date.now() - started) / 1000;
    log(`  loaded in ${loadSeconds.toFixed(1)} s`);
    const { rows, targetsMet } = await measureQueries(url, data, log);
    const counts = Object.entries(data.rows).map(([table, n]) => `${table} ${n.toLocaleString('en')}`).join(', ');
    return {
      title: 'RLS overhead',
      intro: [
        `Data: ${counts} rows (plus 2 staff accounts); generated in ${loadSeconds.toFixed(1)} s.`,
        `Medians over the rounds shown (${targeted.min} to ${targeted.max}, as many as fit in ` +
          `${targeted.budgetMs / 1000} s, after ${targeted.warmup} warm-up rounds), RLS and bypassed alternating ` +
          `within each round; ` +
          `client reads rotate over ${CLIENTS} clients. Time is the statement's round trip inside the request's ` +
          `transaction, prepared. "RLS": role authenticated/anon with request.jwt.claims, as PostgREST runs it. ` +
          `"Bypassed": the database owner, same transaction shape, the filter written by hand. ` +
          `Target: ratio <= ${TARGET}. Plan: EXPLAIN VERBOSE under RLS, custom and generic plan; the policy ` +
          `helpers must appear only in InitPlans.`,
      ],
      table: { columns: ['query', 'RLS ms', 'bypassed ms', 'added ms', 'runs', 'ratio', 'target', 'plan under RLS'], rows },
      notes: [
        'Informational rows: a client read without its own filter, under RLS, against the filtered read by hand. ' +
          'Clients and staff share the role `authenticated`, so they share one plan; the plan that suits staff ' +
          '(walk the created_at index) makes a client filter the whole table. The back office always sends ' +
          'the client filter.',
      ],
      targetsMet,
    };
  },
};

/** Times every query case under RLS and bypassed on a loaded database; one table row each. */
export async function measureQueries(
  url: string,
  data: DataSet,
  log: (line: string) => void,
  only: (query: QueryCase) => boolean = () => true,
) {
  // One connection per side: a prepared plan is re-planned whenever the role that runs it
  // changes, so sharing one would make both sides pay planning on every request.
  const underRls = postgres(url, { max: 1, onnotice: () => {} });
  const byOwner = postgres(url, { max: 1, onnotice: () => {} });
  const rows: string[][] = [];
  let targetsMet = true;
  try {
    for (const query of queryCases.filter(only)) {
      log(`  ${query.name}`);
      const callers = callersFor(query, data);
      const verdicts = [paramsFor(query.underRls, callers[0].id), 'generic' as const].map(async (params) =>
        checkPlan(await planOf(underRls, callers[0], query.underRls, params)));
      const [custom, generic] = await Promise.all(verdicts);
      const { medians: [rls, bypassed], runs } = await interleavedMedians(query.informational ? informational : targeted, [
        (round) => {
          const caller = callers[round % callers.length];
          return timedRequest(underRls, caller, query.underRls, paramsFor(query.underRls, caller.id));
        },
        (round) => {
          const caller = { role: 'owner' as const, id: callers[round % callers.length].id };
          return timedRequest(byOwner, caller, query.byHand, paramsFor(query.byHand, caller.id));
        },
      ]);
      // Judged as printed (two decimals), so a row never reads "1.20 MISSED".
      const ratio = rls / bypassed;
      const met = Math.round(ratio * 100) / 100 <= TARGET;
      if (!query.informational && !(met && custom.ok && generic.ok)) targetsMet = false;
      rows.push([
        query.name,
        ms(rls),
        ms(bypassed),
        ms(rls - bypassed),
        String(runs),
        ratio >= 10 ? `${Math.round(ratio).toLocaleString('en')}x` : ratio.toFixed(2),
        query.informational ? 'informational' : met ? 'met' : 'MISSED',
        custom.summary === generic.summary ? custom.summary : `custom: ${custom.summary}; generic: ${generic.summary}`,
      ]);
    }
  } finally {
    await Promise.all([underRls.end(), byOwner.end()]);
  }
  return { rows, targetsMet };
}

/** The callers a query rotates over: some clients spread across the id range, mona, or anon. */
function callersFor(query: QueryCase, data: DataSet): Caller[] {
  if (query.who === 'anon') return [{ role: 'anon' }];
  if (query.who === 'staff') return [{ role: 'authenticated', id: data.staff }];
  const step = Math.floor(data.clients.length / CLIENTS);
  return Array.from({ length: CLIENTS }, (_, i) => ({ role: 'authenticated', id: data.clients[i * step] }));
}

function ms(value: number): string {
  const size = Math.abs(value);
  return size >= 100 ? value.toFixed(0) : size >= 1 ? value.toFixed(2) : value.toFixed(3);
}
