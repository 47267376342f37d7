// The sportsbook's money, as a property (fast-check): random sequences of placements (one- and
// two-phase), commits, discards, settlements, resettlements, unsettlements (naming a settlement or
// not, seen or not), closes, repeats of earlier calls, and a float drained and topped up under it
// (so clawbacks are owed and recovered), over several bets of two players, in transfer mode. After
// every sequence: each call applied once (a repeat replays its first answer), every bet's paid less
// what it owes is its payout in force, the payout in force is the last one applied, the money each
// bet moved is what it paid less its stake (nothing for a discarded one), and the float is its
// deposits and withdrawals plus those movements: the sum of its ledger.
import { createHash, randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../helpers/db.ts';
import { newOperator, recordedSession } from '../helpers/api.ts';
import { engine, sportsbookGame } from './sportsbook.ts';

const sql = connect();
let keyHash: string;
let game: string;

beforeAll(async () => {
  const [issued] = await sql`select * from public.issue_provider_key('pragmatic-play', 'Sportsbook properties')`;
  keyHash = createHash('sha256').update(issued.key).digest('hex');
  game = await sportsbookGame(sql);
});

const { place, settle, unsettle, commit, discard, close } = engine(sql, () => keyHash);

const BETS = 3;
const results = [['lost', 0], ['won', 1], ['half_won', 0.75], ['cashout', 0.4], ['half_lost', 0.25], ['void', -1]] as const;

type Command =
  | { kind: 'place'; bet: number; player: number; stake: number; twoPhase: boolean }
  | { kind: 'commit' | 'discard' | 'close'; bet: number }
  | { kind: 'settle'; bet: number; result: number }
  | { kind: 'unsettle'; bet: number; naming: 'none' | 'last' | 'unseen' }
  | { kind: 'repeat'; index: number }
  | { kind: 'drain' | 'topup' };

const bet = fc.nat(BETS - 1);
// Weighted so a sequence settles and resettles placed bets often, with the float drained under them.
const command: fc.Arbitrary<Command> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('place' as const), bet, player: fc.nat(1), stake: fc.integer({ min: 1, max: 20 }),
    twoPhase: fc.constantFrom(false, false, false, true) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('commit' as const), bet }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constantFrom('discard' as const, 'close' as const), bet }) },
  { weight: 8, arbitrary: fc.record({ kind: fc.constant('settle' as const), bet, result: fc.nat(results.length - 1) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('unsettle' as const), bet, naming: fc.constantFrom('none' as const, 'last' as const, 'unseen' as const) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('repeat' as const), index: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constantFrom('drain' as const, 'topup' as const) }) },
);

interface Sent {
  run: () => Promise<{ outcome: string; body: Record<string, unknown> | null }>;
  answer: { outcome: string; body: Record<string, unknown> | null };
}

