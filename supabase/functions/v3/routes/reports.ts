// Reports and reconciliation, the operator's side: GET /v3/reports/ggr (bets, wins, rollbacks,
// voids, GGR, rounds and players by day, provider, game, currency and player), GET
// /v3/reconciliation/transactions (every round transaction of a day or a range, as JSON pages or
// one streamed CSV) and GET /v3/statements/{month} (what the month's play costs), in the key's mode. Each page is one database call that checks the key too;
// the JSON is the database's, sent as it is (supabase/migrations/..._reports.sql, docs/reports.md).
import { Hono } from 'hono';
import { type Caller, type CallerEnv, operatorKey } from '../caller.ts';
import { csvField, csvRecord, UTF8_BOM } from '../csv.ts';
import { jsonTextResponse } from '../http.ts';
import { CURSOR_UUID, encodeCursor, parseListQuery } from '../list-query.ts';
import { type FieldError, Problem } from '../problem.ts';
import type { ApiContext } from '../context.ts';
import { parameterContract, queryContract, schemaContract } from '../contract.ts';
import { type Outcome, ownObject } from '../own-object.ts';
import { type ReferenceProblem, refuseUnknownReferences } from '../reference.ts';
import { resource } from '../resource.ts';

const ggrQuery = queryContract('/v3/reports/ggr');
const reconciliationQuery = queryContract('/v3/reconciliation/transactions');
const isDateTime = schemaContract('DateTime');
const statementMonth = { isId: parameterContract('/v3/statements/{month}', 'get', 'path', 'month'), notFound: 'No statement for this month.' };
const noStore = { 'cache-control': 'no-store' };
const DAY_MS = 86_400_000;
/** A year and a day: a leap year's 366 days, both ends included. */
const MAX_REPORT_DAYS = 366;
const MAX_RECONCILIATION_DAYS = 31;
/** Lines a CSV reads from the database at a time. */
const CSV_BATCH = 1000;

/** The routes of this resource, relative to /v3. */
export function reportRoutes(ctx: ApiContext): Hono<CallerEnv> {
  const app = new Hono<CallerEnv>({ strict: false });
  const key = operatorKey(ctx.sql);
  resource(app, '/reports/ggr', { get: (c) => ggrReport(ctx, c.var.caller, c.req.raw) }, key);
  resource(app, '/reconciliation/transactions', { get: (c) => reconciliation(ctx, c.var.caller, c.req.raw) }, key);
  return resource(app, '/statements/:month', { get: (c) => readStatement(ctx, c.var.caller, c.req.param('month')!) }, key);
}

const invalid = (errors: FieldError[]) => new Problem('invalid_parameters', 'The query has invalid parameters; see `errors`.', { errors });

/** A UTC day the pattern allowed that is also on the calendar (no 30 February), as ms since the epoch. */
function calendarDay(day: string): number | null {
  const ms = Date.parse(`${day}T00:00:00Z`);
  return Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== day ? null : ms;
}

