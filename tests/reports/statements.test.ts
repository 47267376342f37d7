// Monthly statements (GET /v3/statements/{month}, public.issue_statements): a month's GGR per
// provider and currency and the fee due at the client's contract rate; issued once the month is
// rolled up and the client has a contract, then fixed whatever the rate becomes; the month under
// way read live at the rate now; a test key's never issued and owes nothing.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectResponseMatches } from '../openapi/contract.ts';
import { as, cast, connect } from '../helpers/db.ts';
import { issueKey, newOperator, type Operator, sessionsHandler } from '../helpers/api.ts';
import { launchToken, providerCalls } from '../helpers/provider-api.ts';

const sql = connect();
const { handle } = await sessionsHandler();
let post: ReturnType<typeof providerCalls>;
const id = (prefix: string) => `${prefix}-${randomUUID()}`;

beforeAll(async () => {
  post = providerCalls(handle, (await sql`select key from public.issue_provider_key('pragmatic-play')`)[0].key);
});

async function operatorWithFloat(): Promise<Operator> {
  const operator = await newOperator(sql, 'statements');
  await sql`insert into public.wallet (client_id, currency_code, is_primary) values (${operator.account.id}, 'EUR', true)`;
  await sql`select * from public.record_transaction(${operator.account.id}::uuid, 'EUR', 'deposit', 1000::numeric)`;
  return operator;
}

/** A round of a bet and a win, played now. */
async function playRound(operator: Operator, bet: string, win: string, key = operator.key): Promise<string> {
  const token = await launchToken(handle, { ...operator, key });
  const round = id('round');
  expect((await post('bets', { session_token: token, transaction_id: id('bet'), round_id: round, amount: bet })).status).toBe(200);
  expect((await post('wins', { session_token: token, transaction_id: id('win'), round_id: round, amount: win, round_closed: true })).status)
    .toBe(200);
  return round;
}

/** Moves a client's play so far to the middle of last month, as if it had been played then. */
async function intoLastMonth(clientId: string) {
  await sql.begin(async (tx) => {
    const shift = tx`((date_trunc('month', now() at time zone 'UTC') - interval '15 days') - date_trunc('day', now() at time zone 'UTC'))`;
    await tx`update public.game_round set opened_at = opened_at + ${shift} where client_id = ${clientId}`;
    await tx`update public.round_transaction set created_at = created_at + ${shift} where client_id = ${clientId}`;
  });
}

const monthOf = (offset: number) => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, 1)).toISOString().slice(0, 7);
};

async function statement(key: string, month: string) {
  const response = await handle(new Request(`http://api.test/v3/statements/${month}`, { headers: { authorization: `Bearer ${key}` } }));
  const body = await response.json();
  expectResponseMatches('getStatement', response, body);
  return { status: response.status, body };
}

describe('monthly statements', () => {
  it('issues a month rolled up at the contract\'s rate, once: a later rate leaves it as issued', async () => {
    const operator = await operatorWithFloat();
    await playRound(operator, '100', '60');
    await playRound(operator, '50', '80');
    await intoLastMonth(operator.account.id);
    const before = await statement(operator.key, monthOf(-1));
    // No contract yet: the month stays open, and nothing is due until staff set a rate.
    expect(before.body).toMatchObject({ status: 'open', fee_rate: null, issued_at: null,
      lines: [{ provider: 'pragmatic-play', currency: 'EUR', bets: '150.0000', wins: '140.0000', ggr: '10.0000', amount_due: null }],
      totals: [{ currency: 'EUR', ggr: '10.0000', amount_due: null }] });
    await sql`insert into public.client_contract (client_id, fee_rate) values (${operator.account.id}, 0.125)`;
    const issued = await statement(operator.key, monthOf(-1));
    expect(issued.body).toMatchObject({ object: 'statement', month: monthOf(-1), livemode: true, status: 'issued', fee_rate: '0.125000',
      issued_at: expect.any(String),
      lines: [{ provider: 'pragmatic-play', currency: 'EUR', bets: '150.0000', wins: '140.0000', free_round_wins: '0.0000',
        rolled_back: '0.0000', voided: '0.0000', ggr: '10.0000', amount_due: '1.2500' }],
      totals: [{ currency: 'EUR', ggr: '10.0000', amount_due: '1.2500' }] });
    await sql`update public.client_contract set fee_rate = 0.5 where client_id = ${operator.account.id}`;
    expect((await statement(operator.key, monthOf(-1))).body).toEqual(issued.body);
  });

  it('reads the month under way live, at the rate now, and owes nothing on a line that lost', async () => {
    const operator = await operatorWithFloat();
    await sql`insert into public.client_contract (client_id, fee_rate) values (${operator.account.id}, 0.2)`;
    await playRound(operator, '10', '25');
    const open = await statement(operator.key, monthOf(0));
    expect(open.body).toMatchObject({ status: 'open', fee_rate: '0.200000', issued_at: null,
      lines: [{ ggr: '-15.0000', amount_due: '0.0000' }], totals: [{ currency: 'EUR', ggr: '-15.0000', amount_due: '0.0000' }] });
    expect((await sql`select count(*)::int as n from public.monthly_statement where client_id = ${operator.account.id}`)[0].n).toBe(0);
  });

  it('gives a test key its test play, never issued and with nothing due; a month not begun or not a month is 404', async () => {
    const operator = await operatorWithFloat();
    await sql`insert into public.client_contract (client_id, fee_rate) values (${operator.account.id}, 0.2)`;
    const test = (await issueKey(sql, operator.account, 'Statements sandbox', false)).key;
    expect((await statement(test, monthOf(-1))).body).toMatchObject({ livemode: false, status: 'open', fee_rate: null, lines: [] });
    expect(await statement(operator.key, monthOf(1))).toMatchObject({ status: 404, body: { code: 'not_found' } });
    expect(await statement(operator.key, '2026-13')).toMatchObject({ status: 404 });
    expect(await statement(`cgs_live_${'x'.repeat(43)}`, monthOf(0))).toMatchObject({ status: 401 });
  });

  it('staff issue a month\'s statements for every client with a contract; nobody else may', async () => {
    const { alice, mona } = await cast(sql);
    const operator = await operatorWithFloat();
    await sql`insert into public.client_contract (client_id, fee_rate) values (${operator.account.id}, 0.1)`;
    await playRound(operator, '40', '0');
    await intoLastMonth(operator.account.id);
    const month = `${monthOf(-1)}-01`;
    const issued = await as(sql, mona, (tx) => tx`select public.issue_statements(${month}::date) as n`);
    expect(issued[0].n).toBeGreaterThanOrEqual(1);
    const [line] = await sql`select ggr::text, fee_rate::text, amount_due::text from public.monthly_statement
      where client_id = ${operator.account.id} and month = ${month}::date`;
    expect(line).toEqual({ ggr: '40.0000', fee_rate: '0.100000', amount_due: '4.0000' });
    await expect(as(sql, alice, (tx) => tx`select public.issue_statements(${month}::date)`)).rejects.toMatchObject({ code: '42501' });
  });
});
