// GET /v3/reports/ggr in test mode after a sandbox reset wrote seamless sportsbook bets' money back
// (docs/sandbox.md): the reset takes off a test bet what its payout and clawback calls the wallet
// never took would have moved, and the report counts what the wallet moved, as the reconciliation
// does: a credit never made is no payout and a clawback never taken is still paid, each in the day
// of its call (where the reconciliation's line shows it moved nothing), so each day's sportsbook GGR
// is what its reconciliation lines moved, turned over; where a bet's bounds kept the reset from
// writing a call back whole, the payouts over the days are still the bet's payout in force, the
// difference in the reset's day. Played through the engine's own calls, the wallet's answers given
// by hand as the runner would record them; the reset and the reads through the API.
import { createHash, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { expectResponseMatches } from '../openapi/contract.ts';
import { connect } from '../helpers/db.ts';
import { issueKey, newOperator, sessionsHandler } from '../helpers/api.ts';
import { engine } from '../sportsbook/sportsbook.ts';

const SANDBOX_PROVIDER_KEY = 'cgs_prov_SANDBOX-demo-game-public-key-test-only-0000';
const sql = connect();
const { handle } = await sessionsHandler();
const book = engine(sql, () => createHash('sha256').update(SANDBOX_PROVIDER_KEY).digest('hex'));
const id = (prefix: string) => `${prefix}-${randomUUID()}`;
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

interface Outcome {
  outcome: string;
  body: Record<string, unknown> | null;
}
interface Cell {
  day: string;
  player_id: string;
  sportsbook: { bets: number; stakes: string; refunded: string; payouts: string; ggr: string } | null;
}
interface Line {
  type: string;
  player_id: string;
  moved: string;
}

async function request(method: string, path: string, key: string) {
  const response = await handle(new Request(`http://api.test/v3${path}`, {
    method, headers: { authorization: `Bearer ${key}`, ...(method === 'POST' ? { 'content-type': 'application/json' } : {}) },
    body: method === 'POST' ? '{}' : undefined,
  }));
  const body = await response.json();
  if (path.startsWith('/reports/')) expectResponseMatches('getGgrReport', response, body);
  if (path.startsWith('/reconciliation/')) expectResponseMatches('listReconciliationTransactions', response, body);
  expect(response.status).toBe(200);
  return body;
}

/** A test operator whose test wallet is seamless (its calls answered by hand), and its test key. */
async function seamlessSandbox(name: string) {
  const op = await newOperator(sql, name);
  const key = (await issueKey(sql, op.account, 'Sandbox', false)).key;
  await sql`select * from private.change_wallet_settings(${op.account.id}, false, 'seamless', 'https://wallet.example/cgs', false)`;
  return { op, key };
}

/** A test session of the demo sportsbook for `player`. */
async function session(clientId: string, player: string): Promise<string> {
  const [s] = await sql`insert into public.game_session (client_id, livemode, player_id, provider_id, game, currency_code, status, expires_at)
    select ${clientId}, false, ${player}, id, 'sportsbook', 'EUR', 'active', now() + interval '1 hour'
    from public.game_provider where slug = 'cgs-sandbox' returning id`;
  return s.id;
}

/** The engine's call queued a call to the wallet; its id and attempt. */
function queued(answer: Outcome) {
  expect(answer.outcome).toBe('wallet_call');
  return { id: answer.body!.call_id as string, attempt: answer.body!.attempt as number };
}

/** The wallet took the call. */
async function accept(answer: Outcome | { id: string; attempt: number }) {
  const call = 'outcome' in answer ? queued(answer) : answer;
  await sql`select * from private.finish_wallet_call(${call.id}::uuid, ${call.attempt}, 'accepted', '100.0000', null, null)`;
}

/** Moves a bet's round transactions `days` days back, as if it had been played then. */
async function playedDaysAgo(bet: string, days: number) {
  await sql`update public.round_transaction t set created_at = t.created_at - make_interval(days => ${days})
            from public.game_round r where r.id = t.round_id and r.provider_round_id = ${bet}`;
}

/** The client's test bets by bet_id: status, payout, paid and owed. */
async function bets(clientId: string) {
  const rows = await sql<{ bet: string; line: string }[]>`
    select r.provider_round_id as bet, b.status || ' ' || b.payout || ' ' || b.paid || ' ' || b.owed as line
    from public.sportsbook_bet b join public.game_round r on r.id = b.round_id
    where b.client_id = ${clientId} and not b.livemode`;
  return Object.fromEntries(rows.map((r) => [r.bet, r.line]));
}

/** Each cell's sportsbook figures, by day and player. */
const sportsbookCells = (report: { data: Cell[] }) => Object.fromEntries(report.data.filter((c) => c.sportsbook)
  .map((c) => [`${c.day} ${c.player_id}`, c.sportsbook]));

/** What a day's reconciliation lines moved, by player: the sportsbook's lines alone. */
async function movedByPlayer(key: string, date: string) {
  const lines: Line[] = (await request('GET', `/reconciliation/transactions?date=${date}&limit=1000`, key)).data;
  const moved: Record<string, number> = {};
  for (const l of lines.filter((x) => x.type.startsWith('sportsbook_'))) moved[l.player_id] = (moved[l.player_id] ?? 0) + Number(l.moved);
  return moved;
}

describe('the test-mode GGR after a sandbox reset wrote seamless bets\' money back', () => {
  it('counts what the wallet moved, in the day of each call: a credit never made is no payout, a clawback never taken is still paid; each day adds up with its reconciliation', async () => {
    const { op, key } = await seamlessSandbox('ggr-reset');
    const [credited, clawed] = [id('p-credit'), id('p-clawback')];
    const [unpaid, kept] = [id('bet'), id('bet')];
    // A bet won whose payout's credit the wallet never takes.
    await accept(await book.place(await session(op.account.id, credited), unpaid, id('place'), '10', { potential: '20' }));
    queued(await book.settle(unpaid, id('settle'), 'won', '20'));
    // A bet won, paid, then resettled lost: the clawback of its payout the wallet never takes.
    await accept(await book.place(await session(op.account.id, clawed), kept, id('place'), '5', { odds: '3', potential: '15' }));
    await accept(await book.settle(kept, id('settle'), 'won', '15'));
    queued(await book.settle(kept, id('resettle'), 'lost', '0'));
    await playedDaysAgo(unpaid, 1);
    await playedDaysAgo(kept, 1);
    const query = `/reports/ggr?from=${day(-1)}&to=${day(0)}&group_by=day,player`;
    // Before the reset the report counts the payouts in force, calls still due as made.
    expect(sportsbookCells(await request('GET', query, key))).toEqual({
      [`${day(-1)} ${credited}`]: { bets: 1, stakes: '10.0000', refunded: '0.0000', payouts: '20.0000', ggr: '-10.0000' },
      [`${day(-1)} ${clawed}`]: { bets: 1, stakes: '5.0000', refunded: '0.0000', payouts: '0.0000', ggr: '5.0000' },
    });

    expect((await request('POST', '/sandbox/reset', key)).sportsbook_bets_closed).toBe(2);
    expect(await bets(op.account.id)).toEqual({ [unpaid]: 'closed 0.0000 0.0000 0.0000', [kept]: 'closed 15.0000 15.0000 0.0000' });
    const report = await request('GET', query, key);
    // Each bet counts what its wallet moved, in the day its calls came; the reset's day has none.
    expect(sportsbookCells(report)).toEqual({
      [`${day(-1)} ${credited}`]: { bets: 1, stakes: '10.0000', refunded: '0.0000', payouts: '0.0000', ggr: '10.0000' },
      [`${day(-1)} ${clawed}`]: { bets: 1, stakes: '5.0000', refunded: '0.0000', payouts: '15.0000', ggr: '-10.0000' },
    });
    expect(report.totals).toEqual([expect.objectContaining({ currency: 'EUR',
      sportsbook: { bets: 2, stakes: '15.0000', refunded: '0.0000', payouts: '15.0000', ggr: '0.0000' } })]);
    // Each day's sportsbook GGR is what its reconciliation lines moved, turned over.
    expect(await movedByPlayer(key, day(-1))).toEqual({ [credited]: -10, [clawed]: 10 });
    expect(await movedByPlayer(key, day(0))).toEqual({});
    // And the payouts over the days are the bets' payouts in force.
    const [inForce] = await sql`select sum(payout)::numeric(20, 4)::text as payouts from public.sportsbook_bet
      where client_id = ${op.account.id} and not livemode`;
    expect(inForce.payouts).toBe(report.totals[0].sportsbook.payouts);
  });

  it("counts the bet's payout in force where its bounds kept the reset from writing a call back whole, the difference in the reset's day", async () => {
    const { op, key } = await seamlessSandbox('ggr-reset-bounds');
    const player = id('p-bounds');
    const bet = id('bet');
    await accept(await book.place(await session(op.account.id, player), bet, id('place'), '10', { potential: '20' }));
    const credit = queued(await book.settle(bet, id('settle'), 'won', '20'));
    // The resettlement's clawback is taken before the credit it takes back, which never is.
    await accept(await book.settle(bet, id('resettle'), 'lost', '0'));
    expect(credit.id).toBeTruthy();
    await playedDaysAgo(bet, 1);

    await request('POST', '/sandbox/reset', key);
    // The reset writes back no more than the bet's bounds let it: its payout stays 0, not -20.
    expect(await bets(op.account.id)).toEqual({ [bet]: 'closed 0.0000 0.0000 0.0000' });
    const report = await request('GET', `/reports/ggr?from=${day(-1)}&to=${day(0)}&group_by=day,player`, key);
    // The calls' day counts what the wallet moved (the clawback, its credit never made); the reset's
    // day the part of the credit never made that the reset did not write back.
    expect(sportsbookCells(report)).toEqual({
      [`${day(-1)} ${player}`]: { bets: 1, stakes: '10.0000', refunded: '0.0000', payouts: '-20.0000', ggr: '30.0000' },
      [`${day(0)} ${player}`]: { bets: 0, stakes: '0.0000', refunded: '0.0000', payouts: '20.0000', ggr: '-20.0000' },
    });
    expect(await movedByPlayer(key, day(-1))).toEqual({ [player]: -30 });
    expect(report.totals[0].sportsbook).toEqual({ bets: 1, stakes: '10.0000', refunded: '0.0000', payouts: '0.0000', ggr: '10.0000' });
  });

  it('changes nothing for a bet a reset ended before resets wrote money back: its line carries no payout, its calls stood', async () => {
    const { op, key } = await seamlessSandbox('ggr-reset-earlier');
    const player = id('p-earlier');
    const bet = id('bet');
    await accept(await book.place(await session(op.account.id, player), bet, id('place'), '10', { potential: '20' }));
    queued(await book.settle(bet, id('settle'), 'won', '20'));
    await playedDaysAgo(bet, 1);
    await request('POST', '/sandbox/reset', key);
    // The bet as a reset of 20261207003000_sandbox_reset_sportsbook.sql left it: its payout kept,
    // its line without one, moving nothing.
    await sql`update public.sportsbook_bet b set payout = 20, paid = 20,
                settlements = jsonb_set(b.settlements, array[(jsonb_array_length(b.settlements) - 1)::text],
                                        (b.settlements->-1) - 'payout' || '{"moved": "0.0000"}')
              from public.game_round r where r.id = b.round_id and r.provider_round_id = ${bet}`;
    const report = await request('GET', `/reports/ggr?from=${day(-1)}&to=${day(0)}&group_by=day`, key);
    expect(report.data.map((c: Cell) => [c.day, c.sportsbook])).toEqual([
      [day(-1), { bets: 1, stakes: '10.0000', refunded: '0.0000', payouts: '20.0000', ggr: '-10.0000' }],
    ]);
  });
});