/** GET /v3/reports/ggr. */
export async function ggrReport(ctx: ApiContext, caller: Caller, request: Request): Promise<Response> {
  const { values, errors } = ggrQuery(new URL(request.url));
  const from = values.from === undefined ? null : calendarDay(values.from);
  const to = values.to === undefined ? null : calendarDay(values.to);
  if (values.from !== undefined && from === null) errors.push({ parameter: 'from', code: 'invalid_format', detail: 'from must be a day of the calendar.' });
  if (values.to !== undefined && to === null) errors.push({ parameter: 'to', code: 'invalid_format', detail: 'to must be a day of the calendar.' });
  if (from !== null && to !== null && to < from) errors.push({ parameter: 'to', code: 'invalid_range', detail: 'to must not be before from.' });
  if (from !== null && to !== null && (to - from) / DAY_MS + 1 > MAX_REPORT_DAYS) {
    errors.push({ parameter: 'to', code: 'invalid_range', detail: `A report covers at most ${MAX_REPORT_DAYS} days.` });
  }
  const groupBy = values.group_by?.split(',') ?? [];
  if (new Set(groupBy).size !== groupBy.length) errors.push({ parameter: 'group_by', code: 'invalid_format', detail: 'group_by must not name a field twice.' });
  if (errors.length) throw invalid(errors);
  // The currency filter is held to the one rule (an unknown currency is 422, not an empty report),
  // checked in the same statement (once: on the first row). The report comes in parts, in order (a closed day's part is the
  // text its roll-up wrote), sent as one body.
  const rows = await caller.answer(ctx.sql<{ outcome: 'ok' | 'too_large' | 'unauthorized'; report: string | null; problems: ReferenceProblem[] }[]>`
    select r.outcome, r.report, case when r.part = 1 then private.reference_problems(${values.currency ?? null}) end as problems
    from private.ggr_report(${caller.keyHash}, ${values.from!}::date, ${values.to!}::date, ${groupBy}::text[],
      ${values.currency ?? null}, ${values.provider ?? null}, ${values.game_id ?? null}) with ordinality r(outcome, report, part)
    order by r.part`);
  refuseUnknownReferences(rows[0].problems, 'query');
  if (rows[0].outcome === 'too_large') {
    throw new Problem('report_too_large', 'The report would have more than 10000 cells: narrow the days, group_by or the filters.');
  }
  return jsonTextResponse(200, rows.map((row) => row.report).join(''), noStore);
}

interface LineRow {
  authorized: boolean;
  kind: 'line' | 'totals' | 'end' | null;
  id: string | null;
  position: string | null;
  line: string | null;
}

/** The range a reconciliation covers, [starts, ends), from `date` or `from` and `to`. */
function reconciliationRange(values: { date?: string; from?: string; to?: string }, errors: FieldError[]): [string, string] | null {
  if (values.date !== undefined) {
    if (values.from !== undefined || values.to !== undefined) {
      errors.push({ parameter: 'date', code: 'invalid_range', detail: 'Give date, or from and to, not both.' });
      return null;
    }
    const day = calendarDay(values.date);
    if (day === null) {
      errors.push({ parameter: 'date', code: 'invalid_format', detail: 'date must be a day of the calendar.' });
      return null;
    }
    return [new Date(day).toISOString(), new Date(day + DAY_MS).toISOString()];
  }
  if (values.from === undefined || values.to === undefined) {
    for (const name of ['from', 'to'] as const) {
      if (values[name] === undefined) errors.push({ parameter: name, code: 'required', detail: `Give date, or from and to: ${name} is required.` });
    }
    return null;
  }
  const [from, to] = [Date.parse(values.from), Date.parse(values.to)];
  if (!(to > from)) errors.push({ parameter: 'to', code: 'invalid_range', detail: 'to must be after from.' });
  else if (to - from > MAX_RECONCILIATION_DAYS * DAY_MS) {
    errors.push({ parameter: 'to', code: 'invalid_range', detail: `A range covers at most ${MAX_RECONCILIATION_DAYS} days.` });
  }
  return [values.from, values.to];
}

/** Whether the caller asked for CSV: `Accept` names text/csv (with a quality above 0). */
function wantsCsv(request: Request): boolean {
  return (request.headers.get('accept') ?? '').split(',').some((range) => {
    const [type, ...params] = range.split(';').map((part) => part.trim().toLowerCase());
    const q = params.find((p) => p.startsWith('q='));
    return type === 'text/csv' && (q === undefined || Number(q.slice(2)) > 0);
  });
}

