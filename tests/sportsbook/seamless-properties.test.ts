// The sportsbook's money in seamless mode, as a property (fast-check), on a database of its own
// (the runner takes whatever is due) against the reference operator wallet: random sequences of
// placements (one- and two-phase), commits, discards, settlements, resettlements, unsettlements,
// closes, repeats, players spending their balance elsewhere (so clawbacks are refused for funds and
// owed, then taken from later payouts) and depositing again, runner rounds, and wallet faults (a 500, garbage, or a caller that died before making its
// call), over several bets of two players. After draining every call with the wallet well: nothing
// is left to send, a repeat of a call answered replays its first answer, every bet's paid less what
// it owes is its payout in force, and each player's balance at the wallet is its opening balance
// plus what each of its bets paid less its stake (nothing for a discarded one) and what it spent.
import { createHash, randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { Sql } from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDeliveries } from '../../supabase/functions/deliver/deliveries.ts';
import { makeWalletCall, type QueuedWalletCall } from '../../supabase/functions/_shared/wallet-call.ts';
import { isolatedDatabase, newOperator, recordedSession } from '../helpers/api.ts';
import { type Misbehaviour, type ReferenceWallet, startReferenceWallet } from '../helpers/reference-wallet.ts';
import { engine, sportsbookGame } from './sportsbook.ts';

const settings = { allowPrivateUrls: true, timeoutMs: 2_000 };
let owner: Sql;
let endpoint: Sql;
let keyHash: string;
let game: string;
let client: string;
let wallet: ReferenceWallet;

beforeAll(async () => {
  ({ owner, endpoint } = await isolatedDatabase('sportsbook_seamless_props'));
  const [issued] = await owner`select * from public.issue_provider_key('pragmatic-play', 'Sportsbook seamless properties')`;
  keyHash = createHash('sha256').update(issued.key).digest('hex');
  game = await sportsbookGame(owner);
  client = (await newOperator(owner, 'sportsbook-seamless-property')).account.id;
  const setTo = (url: string) => owner`select * from private.change_wallet_settings(${client}, true, 'seamless', ${url}, false)`;
  const [{ secret }] = await setTo('https://wallet.operator.test/');
  wallet = await startReferenceWallet(secret, '60');
  await setTo(wallet.url);
});
afterAll(() => wallet?.close());

const calls = () => engine(owner, () => keyHash);

const BETS = 3;
const results = [['lost', 0], ['won', 1], ['half_won', 0.75], ['cashout', 0.4], ['half_lost', 0.25], ['void', -1]] as const;
const UNIT = 10_000n;
const units = (amount: string) => {
  const [whole, fraction = ''] = amount.split('.');
  const value = BigInt(whole.replace('-', '')) * UNIT + BigInt(fraction.padEnd(4, '0').slice(0, 4));
  return amount.startsWith('-') ? -value : value;
};

type Fault = 'none' | 'error' | 'garbage' | 'died';
type Command =
  | { kind: 'place'; bet: number; player: number; stake: number; twoPhase: boolean; fault: Fault }
  | { kind: 'commit' | 'discard' | 'close'; bet: number; fault: Fault }
  | { kind: 'settle'; bet: number; result: number; fault: Fault }
  | { kind: 'unsettle'; bet: number; fault: Fault }
  | { kind: 'repeat'; index: number }
  | { kind: 'spend' | 'deposit'; player: number }
  | { kind: 'runner'; fault: 'none' | 'error' };

const bet = fc.nat(BETS - 1);
const fault: fc.Arbitrary<Fault> = fc.constantFrom('none', 'none', 'none', 'error', 'garbage', 'died');
const command: fc.Arbitrary<Command> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('place' as const), bet, player: fc.constantFrom(0, 0, 0, 1), stake: fc.integer({ min: 1, max: 20 }),
    twoPhase: fc.constantFrom(false, false, true), fault }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constantFrom('commit' as const, 'discard' as const, 'close' as const), bet, fault }) },
  { weight: 8, arbitrary: fc.record({ kind: fc.constant('settle' as const), bet, result: fc.nat(results.length - 1), fault }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('unsettle' as const), bet, fault }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('repeat' as const), index: fc.nat() }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constantFrom('spend' as const, 'deposit' as const), player: fc.nat(1) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('runner' as const), fault: fc.constantFrom('none' as const, 'error' as const) }) },
);

type Answer = { outcome: string; body: Record<string, unknown> | null };

/** Every pending call made due, and the runner run with the wallet well until nothing is left. */
async function drain() {
  wallet.misbehave = 'none';
  for (let round = 0; round < 20; round++) {
    await owner`update public.wallet_call set next_attempt_at = now() where status = 'pending'`;
    await runDeliveries(endpoint, settings);
    const [{ n }] = await owner`select count(*)::int as n from public.wallet_call where status = 'pending'`;
    if (n === 0) return;
  }
}