describe('the sportsbook\'s money, whatever the calls', () => {
  it('stays exact: each call once, paid less owed is the payout in force, the float the sum of its ledger', async () => {
    await fc.assert(fc.asyncProperty(fc.array(command, { minLength: 15, maxLength: 40 }), async (commands) => {
      const operator = await newOperator(sql, 'sportsbook-property');
      const client = operator.account.id;
      await sql`insert into public.wallet (client_id, currency_code) values (${client}, 'EUR')`;
      await sql`select * from public.record_transaction(${client}::uuid, 'EUR', 'deposit', 60::numeric)`;
      const sessions: string[] = [];
      for (const player of ['alpha', 'beta']) {
        const s = await recordedSession(sql, client, { game });
        await sql`update public.game_session set player_id = ${player} where id = ${s}`;
        sessions.push(s);
      }
      const betIds = Array.from({ length: BETS }, () => `bet-${randomUUID()}`);
      const stakes: (number | undefined)[] = [];
      // The payout the model says is in force, and the last settlement applied to each bet.
      const payout: number[] = Array(BETS).fill(0);
      const lastSettlement: (string | undefined)[] = [];
      const sent: Sent[] = [];
      const send = async (run: Sent['run']) => {
        const answer = await run();
        sent.push({ run, answer });
        return answer;
      };
      const tx = () => `tx-${randomUUID()}`;

      for (const c of commands) {
        switch (c.kind) {
          case 'place': {
            const id = tx();
            const answer = await send(() => place(sessions[c.player], betIds[c.bet], id, String(c.stake),
              { odds: '3', potential: String(c.stake * 3), twoPhase: c.twoPhase }));
            if (answer.outcome === 'ok') stakes[c.bet] = c.stake;
            else expect(['duplicate_bet', 'insufficient_funds', 'bet_discarded']).toContain(answer.outcome);
            break;
          }
          case 'commit': {
            const id = tx();
            await send(() => commit(betIds[c.bet], id));
            break;
          }
          case 'discard': {
            const id = tx();
            const answer = await send(() => discard(betIds[c.bet], id));
            if (answer.outcome === 'ok') payout[c.bet] = 0;
            break;
          }
          case 'close': {
            const id = tx();
            await send(() => close(betIds[c.bet], id));
            break;
          }
          case 'settle': {
            const stake = stakes[c.bet] ?? 1;
            const [result, share] = results[c.result];
            const amount = share < 0 ? stake : share * stake * 3;
            const id = tx();
            const answer = await send(() => settle(betIds[c.bet], id, result, amount.toFixed(4)));
            if (answer.outcome === 'ok') {
              expect(answer.body).toMatchObject({ status: 'settled', result, payout: amount.toFixed(4) });
              payout[c.bet] = amount;
              lastSettlement[c.bet] = id;
            } else {
              expect(['unknown_bet', 'bet_reserved', 'bet_discarded', 'bet_closed']).toContain(answer.outcome);
            }
            break;
          }
          case 'unsettle': {
            const named = c.naming === 'none' ? null : c.naming === 'last' ? (lastSettlement[c.bet] ?? null) : tx();
            const id = tx();
            const answer = await send(() => unsettle(betIds[c.bet], id, named));
            if (answer.outcome === 'ok' && answer.body?.status === 'open') payout[c.bet] = 0;
            break;
          }
          case 'repeat': {
            // A call applied once, sent again: its first answer, whatever happened since.
            const applied = sent.filter((s) => s.answer.outcome === 'ok');
            if (!applied.length) break;
            const earlier = applied[c.index % applied.length];
            expect(await earlier.run()).toEqual({ outcome: 'replayed', body: earlier.answer.body });
            break;
          }
          case 'drain':
            await sql`select * from public.record_transaction(${client}::uuid, 'EUR', 'withdraw',
              -(select balance from public.wallet where client_id = ${client} and currency_code = 'EUR'))
              where (select balance from public.wallet where client_id = ${client} and currency_code = 'EUR') > 0`;
            break;
          case 'topup':
            await sql`select * from public.record_transaction(${client}::uuid, 'EUR', 'deposit', 40::numeric)`;
            break;
        }
      }

      const bets = await sql`
        select r.provider_round_id as bet_id, b.status, b.stake::numeric as stake, b.payout::numeric as payout,
               b.paid::numeric as paid, b.owed::numeric as owed,
               coalesce((select sum(t.amount) from public.transaction t
                         where t.client_id = ${client} and t.note like 'sportsbook bet ' || r.provider_round_id || ',%'), 0) as moved
        from public.sportsbook_bet b join public.game_round r on r.id = b.round_id where b.client_id = ${client}`;
      for (const bet of bets) {
        const index = betIds.indexOf(bet.bet_id);
        expect(Number(bet.paid) - Number(bet.owed)).toBeCloseTo(Number(bet.payout), 4);
        expect(Number(bet.payout)).toBeCloseTo(payout[index], 4);
        expect(Number(bet.moved)).toBeCloseTo(bet.status === 'discarded' ? 0 : Number(bet.paid) - Number(bet.stake), 4);
      }
      const [money] = await sql`
        select (select balance from public.wallet where client_id = ${client} and currency_code = 'EUR') as float,
               (select sum(amount) from public.transaction where client_id = ${client}) as ledger,
               (select coalesce(sum(amount), 0) from public.transaction where client_id = ${client} and type in ('deposit', 'withdraw')) as outside`;
      expect(money.float).toBe(money.ledger);
      const moved = bets.reduce((sum, bet) => sum + Number(bet.moved), 0);
      expect(Number(money.float)).toBeCloseTo(Number(money.outside) + moved, 4);
      // Each call applied once: one round transaction of the client's per call applied (a tombstone of a
      // bet nobody had seen, answered without a balance, is of no client yet).
      const [rows] = await sql`select count(*)::int as n from public.round_transaction t where t.client_id = ${client}`;
      expect(rows.n).toBe(sent.filter((s) => s.answer.outcome === 'ok' && s.answer.body?.balance !== null).length);
    }), { numRuns: 25 });
  }, 240_000);
});
