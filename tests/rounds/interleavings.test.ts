// Random interleavings of bets, wins, rollbacks and repeats, from two providers at once, against the
// round engine (fast-check). Whatever the order and whatever collides, money is conserved: the float
// is the deposit minus the bets plus the wins plus the bets given back, every movement is in the
// ledger once, each transaction_id applied at most once, and every round's totals are its own.
import { createHash, randomUUID } from 'node:crypto';
import fc from 'fast-check';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { connect } from '../helpers/db.ts';
import { newOperator } from '../sessions/helpers.ts';

const sql = connect();
// The engine's own pool: calls of one batch run at once, on connections of their own.
const pool = postgres(inject('databaseUrl'), { max: 8, onnotice: () => {} });
afterAll(() => pool.end());
const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const DEPOSIT = 1000;
const providers = ['pragmatic-play', 'spribe'] as const;
const keys: Record<string, string> = {};

beforeAll(async () => {
  for (const slug of providers) keys[slug] = sha((await sql`select key from public.issue_provider_key(${slug})`)[0].key);
});

type Op =
  | { kind: 'bet'; tx: number; round: number; amount: number; closed: boolean }
  | { kind: 'win'; tx: number; round: number; amount: number; closed: boolean; bet: number | null }
  | { kind: 'rollback'; tx: number; target: number };

// Few ids, so that repeats, conflicts and rollbacks of real bets are common.
const tx = fc.integer({ min: 0, max: 9 });
const round = fc.integer({ min: 0, max: 3 });
const amount = fc.integer({ min: 1, max: 40000 }).map((n) => n / 100);
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('bet' as const), tx, round, amount, closed: fc.boolean() }),
  fc.record({
    kind: fc.constant('win' as const), tx, round, amount: fc.oneof(fc.constant(0), amount), closed: fc.boolean(),
    bet: fc.option(tx, { nil: null }),
  }),
  fc.record({ kind: fc.constant('rollback' as const), tx, target: tx }),
);

const OUTCOMES = new Set(['ok', 'replayed', 'duplicate_transaction', 'insufficient_funds', 'transaction_rolled_back', 'unknown_round',
  'round_closed', 'unknown_transaction', 'bet_settled', 'invalid_rollback', 'round_mismatch']);

describe('the round engine under random interleavings', () => {
  it('conserves money and applies each transaction once', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(op, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 6 }), async (batches) => {
        const operator = await newOperator(sql, 'interleave');
        const client = operator.account.id;
        await sql`insert into public.wallet (client_id, currency_code) values (${client}, 'EUR')`;
        await sql`select * from public.record_transaction(${client}::uuid, 'EUR', 'deposit', ${DEPOSIT}::numeric)`;
        // Rounds 0 and 1 are pragmatic-play's, 2 and 3 spribe's; each round its own session.
        const sessions: string[] = [];
        for (const r of [0, 1, 2, 3]) {
          const slug = providers[r >> 1];
          const [s] = await sql`
            insert into public.game_session (client_id, livemode, player_id, provider_id, game, currency_code, expires_at)
            select ${client}, true, 'p', id, 'g', 'EUR', now() + interval '1 hour' from public.game_provider where slug = ${slug}
            returning id`;
          sessions.push(s.id);
        }
        const run = randomUUID();
        const txId = (n: number) => `${run}-t${n}`;
        const roundId = (n: number) => `${run}-r${n}`;
        // A transaction id names one provider's transaction: ids are drawn per provider by round parity.
        const call = async (o: Op, r: number) => {
          const key = keys[providers[r >> 1]];
          const fingerprint = sha(JSON.stringify(o));
          const [answer] = o.kind === 'bet'
            ? await pool`select outcome from private.round_bet(${key}, ${sessions[r]}, ${txId(o.tx)}, ${roundId(o.round)},
                ${o.amount}::numeric, ${o.closed}, ${fingerprint})`
            : o.kind === 'win'
            ? await pool`select outcome from private.round_win(${key}, ${sessions[r]}, ${txId(o.tx)}, ${roundId(o.round)},
                ${o.amount}::numeric, ${o.closed}, ${o.bet === null ? null : txId(o.bet)}, ${fingerprint})`
            : await pool`select outcome from private.round_rollback(${key}, ${sessions[r]}, ${txId(o.tx)}, ${txId(o.target)},
                ${fingerprint})`;
          return answer.outcome as string;
        };
        for (const batch of batches) {
          const outcomes = await Promise.all(batch.map((o) => call(o, 'round' in o ? o.round : o.target % 4)));
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
                 (select count(*)::int - 1 from public.transaction where client_id = ${client}) as movements,
                 count(*) filter (where kind = 'bet' and rolled_back and settled)::int as rolled_back_and_settled
          from public.round_transaction where client_id = ${client}`;
        expect(money.float).toBe(money.expected);
        expect(money.ledger).toBe(money.float);
        expect(money.movements).toBe(money.moving);
        expect(money.rolled_back_and_settled).toBe(0);
        const wrongTotals = await sql`
          select r.provider_round_id from public.game_round r
          where r.client_id = ${client}
            and (r.total_bet <> (select coalesce(sum(t.amount), 0) from public.round_transaction t
                                 where t.round_id = r.id and t.kind = 'bet' and not t.rolled_back)
              or r.total_win <> (select coalesce(sum(t.amount), 0) from public.round_transaction t
                                 where t.round_id = r.id and t.kind = 'win'))`;
        expect(wrongTotals).toEqual([]);
      }),
      { numRuns: 20 },
    );
  });
});