describe('the sportsbook\'s money in seamless mode, whatever the calls and the wallet do', () => {
  it('stays exact at the wallet: each bet moves what it paid less its stake, owed clawbacks included', async () => {
    const { place, settle, unsettle, commit, discard, close } = calls();
    await fc.assert(fc.asyncProperty(fc.array(command, { minLength: 10, maxLength: 30 }), async (commands) => {
      wallet.misbehave = 'none';
      const run = randomUUID().slice(0, 8);
      const players = [`alpha-${run}`, `beta-${run}`];
      const sessions: string[] = [];
      for (const player of players) {
        const s = await recordedSession(owner, client, { game });
        await owner`update public.game_session set player_id = ${player} where id = ${s}`;
        sessions.push(s);
      }
      const spent = [0n, 0n];
      const betIds = Array.from({ length: BETS }, () => `bet-${randomUUID()}`);
      const stakes: (number | undefined)[] = [];
      // Calls whose answer is final (the engine's, or the wallet's once made): a repeat replays it.
      const answered: { again: () => Promise<Answer>; answer: Answer }[] = [];
      const tx = () => `tx-${randomUUID()}`;

      /** An engine call, and the wallet call it queued made as `fault` says (`died`: never made). */
      const send = async (call: () => Promise<Answer>, fault: Fault): Promise<Answer> => {
        let answer = await call();
        if (answer.outcome === 'wallet_call') {
          if (fault === 'died') return answer;
          wallet.misbehave = fault as Misbehaviour;
          const finished = await makeWalletCall(endpoint, answer.body as unknown as QueuedWalletCall, settings);
          wallet.misbehave = 'none';
          answer = { outcome: finished.outcome, body: finished.body ? JSON.parse(finished.body) : null };
        }
        if (answer.outcome === 'ok') answered.push({ again: call, answer });
        return answer;
      };

      for (const c of commands) {
        switch (c.kind) {
          case 'place': {
            const id = tx();
            const answer = await send(() => place(sessions[c.player], betIds[c.bet], id, String(c.stake),
              { odds: '3', potential: String(c.stake * 3), twoPhase: c.twoPhase }), c.fault);
            expect(['ok', 'wallet_call', 'wallet_failed', 'insufficient_funds', 'duplicate_bet', 'bet_discarded']).toContain(answer.outcome);
            if (answer.outcome !== 'insufficient_funds' && answer.outcome !== 'duplicate_bet' && answer.outcome !== 'bet_discarded') {
              stakes[c.bet] = c.stake;
            }
            break;
          }
          case 'commit': {
            const id = tx();
            await send(() => commit(betIds[c.bet], id), c.fault);
            break;
          }
          case 'discard': {
            const id = tx();
            await send(() => discard(betIds[c.bet], id), c.fault);
            break;
          }
          case 'close': {
            const id = tx();
            await send(() => close(betIds[c.bet], id), c.fault);
            break;
          }
          case 'settle': {
            const stake = stakes[c.bet] ?? 1;
            const [result, share] = results[c.result];
            const amount = share < 0 ? stake : share * stake * 3;
            const id = tx();
            const answer = await send(() => settle(betIds[c.bet], id, result, amount.toFixed(4)), c.fault);
            expect(['ok', 'wallet_call', 'wallet_pending', 'unknown_bet', 'bet_reserved', 'bet_discarded', 'bet_closed',
              'transaction_pending']).toContain(answer.outcome);
            break;
          }
          case 'unsettle': {
            const id = tx();
            await send(() => unsettle(betIds[c.bet], id), c.fault);
            break;
          }
          case 'repeat': {
            if (!answered.length) break;
            const earlier = answered[c.index % answered.length];
            expect(await earlier.again()).toEqual({ outcome: 'replayed', body: earlier.answer.body });
            break;
          }
          case 'spend': {
            // The player spends all it has at the operator (a casino elsewhere): no clawback is covered.
            const player = players[c.player];
            spent[c.player] += units(wallet.balance(player));
            wallet.balances.set(player, 0n);
            break;
          }
          case 'deposit': {
            const player = players[c.player];
            wallet.balances.set(player, units(wallet.balance(player)) + 40n * UNIT);
            spent[c.player] -= 40n * UNIT;
            break;
          }
          case 'runner':
            wallet.misbehave = c.fault;
            await owner`update public.wallet_call set next_attempt_at = now() where status = 'pending'`;
            await runDeliveries(endpoint, settings);
            wallet.misbehave = 'none';
            break;
        }
      }
      await drain();

      // Nothing left to send (the database is this file's alone).
      expect((await owner`select count(*)::int as n from public.wallet_call where status = 'pending'`)[0].n).toBe(0);
      for (const earlier of answered) expect(await earlier.again()).toEqual({ outcome: 'replayed', body: earlier.answer.body });
      const bets = await owner`
        select b.player_id, b.status, b.stake::text, b.payout::text, b.paid::text, b.owed::text
        from public.sportsbook_bet b where b.client_id = ${client} and b.player_id = any (${players})`;
      const moved = [0n, 0n];
      for (const b of bets) {
        expect(units(b.paid) - units(b.owed)).toBe(units(b.payout));
        if (b.status !== 'discarded') moved[players.indexOf(b.player_id)] += units(b.paid) - units(b.stake);
      }
      for (const [index, player] of players.entries()) {
        expect(units(wallet.balance(player)), player).toBe(60n * UNIT + moved[index] - spent[index]);
      }
    }), { numRuns: 40 });
  }, 300_000);
});