/** GET /v3/reconciliation/transactions. */
export async function reconciliation(ctx: ApiContext, caller: Caller, request: Request): Promise<Response> {
  const url = new URL(request.url);
  const checked: { range: [string, string] | null } = { range: null };
  const query = parseListQuery(url, (u) => {
    const found = reconciliationQuery(u);
    if (!found.errors.length) checked.range = reconciliationRange(found.values, found.errors);
    return found;
  }, 2, ([at, id]) => isDateTime(at) && CURSOR_UUID.test(id));
  const [starts, ends] = checked.range!;
  // Instants go as text: postgres.js would carry them as a Date, to the millisecond, and a cursor
  // must keep the microseconds the rows are ordered by.
  const page = (after: string[] | null, size: number, totals: boolean) =>
    caller.answer(ctx.readSql<LineRow[]>`
      select * from private.reconciliation_page(${caller.keyHash}, ${starts}::text::timestamptz, ${ends}::text::timestamptz,
        ${after?.[0] ?? null}::text::timestamptz, ${after?.[1] ?? null}::uuid, ${size}, ${totals})`);
  if (wantsCsv(request)) return csvResponse(page, query.after, starts);

  const rows = await page(query.after, query.limit + 1, query.after === null);
  const lines = rows.filter((row) => row.kind === 'line');
  const totals = rows.find((row) => row.kind === 'totals')?.line ?? 'null';
  const has_more = lines.length > query.limit;
  const shown = has_more ? lines.slice(0, query.limit) : lines;
  const last = shown[shown.length - 1];
  const next = has_more ? JSON.stringify(encodeCursor([last.position!, last.id!])) : 'null';
  return jsonTextResponse(200, `{"data":[${shown.map((row) => row.line).join(',')}],"next_cursor":${next},"has_more":${has_more},"totals":${totals}}`,
    noStore);
}

const CSV_COLUMNS = [
  'created_at', 'id', 'provider', 'transaction_id', 'type', 'round_id', 'round', 'session_id', 'player_id', 'game_id', 'currency',
  'amount', 'moved', 'related_transaction_id', 'wallet_mode', 'ledger_transaction_id', 'review', 'wallet_call_id', 'wallet_call_status',
] as const;
const NUMBER_COLUMNS = new Set(['amount', 'moved']);

type Line = Record<string, string | null> & { wallet_call: { id: string; status: string } | null };

function csvLine(json: string): string {
  const line = JSON.parse(json) as Line;
  return csvRecord(CSV_COLUMNS.map((column) => {
    const value = column === 'wallet_call_id' ? line.wallet_call?.id : column === 'wallet_call_status' ? line.wallet_call?.status : line[column];
    return csvField(value, NUMBER_COLUMNS.has(column) ? 'number' : 'text');
  }));
}

/**
 * The whole range as one CSV, read a batch at a time and streamed as it is read. The first batch
 * is read before the answer starts, so a key that does not work is a 401, not a broken file; a
 * database lost mid-way breaks the stream (the file is then visibly cut short, never silently).
 */
async function csvResponse(
  page: (after: string[] | null, size: number, totals: boolean) => Promise<LineRow[]>,
  after: string[] | null,
  starts: string,
): Promise<Response> {
  let batch = await page(after, CSV_BATCH, false);
  const encoder = new TextEncoder();
  let first = true;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (first) {
        first = false;
        controller.enqueue(encoder.encode(UTF8_BOM + csvRecord([...CSV_COLUMNS])));
      }
      const lines = batch.filter((row) => row.kind === 'line');
      if (lines.length) controller.enqueue(encoder.encode(lines.map((row) => csvLine(row.line!)).join('')));
      if (lines.length < CSV_BATCH) {
        controller.close();
        return;
      }
      const last = lines[lines.length - 1];
      batch = await page([last.position!, last.id!], CSV_BATCH, false);
    },
  });
  return new Response(body, {
    status: 200,
    headers: {
      'content-type': 'text/csv; charset=utf-8; header=present',
      'content-disposition': `attachment; filename="reconciliation-${starts.slice(0, 10)}.csv"`,
      ...noStore,
    },
  });
}

/** GET /v3/statements/{month}: `YYYY-MM`; a month not begun, or one that cannot be, is 404. */
export async function readStatement(ctx: ApiContext, caller: Caller, month: string): Promise<Response> {
  const row = await ownObject(caller, month, statementMonth, (keyHash, found) =>
    ctx.sql<(Outcome & { statement: string })[]>`select * from private.read_statement(${keyHash}, ${`${found}-01`}::date)`);
  return jsonTextResponse(200, row.statement, noStore);
}
