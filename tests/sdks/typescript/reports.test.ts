// The TypeScript SDK's report methods against the v3 app in-process (its fetch is the app's): a GGR
// report grouped by a list, the reconciliation as pages with their totals, every line iterated, one
// CSV, and a month's statement; refusals are ApiErrors with the problem's code.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { ApiError, createOperatorClient, type OperatorClient } from '../../../sdks/typescript/src/index.ts';
import { connect } from '../../helpers/db.ts';
import { newOperator, sessionsHandler } from '../../helpers/api.ts';
import { launchToken, providerCalls } from '../../helpers/provider-api.ts';

const sql = connect();
const { handle } = await sessionsHandler();
let client: OperatorClient;
const today = new Date().toISOString().slice(0, 10);

beforeAll(async () => {
  const operator = await newOperator(sql, 'sdk-reports');
  await sql`insert into public.wallet (client_id, currency_code, is_primary) values (${operator.account.id}, 'EUR', true)`;
  await sql`select * from public.record_transaction(${operator.account.id}::uuid, 'EUR', 'deposit', 100::numeric)`;
  const post = providerCalls(handle, (await sql`select key from public.issue_provider_key('pragmatic-play')`)[0].key);
  const token = await launchToken(handle, operator);
  const round = `round-${randomUUID()}`;
  await post('bets', { session_token: token, transaction_id: `bet-${randomUUID()}`, round_id: round, amount: '5' });
  await post('wins', { session_token: token, transaction_id: `win-${randomUUID()}`, round_id: round, amount: '2', round_closed: true });
  client = createOperatorClient({
    baseUrl: 'http://api.test/functions/v1', apiKey: operator.key, retries: 0,
    fetch: (url, init) => handle(new Request(url, init)),
  });
});

describe('reports', () => {
  it('reads a GGR report grouped by a list of dimensions', async () => {
    const report = await client.reports.ggr({ from: today, to: today, groupBy: ['day', 'provider'], currency: 'EUR' });
    expect(report).toMatchObject({ object: 'ggr_report', group_by: ['day', 'provider'] });
    expect(report.data).toEqual([expect.objectContaining({ day: today, provider: 'pragmatic-play', bets: '5.0000', wins: '2.0000', ggr: '3.0000' })]);
  });

  it('lists the reconciliation with its totals, iterates every line, and reads the CSV', async () => {
    const page = await client.reports.reconciliation.list({ date: today, limit: 1 });
    expect(page.totals).toEqual([{ currency: 'EUR', transactions: 2, bets: '5.0000', wins: '2.0000', rollbacks: '0.0000', moved: '-3.0000' }]);
    const lines = [];
    for await (const line of client.reports.reconciliation.iterate({ date: today, limit: 1 })) lines.push(line);
    expect(lines.map((l) => `${l.type} ${l.moved}`)).toEqual(['bet -5.0000', 'win 2.0000']);
    const csv = await client.reports.reconciliation.csv({ date: today });
    expect(csv.split('\r\n').filter(Boolean)).toHaveLength(3);
  });

  it('reads the month\'s statement, and answers a refusal as an ApiError', async () => {
    expect(await client.reports.statement(today.slice(0, 7))).toMatchObject({ object: 'statement', status: 'open', lines: [
      expect.objectContaining({ provider: 'pragmatic-play', ggr: '3.0000' })] });
    const error = await client.reports.ggr({ from: today, to: '2000-01-01' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, code: 'invalid_parameters' });
  });
});
