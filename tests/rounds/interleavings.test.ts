// Random interleavings of bets, wins, rollbacks and repeats, from two providers at once, against the
// round engine (fast-check). Whatever the order and whatever collides, money is conserved: the float
// is the deposit minus the bets plus the wins plus the bets given back, every movement is in the
// ledger once, each transaction_id applied at most once, and every round's totals are its own.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { connect, untilBlockedBy } from '../helpers/db.ts';
import { newOperator } from '../helpers/api.ts';
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

describe('a win and a rollback of one round at once', () => {
  it('the win waits for the rollback that cancels the round, then finds it closed: nothing is paid on a cancelled round', async () => {
    const operator = await newOperator(sql, 'win-waits');
    const client = operator.account.id;
    await sql`insert into public.wallet (client_id, currency_code) values (${client}, 'EUR')`;
    await sql`select * from public.record_transaction(${client}::uuid, 'EUR', 'deposit', 100::numeric)`;
    const [session] = await roundSessions(sql, client);
    const key = keys['pragmatic-play'];
    const run = randomUUID();
    const [betTx, round] = [`${run}-bet`, `${run}-round`];
    await sql`select * from private.round_bet(${key}, ${session}, ${betTx}, ${round}, 10, false, ${sha(`bet ${run}`)})`;

    let commit!: () => void;
    const committing = new Promise<void>((resolve) => (commit = resolve));
    let rolledBack!: (pid: number) => void;
    const holder = new Promise<number>((resolve) => (rolledBack = resolve));
    const rollback = pool.begin(async (tx) => {
      const [{ pid }] = await tx`select pg_backend_pid() as pid`;
      const [answer] = await tx`select outcome from private.round_rollback(${key}, ${session}, ${`${run}-rb`}, ${betTx}, ${sha(`rb ${run}`)})`;
      expect(answer.outcome).toBe('ok');
      rolledBack(pid);
      await committing;
    });
    const pid = await holder;
    const win = pool`select outcome from private.round_win(${key}, ${session}, ${`${run}-win`}, ${round}, 5, false, null, ${sha(`win ${run}`)})`
      .execute();
    // The win's transaction is under way once it waits on a lock the rollback holds.
    await untilBlockedBy(sql, pid);
    commit();
    await rollback;
    expect((await win)[0].outcome).toBe('round_closed');
    expect((await sql`select balance::text from public.wallet where client_id = ${client}`)[0].balance).toBe('100.0000');
    expect((await sql`select status, total_win::text from public.game_round where provider_round_id = ${round}`)[0])
      .toEqual({ status: 'cancelled', total_win: '0.0000' });
  });
});
