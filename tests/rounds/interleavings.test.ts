// Random interleavings of bets, wins, rollbacks and repeats, from two providers at once, against the
// round engine (fast-check). Whatever the order and whatever collides, money is conserved: the float
// is the deposit minus the bets plus the wins plus the bets given back, every movement is in the
// ledger once, each transaction_id applied at most once, and every round's totals are its own.
import fc from 'fast-check';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { connect } from '../helpers/db.ts';
import { newOperator } from '../sessions/helpers.ts';
import { batches, engineCaller, expectRoundsConsistent, providers, roundSessions, sha } from './interleaving.ts';

const sql = connect();
// The engine's own pool: calls of one batch run at once, on connections of their own.
const pool = postgres(inject('databaseUrl'), { max: 8, onnotice: () => {} });
afterAll(() => pool.end());
const DEPOSIT = 1000;
const keys: Record<string, string> = {};

beforeAll(async () => {
  for (const slug of providers) keys[slug] = sha((await sql`select key from public.issue_provider_key(${slug})`)[0].key);
});

const OUTCOMES = new Set(['ok', 'replayed', 'duplicate_transaction', 'insufficient_funds', 'transaction_rolled_back', 'unknown_round',
  'round_closed', 'unknown_transaction', 'bet_settled', 'invalid_rollback', 'round_mismatch']);

describe('the round engine under random interleavings', () => {
  it('conserves money and applies each transaction once', async () => {
    await fc.assert(
      fc.asyncProperty(batches, async (batches) => {
        const operator = await newOperator(sql, 'interleave');
        const client = operator.account.id;
        await sql`insert into public.wallet (client_id, currency_code) values (${client}, 'EUR')`;
        await sql`select * from public.record_transaction(${client}::uuid, 'EUR', 'deposit', ${DEPOSIT}::numeric)`;
        const { call } = engineCaller(pool, keys, await roundSessions(sql, client));
        for (const batch of batches) {
          const outcomes = await Promise.all(batch.map(async (o) => (await call(o)).outcome));
          for (const outcome of outcomes) expect(OUTCOMES, outcome).toContain(outcome);
        }

        const [money] = await sql`
          select (select balance::text from public.wallet where client_id = ${client} and currency_code = 'EUR') as float,
                 (select coalesce(sum(amount), 0) from public.transaction where client_id = ${client})::numeric(20, 4)::text as ledger,
                 (${DEPOSIT} - coalesce(sum(amount) filter (where kind = 'bet'), 0)
                   + coalesce(sum(amount) filter (where kind = 'win'), 0)
                   + coalesce(sum(amount) filter (where kind = 'rollback' and ledger_transaction_id is not null), 0)
                 )::numeric(20, 4)::text as expected,
                 count(*) filter (where ledger_transaction_id is not null)::int as moving,
                 (select count(*)::int - 1 from public.transaction where client_id = ${client}) as movements
          from public.round_transaction where client_id = ${client}`;
        expect(money.float).toBe(money.expected);
        expect(money.ledger).toBe(money.float);
        expect(money.movements).toBe(money.moving);
        await expectRoundsConsistent(sql, client);
      }),
      { numRuns: 20 },
    );
  });
});
