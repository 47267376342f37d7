// What the interleaving property tests share (transfer mode in tests/rounds, seamless mode in
// tests/seamless): random bets, wins, rollbacks and repeats over few ids, so repeats, conflicts and
// rollbacks of real bets are common; one engine call per operation; and the round checks that hold
// whatever the order.
import { createHash, randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { Sql } from 'postgres';
import { expect } from 'vitest';
import { rerunConflicts } from '../../supabase/functions/_shared/database.ts';

export const sha = (text: string) => createHash('sha256').update(text).digest('hex');
export const providers = ['pragmatic-play', 'spribe'] as const;

export type Op =
  | { kind: 'bet'; tx: number; round: number; amount: number; closed: boolean }
  | { kind: 'win'; tx: number; round: number; amount: number; closed: boolean; bet: number | null }
  | { kind: 'rollback'; tx: number; target: number };

const tx = fc.integer({ min: 0, max: 9 });
const round = fc.integer({ min: 0, max: 3 });
const amount = fc.integer({ min: 1, max: 40000 }).map((n) => n / 100);
export const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('bet' as const), tx, round, amount, closed: fc.boolean() }),
  fc.record({
    kind: fc.constant('win' as const), tx, round, amount: fc.oneof(fc.constant(0), amount), closed: fc.boolean(),
    bet: fc.option(tx, { nil: null }),
  }),
  fc.record({ kind: fc.constant('rollback' as const), tx, target: tx }),
);

/** Batches of operations; those of one batch run at once. */
export const batches = fc.array(fc.array(op, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 6 });

/** Rounds 0 and 1 are pragmatic-play's, 2 and 3 spribe's; each round its own session of player `p`. */
export async function roundSessions(sql: Sql, client: string): Promise<string[]> {
  const sessions: string[] = [];
  for (const r of [0, 1, 2, 3]) {
    const [s] = await sql`
      insert into public.game_session (client_id, livemode, player_id, provider_id, game, currency_code, expires_at)
      select ${client}, true, 'p', id, 'g', 'EUR', now() + interval '1 hour' from public.game_provider where slug = ${providers[r >> 1]}
      returning id`;
    sessions.push(s.id);
  }
  return sessions;
}

/**
 * The engine call for an operation, on the round's session with its provider's key (hashed): its
 * outcome and body. A transaction id names one provider's transaction: ids are drawn per run.
 */
export function engineCaller(pool: Sql, keys: Record<string, string>, sessions: string[]) {
  const run = randomUUID();
  const txId = (n: number) => `${run}-t${n}`;
  const roundId = (n: number) => `${run}-r${n}`;
  const call = async (o: Op): Promise<{ outcome: string; body: unknown }> => {
    const r = 'round' in o ? o.round : o.target % 4;
    const [key, session, fingerprint] = [keys[providers[r >> 1]], sessions[r], sha(JSON.stringify(o))];
    // As the provider API calls it: a call a concurrent one rolled back runs again.
    const [answer] = await rerunConflicts(() => o.kind === 'bet'
      ? pool`select outcome, body from private.round_bet(${key}, ${session}, ${txId(o.tx)}, ${roundId(o.round)},
          ${o.amount}::numeric, ${o.closed}, ${fingerprint})`
      : o.kind === 'win'
      ? pool`select outcome, body from private.round_win(${key}, ${session}, ${txId(o.tx)}, ${roundId(o.round)},
          ${o.amount}::numeric, ${o.closed}, ${o.bet === null ? null : txId(o.bet)}, ${fingerprint})`
      : pool`select outcome, body from private.round_rollback(${key}, ${session}, ${txId(o.tx)}, ${txId(o.target)},
          ${fingerprint})`);
    return answer as { outcome: string; body: unknown };
  };
  return { call, txId };
}

/** No bet both rolled back and settled, and every round's totals its own transactions' sums. */
export async function expectRoundsConsistent(sql: Sql, client: string): Promise<void> {
  const [{ n }] = await sql`
    select count(*)::int as n from public.round_transaction
    where client_id = ${client} and kind = 'bet' and rolled_back and settled`;
  expect(n).toBe(0);
  const wrongTotals = await sql`
    select r.provider_round_id from public.game_round r
    where r.client_id = ${client}
      and (r.total_bet <> (select coalesce(sum(t.amount), 0) from public.round_transaction t
                           where t.round_id = r.id and t.kind = 'bet' and not t.rolled_back)
        or r.total_win <> (select coalesce(sum(t.amount), 0) from public.round_transaction t
                           where t.round_id = r.id and t.kind = 'win'))`;
  expect(wrongTotals).toEqual([]);
}
