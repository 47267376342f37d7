// RLS overhead: each read under RLS, as PostgREST runs it (a client's without its own filter),
// against the same read as service_role with RLS bypassed and the filter written by hand, timed as
// a statement and as the whole request; plus whether the plan evaluates the policy helpers once.
import os from 'node:os';
import postgres from 'postgres';
import { interleavedMedians, median, type Rounds } from './lib/measure.ts';
import { type Caller, planOf, timedPostgrestRequest, timedStatement } from './lib/request.ts';
import type { Section } from './lib/section.ts';
import { loadData, scale, type DataSet } from './rls/data.ts';
import { checkPlan } from './rls/plans.ts';
import { paramsFor, postgrestGetOf, queryCases, type QueryCase, TARGETS } from './rls/queries.ts';

// Fast reads get many rounds, since their two sides differ by little; slow ones at least 30.
const targeted: Rounds = { warmup: 10, min: 30, max: 400, budgetMs: 4000 };
// Client reads rotate over this many clients, so no single client's pages stay unusually warm.
const CLIENTS = 10;

export const rlsOverhead: Section = {
  name: 'rls',
  async run(cluster, log) {
    const url = await cluster.database('bench_rls');
    log(`RLS overhead: loading ${scale.clients} clients and ${scale.transactions} transactions`);
    const started = Date.now();
    const data = await loadData(url, log);
    const loadSeconds = (Date.now() - started) / 1000;
    log(`  loaded in ${loadSeconds.toFixed(1)} s`);
    const { rows, misses, targetsMet } = await measureQueries(url, data, log);
    const counts = Object.entries(data.rows).map(([table, n]) => `${table} ${n.toLocaleString('en')}`).join(', ');
    return {
      title: 'RLS overhead',
      intro: [
        `Data: ${counts} rows (plus 2 staff accounts); generated in ${loadSeconds.toFixed(1)} s.`,
        `Medians over the rounds shown (${targeted.min} to ${targeted.max}, as many as fit in ` +
          `${targeted.budgetMs / 1000} s, after ${targeted.warmup} warm-up rounds), the four variants alternating ` +
          `within each round, on one connection (one Postgres backend for both sides; each side keeps its own ` +
          `prepared plan); client reads rotate over ${CLIENTS} clients. ` +
          `"RLS": role authenticated (clients), staff (staff, as the access token hook names them) or anon, with ` +
          `request.jwt.claims and the pre-request function, as PostgREST runs it. "Bypassed": role ` +
          `service_role (Supabase's BYPASSRLS role: a request with the service key), the filter written by hand.`,
        `"Request": the whole request as PostgREST runs it, from \`begin read only\` to the end of \`commit\`: ` +
          `set_config of role, request.jwt.claims, request.method and request.path, then the statement wrapped into ` +
          `PostgREST's JSON body (\`with pgrst_source as (...) select ... json_agg(_postgrest_t) ...\`; counts as they ` +
          `are), prepared. "Statement": the bare statement's round trip inside such a transaction. ` +
          `Targets: request ratio <= ${TARGETS.client} for clients and anon, <= ${TARGETS.staff} for staff (the ` +
          `median time under RLS as PostgREST runs it). Plan: EXPLAIN VERBOSE ` +
          `under RLS, custom and generic plan; the policy helpers must appear only in InitPlans.`,
      ],
      table: {
        columns: ['query', 'statement RLS ms', 'statement bypassed ms', 'statement ratio', 'request RLS ms',
          'request bypassed ms', 'request added ms', 'request ratio', 'runs', 'target', 'plan under RLS'],
        rows,
      },
      notes: [
        'The statement ratio is shown so nobody is misled either way: on a short read, the fixed cost of the ' +
          'policy InitPlan (private.uid()) and claim parsing is a large share of the statement, while the request ' +
          'a caller waits for carries the same microseconds at a smaller ratio. The target is judged on the ' +
          'request ratio; the added milliseconds are the same fixed cost in both.',
        ...misses.map((miss) => `Missed: ${miss}`),
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
  // Both sides on one connection, so they run in the same Postgres backend. With a connection each,
  // the side whose backend the scheduler kept nearer its caller won, by more than the policy costs
  // and differently from one run to the next.
  // Each side still keeps its own prepared plan (a plan is made again whenever the role running it
  // changes): the bypassed side's statements begin with a comment, so their text differs.
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  const rows: string[][] = [];
  const misses: string[] = [];
  try {
    for (const original of queryCases.filter(only)) {
      const query = { ...original, byHand: `/* bypassed */ ${original.byHand}` };
      log(`  ${query.name}`);
      const callers = callersFor(query, data);
      const service = (round: number): Caller => ({ role: 'service_role', id: callers[round % callers.length].id });
      const [custom, generic, bypassPlan] = await Promise.all([
        planOf(sql, callers[0], query.underRls, paramsFor(query.underRls, callers[0].id)),
        planOf(sql, callers[0], query.underRls, 'generic'),
        planOf(sql, service(0), query.byHand, paramsFor(query.byHand, callers[0].id)),
      ]);
      const [customPlan, genericPlan] = [checkPlan(custom), checkPlan(generic)];
      const get = postgrestGetOf(query.underRls);
      const { medians: [rlsStatement, bypassedStatement, rlsRequest, bypassedRequest], runs } = await interleavedMedians(
        targeted,
        [
          (round) => {
            const caller = callers[round % callers.length];
            return timedStatement(sql, caller, query.underRls, paramsFor(query.underRls, caller.id));
          },
          (round) => timedStatement(sql, service(round), query.byHand, paramsFor(query.byHand, service(round).id)),
          (round) => {
            const caller = callers[round % callers.length];
            return timedPostgrestRequest(sql, caller, query.underRls, paramsFor(query.underRls, caller.id), get);
          },
          (round) => timedPostgrestRequest(sql, service(round), query.byHand, paramsFor(query.byHand, service(round).id), get),
        ],
      );
      const met = rlsRequest / bypassedRequest <= query.target;
      if (!(met && customPlan.ok && genericPlan.ok)) {
        const t = { rlsRequest, bypassedRequest, rlsStatement, bypassedStatement };
        // A parallel plan on the bypassed side only: also time that side on one core, to tell the
        // policy's own cost from the parallelism it rules out.
        const serial = workers(bypassPlan) > workers(custom)
          ? await oneCore(
            () => timedStatement(sql, callers[0], query.underRls, paramsFor(query.underRls, callers[0].id)),
            () => timedStatement(sql, service(0), query.byHand, paramsFor(query.byHand, service(0).id), ONE_CORE),
          )
          : undefined;
        misses.push(missExplained(query.name, t, custom, bypassPlan, customPlan.summary, data.rows, serial));
      }
      rows.push([
        query.name,
        ms(rlsStatement),
        ms(bypassedStatement),
        times(rlsStatement / bypassedStatement),
        ms(rlsRequest),
        ms(bypassedRequest),
        ms(rlsRequest - bypassedRequest),
        times(rlsRequest / bypassedRequest),
        String(runs),
        `${met ? 'met' : 'MISSED'} (${query.target})`,
        customPlan.summary === genericPlan.summary
          ? customPlan.summary
          : `custom: ${customPlan.summary}; generic: ${genericPlan.summary}`,
      ]);
    }
  } finally {
    await sql.end();
  }
  return { rows, misses, targetsMet: misses.length === 0 };
}

interface Timings {
  rlsRequest: number;
  bypassedRequest: number;
  rlsStatement: number;
  bypassedStatement: number;
}

/** Why a row missed, from its own figures and plans. */
const ONE_CORE = { max_parallel_workers_per_gather: '0' };
const workers = (plan: unknown) => Number(/"Workers Planned":\s*(\d+)/.exec(JSON.stringify(plan))?.[1] ?? 0);

interface OneCore {
  /** The bypassed statement's median time with parallel workers off. */
  bypassedMs: number;
  /** Median over the rounds of RLS / bypassed, both on one core, timed side by side. */
  ratio: number;
}

/** An explanation's figures, not judged ones: a few rounds, the two sides alternating. */
async function oneCore(underRls: () => Promise<number>, bypassed: () => Promise<number>, rounds = 9): Promise<OneCore> {
  const times: number[] = [];
  const ratios: number[] = [];
  for (let i = 0; i < rounds; i++) {
    // Taking turns at going first.
    const [rls, alone] = i % 2
      ? [await underRls(), await bypassed()]
      : await bypassed().then(async (first) => [await underRls(), first]);
    times.push(alone);
    ratios.push(rls / alone);
  }
  return { bypassedMs: median(times), ratio: median(ratios) };
}

function missExplained(
  name: string, t: Timings, rlsPlan: unknown, bypassPlan: unknown, planSummary: string,
  tableRows: Record<string, number>, serial?: OneCore,
): string {
  const head = `"${name}": ${times(t.rlsRequest / t.bypassedRequest)} at the request level ` +
    `(${ms(t.rlsRequest)} ms against ${ms(t.bypassedRequest)} ms).`;
  if (workers(bypassPlan) > workers(rlsPlan)) {
    const oneCoreNote = serial === undefined ? '' :
      ` With parallel workers off on the bypassed side too (max_parallel_workers_per_gather = 0) the bypassed ` +
      `statement takes ${ms(serial.bypassedMs)} ms, and the one-process scan under RLS costs ${times(serial.ratio)} ` +
      `that (median of 9 rounds, the two side by side); the rest of the gap is the second core.`;
    return `${head} Bypassed, Postgres runs it as a parallel plan (${workers(bypassPlan)} workers); under RLS it ` +
      'cannot: something in the query, a policy included, calls a function not labelled parallel safe, so the ' +
      `whole scan runs in one process on this ${os.availableParallelism()}-core machine.${oneCoreNote}`;
  }
  const filtered = filteredScan(rlsPlan);
  const rows = filtered && tableRows[filtered.relation];
  if (filtered && rows) {
    const perRow = ((t.rlsStatement - t.bypassedStatement) * 1e6) / rows;
    return `${head} Both sides run ${workers(rlsPlan) ? `in parallel (${workers(rlsPlan)} workers)` : 'in one process'}, ` +
      `and the helpers run once (plan column), but the policy is a filter on the scan of ${filtered.relation}: ` +
      `every one of its ${rows.toLocaleString('en')} rows passes through it (${filtered.filter}), about ` +
      `${perRow.toFixed(0)} ns a row at the statement level, on a scan that otherwise does little more than count.`;
  }
  return `${head} A fixed cost per statement of ${((t.rlsStatement - t.bypassedStatement) * 1000).toFixed(0)} µs ` +
    `at the statement level, ${((t.rlsRequest - t.bypassedRequest) * 1000).toFixed(0)} µs at the request level ` +
    `(plan: ${planSummary}: the helpers run once per query, and a policy's hashed SubPlan is built once), ` +
    'not per row; on a read this short it still shows in the ratio.';
}

/**
 * The scan that runs a whole table through a policy: a Filter that reads an InitPlan's value, on a
 * sequential or index-only scan with no index condition to narrow it (a client's read by client_id,
 * by index or bitmap, filters its own rows only).
 */
function filteredScan(plan: unknown): { relation: string; filter: string } | undefined {
  const walk = (node: Record<string, unknown>): { relation: string; filter: string } | undefined => {
    const filter = node.Filter;
    if (typeof node['Relation Name'] === 'string' && typeof filter === 'string' && filter.includes('InitPlan') &&
      (node['Node Type'] === 'Seq Scan' || node['Node Type'] === 'Index Only Scan') && !('Index Cond' in node)) {
      return { relation: node['Relation Name'], filter };
    }
    for (const child of (node.Plans as Record<string, unknown>[] | undefined) ?? []) {
      const found = walk(child);
      if (found) return found;
    }
    return undefined;
  };
  return walk((plan as { Plan: Record<string, unknown> }).Plan);
}

/** The callers a query rotates over: some clients spread across the id range, mona, or anon. */
function callersFor(query: QueryCase, data: DataSet): Caller[] {
  if (query.who === 'anon') return [{ role: 'anon' }];
  if (query.who === 'staff') return [{ role: 'staff', id: data.staff }];
  const step = Math.floor(data.clients.length / CLIENTS);
  return Array.from({ length: CLIENTS }, (_, i) => ({ role: 'authenticated', id: data.clients[i * step] }));
}

/** Ratios are printed rounded up, so a row that reads 1.20 has met the target of 1.2. */
function times(ratio: number): string {
  return ratio >= 10 ? `${Math.round(ratio).toLocaleString('en')}x` : (Math.ceil(ratio * 100) / 100).toFixed(2);
}

function ms(value: number): string {
  const size = Math.abs(value);
  return size >= 100 ? value.toFixed(0) : size >= 1 ? value.toFixed(2) : value.toFixed(3);
}
