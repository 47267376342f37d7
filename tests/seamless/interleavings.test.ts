// Random interleavings of bets, wins, rollbacks and repeats from two providers at once, in seamless
// mode, with the reference operator wallet failing, stalling or answering garbage at random
// (fast-check), on a database of its own (the runner takes whatever is due). Once the runner has
// delivered what it owes, money is conserved at the operator: its balance is the opening minus the
// bets that stand plus the wins, every call was accepted, and every round's totals are its own.
import fc from 'fast-check';
import type { Sql } from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDeliveries } from '../../supabase/functions/deliver/deliveries.ts';
import { makeWalletCall, type QueuedWalletCall } from '../../supabase/functions/_shared/wallet-call.ts';
import { type Misbehaviour, type ReferenceWallet, startReferenceWallet } from '../helpers/reference-wallet.ts';
import { batches, engineCaller, expectRoundsConsistent, providers, roundSessions, sha } from '../rounds/interleaving.ts';
import { isolatedDatabase, newOperator } from '../helpers/api.ts';

const OPENING = '100000';
const settings = { allowPrivateUrls: true, timeoutMs: 150 };
let owner: Sql;
let pool: Sql;
let wallet: ReferenceWallet | undefined;
const keys: Record<string, string> = {};

beforeAll(async () => {
  ({ owner, endpoint: pool } = await isolatedDatabase('seamless_interleavings'));
  for (const slug of providers) keys[slug] = sha((await owner`select key from public.issue_provider_key(${slug})`)[0].key);
});
afterAll(() => wallet?.close());

const OUTCOMES = new Set(['ok', 'replayed', 'duplicate_transaction', 'insufficient_funds', 'transaction_rolled_back', 'unknown_round',
  'round_closed', 'unknown_transaction', 'bet_settled', 'invalid_rollback', 'round_mismatch', 'transaction_pending', 'wallet_pending',
  'wallet_failed']);
const fault = fc.constantFrom<Misbehaviour>('none', 'none', 'none', 'error', 'garbage', 'slow');

describe('seamless mode under random interleavings and wallet faults', () => {
  it('conserves money at the operator and applies each transaction once', async () => {
    await fc.assert(
      fc.asyncProperty(batches, fc.array(fault, { minLength: 40, maxLength: 40 }), async (batches, faults) => {
        const operator = await newOperator(owner, 'seamless-interleave');
        const client = operator.account.id;
        const setTo = (url: string) => owner`select * from private.change_wallet_settings(${client}, true, 'seamless', ${url}, false)`;
        const [{ secret }] = await setTo('http://127.0.0.1:9/');
        await wallet?.close();
        wallet = await startReferenceWallet(secret, OPENING);
        wallet.slowMs = settings.timeoutMs * 2;
        let n = 0;
        wallet.fault = () => faults[n++ % faults.length];
        await setTo(wallet.url);

        const { call } = engineCaller(pool, keys, await roundSessions(owner, client));
        for (const batch of batches) {
          const outcomes = await Promise.all(batch.map(async (o) => {
            const answer = await call(o);
            return answer.outcome === 'wallet_call' ? (await makeWalletCall(pool, answer.body as QueuedWalletCall, settings)).outcome : answer.outcome;
          }));
          for (const outcome of outcomes) expect(OUTCOMES, outcome).toContain(outcome);
        }

        // The wallet mends; the runner delivers what is owed, the slow answers having landed.
        wallet.fault = undefined;
        await new Promise((resolve) => setTimeout(resolve, wallet!.slowMs));
        const pendingCalls = () => owner`
          select action, attempts, last_error from public.wallet_call where client_id = ${client} and status = 'pending'`;
        for (let i = 0; i < 20 && (await pendingCalls()).length; i++) {
          await owner`update public.wallet_call set next_attempt_at = now() where status = 'pending'`;
          await runDeliveries(pool, settings);
        }
        expect(await pendingCalls()).toEqual([]);
        const [money] = await owner`
          select (${OPENING}::numeric - coalesce(sum(amount) filter (where kind = 'bet' and not rolled_back), 0)
                   + coalesce(sum(amount) filter (where kind = 'win'), 0))::numeric(20, 4)::text as expected,
                 count(*) filter (where response_body is null and not (kind = 'bet' and rolled_back))::int as unanswered
          from public.round_transaction where client_id = ${client}`;
        expect(wallet.balance('p')).toBe(money.expected);
        expect(money.unanswered).toBe(0);
        await expectRoundsConsistent(owner, client);
      }),
      { numRuns: 10 },
    );
  }, 120_000);
});
