// GGR reports equal the round engine exactly (issue 36): random rounds played through the engine's
// own calls (bets, wins, provider rollbacks, staff cancels and closes, held wins released or
// rejected, transfer and seamless rounds with the operator's wallet accepting, refusing or failing
// a debit), their movements then spread over past days as if they had happened then (a round's
// later movements on its own day or later ones), and every cell of GET /v3/reports/ggr, under
// several groupings and filters, checked against a sum over the raw rows; the whole against the
// rounds' own totals. Free rounds among them (a campaign's round for one player, its free bet won,
// capped by the campaign's max_win or not, closed by staff, or rolled back): what each paid against
// the grants' own totals. Sportsbook bets beside them (placed one- or two-phase, their stakes taken,
// refused or never answered in seamless mode, committed, discarded, settled, resettled and
// unsettled, clawbacks taken or owed), their movements spread over days alike: each cell's
// `sportsbook` against a sum over the raw rows and the bets' histories, and the whole against the
// bets' own stakes and payouts in force. Read first from the raw rows, then again once the closed
// days are rolled up.
import { createHash, randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectResponseMatches } from '../openapi/contract.ts';
import { as, type Cast, cast } from '../helpers/db.ts';
import { isolatedDatabase, newOperator, type Operator, sessionsHandler } from '../helpers/api.ts';
import { engine, sportsbookGame } from '../sportsbook/sportsbook.ts';

// A database of its own: the property backdates reserved sportsbook bets by days, and another
// file's sweep of expired reservations (private.sportsbook_discard_expired, over every client) on
// the shared database would discard them while a run reads its cells.
const { owner: sql, endpoint } = await isolatedDatabase('ggr_property');
const { handle } = await sessionsHandler({ sql: endpoint });
const sha = (text: string) => createHash('sha256').update(text).digest('hex');
let people: Cast;
let keyHash: { pragmatic: string; spribe: string };
let limitedGame: string;
let bookGame: string;
let freeGame: string;

beforeAll(async () => {
  people = await cast(sql);
  keyHash = {
    pragmatic: sha((await sql`select key from public.issue_provider_key('pragmatic-play', 'Report tests')`)[0].key),
    spribe: sha((await sql`select key from public.issue_provider_key('spribe', 'Report tests')`)[0].key),
  };
  // A game of its own with a win limit: wins above 50 EUR in it are held for staff.
  limitedGame = `rpt-${randomUUID().slice(0, 8)}`;
  await sql`insert into public.game (provider_id, code, name, category, status)
    select id, ${limitedGame}, 'Report Limits', 'slots', 'active' from public.game_provider where slug = 'pragmatic-play'`;
  await sql`insert into public.win_limit (provider_id, game, currency_code, max_amount)
    select id, ${limitedGame}, 'EUR', 50 from public.game_provider where slug = 'pragmatic-play'`;
  bookGame = await sportsbookGame(sql);
  // A game with free rounds, one round's bet of 1 in either currency.
  freeGame = `rfr-${randomUUID().slice(0, 8)}`;
  const [free] = await sql`insert into public.game (provider_id, code, name, category, currencies)
    select id, ${freeGame}, 'Report Free Rounds', 'slots', '{}' from public.game_provider where slug = 'pragmatic-play' returning id`;
  await sql`insert into public.game_free_rounds (game_id, payout_mode, max_rounds, max_validity_days, stakes)
    values (${free.id}, 'per_round', 100, 30, ${sql.json({ EUR: [1], USD: [1] })})`;
});
const book = engine(sql, () => keyHash.pragmatic);

const GAMES = [
  { provider: 'pragmatic' as const, slug: 'pragmatic-play', code: 'vs20olympgate' },
  { provider: 'spribe' as const, slug: 'spribe', code: 'aviator' },
  { provider: 'pragmatic' as const, slug: 'pragmatic-play', code: '' }, // the limited game, named in beforeAll
];
const PLAYERS = ['player-a', 'player-b', 'player-c'];
const CURRENCIES = ['EUR', 'USD'];

const amount = fc.integer({ min: 1, max: 900_000 }).map((units) => (units / 10_000).toFixed(4));
const round = (seamless: boolean) => fc.record({
  seamless: fc.constant(seamless),
  game: fc.integer({ min: 0, max: 2 }),
  player: fc.integer({ min: 0, max: 2 }),
  currency: fc.integer({ min: 0, max: 1 }),
  bets: fc.array(fc.record({
    amount,
    debit: fc.constantFrom('accepted', 'accepted', 'accepted', 'refused', 'failed'),
    rolledBack: fc.boolean(),
  }), { minLength: 1, maxLength: 3 }),
  // Transfer rounds are all ended before the wallet mode changes (a change waits for open rounds).
  end: seamless ? fc.constantFrom('win', 'win', 'cancel', 'close', 'open') : fc.constantFrom('win', 'win', 'cancel', 'close'),
  win: fc.integer({ min: 0, max: 1_000_000 }).map((units) => (units / 10_000).toFixed(4)),
  creditAccepted: fc.boolean(),
  review: fc.constantFrom('release', 'reject', 'none'),
  // Days before today its first movement happened, and whether each later one came a day later.
  daysAgo: fc.integer({ min: 0, max: 6 }),
  later: fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }),
});
const sportsbookBet = (seamless: boolean) => fc.record({
  seamless: fc.constant(seamless),
  player: fc.integer({ min: 0, max: 2 }),
  currency: fc.integer({ min: 0, max: 1 }),
  stake: fc.integer({ min: 1, max: 500_000 }),
  twoPhase: fc.boolean(),
  // The operator's wallet's answer to the stake's debit (transfer mode moves the float).
  debit: seamless ? fc.constantFrom('accepted', 'accepted', 'accepted', 'refused', 'failed') : fc.constant('accepted'),
  steps: fc.array(fc.record({
    op: fc.constantFrom('settle', 'settle', 'settle', 'unsettle', 'discard', 'commit', 'commit'),
    // The payout, in tenths of the potential payout (0: lost).
    tenths: fc.integer({ min: 0, max: 10 }),
    // A seamless clawback taken, or refused for funds (owed).
    clawback: fc.constantFrom('accepted', 'refused'),
  }), { maxLength: 6 }),
  daysAgo: fc.integer({ min: 0, max: 6 }),
  later: fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }),
});
const freeRound = fc.record({
  player: fc.integer({ min: 0, max: 2 }),
  currency: fc.integer({ min: 0, max: 1 }),
  end: fc.constantFrom('win', 'win', 'close', 'rollback'),
  win: fc.integer({ min: 0, max: 1_000_000 }).map((units) => (units / 10_000).toFixed(4)),
  maxWin: fc.option(fc.integer({ min: 1, max: 500_000 }).map((units) => (units / 10_000).toFixed(4)), { nil: undefined }),
  daysAgo: fc.integer({ min: 0, max: 6 }),
  later: fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }),
});
const play = fc.record({
  transfer: fc.array(round(false), { minLength: 1, maxLength: 6 }),
  free: fc.array(freeRound, { maxLength: 3 }),
  seamless: fc.array(round(true), { minLength: 0, maxLength: 5 }),
  bookTransfer: fc.array(sportsbookBet(false), { maxLength: 3 }),
  bookSeamless: fc.array(sportsbookBet(true), { maxLength: 3 }),
});
type Round = ReturnType<typeof round> extends fc.Arbitrary<infer T> ? T : never;
type BookBet = ReturnType<typeof sportsbookBet> extends fc.Arbitrary<infer T> ? T : never;
type FreeRound = typeof freeRound extends fc.Arbitrary<infer T> ? T : never;

interface Outcome {
  outcome: string;
  body: { call_id?: string; attempt?: number } | null;
}

/** Plays one round through the engine as the provider routes and the wallet-call runner would. */
async function playRound(operator: Operator, r: Round) {
  const game = GAMES[r.game];
  const hash = keyHash[game.provider];
  const [session] = await sql`
    insert into public.game_session (client_id, livemode, player_id, provider_id, game, currency_code, status, expires_at)
    select ${operator.account.id}, true, ${PLAYERS[r.player]}, id, ${game.code || limitedGame}, ${CURRENCIES[r.currency]}, 'active',
           now() + interval '1 hour'
    from public.game_provider where slug = ${game.slug}
    returning id`;
  const roundId = `round-${randomUUID()}`;
  const finish = async (answer: Outcome, result: string) => {
    if (answer.outcome !== 'wallet_call') return;
    await sql`select * from private.finish_wallet_call(${answer.body!.call_id!}::uuid, ${answer.body!.attempt!}, ${result},
      ${result === 'accepted' ? '1000.0000' : '0.0000'}, ${result === 'refused' ? 'insufficient_funds' : null}, 'test')`;
  };
  const placed: string[] = [];
  for (const bet of r.bets) {
    const tx = `bet-${randomUUID()}`;
    const [answer] = await sql<Outcome[]>`select * from private.round_bet(${hash}, ${session.id}, ${tx}, ${roundId}, ${bet.amount}::numeric,
      false, ${sha(tx)})`;
    // A round whose every bet was rolled back is cancelled, and takes no more.
    if (answer.outcome === 'round_closed') break;
    expect(['ok', 'wallet_call'], answer.outcome).toContain(answer.outcome);
    await finish(answer, r.seamless ? bet.debit : 'accepted');
    if (!r.seamless || bet.debit === 'accepted') placed.push(tx);
    if (bet.rolledBack && placed.includes(tx)) {
      const undo = `rb-${randomUUID()}`;
      const [back] = await sql<Outcome[]>`select * from private.round_rollback(${hash}, ${session.id}, ${undo}, ${tx}, ${sha(undo)})`;
      await finish(back, 'accepted');
    }
  }
  const [found] = await sql`select id, status from public.game_round where provider_round_id = ${roundId}`;
  if (!found || found.status !== 'open') return;
  const id = found.id as string;
  if (r.end === 'win') {
    const tx = `win-${randomUUID()}`;
    const [won] = await sql<Outcome[]>`select * from private.round_win(${hash}, ${session.id}, ${tx}, ${roundId}, ${r.win}::numeric, true,
      null, ${sha(tx)})`;
    await finish(won, r.creditAccepted ? 'accepted' : 'failed');
    const [held] = await sql`select h.round_transaction_id as id from public.held_win h join public.round_transaction t on t.id = h.round_transaction_id
      where t.transaction_id = ${tx}`;
    if (held && r.review !== 'none') {
      await as(sql, people.mona, (t) => t`select * from public.review_win(${held.id}, ${r.review}, null)`);
    }
  } else if (r.end === 'cancel' || r.end === 'close') {
    await as(sql, people.mona, (t) => t`select * from public.resolve_round(${id}, ${r.end})`);
  }
}

/** A campaign of one free round for the player, played through the engine (transfer mode). */
async function playFreeRound(operator: Operator, f: FreeRound) {
  const made = await handle(new Request('http://api.test/v3/free-rounds/campaigns', {
    method: 'POST', headers: { authorization: `Bearer ${operator.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ external_id: `c-${randomUUID()}`, name: 'Report spins', game_ids: [`pragmatic-play:${freeGame}`],
      currency: CURRENCIES[f.currency], bet_amount: '1', rounds: 1, valid_until: new Date(Date.now() + 86_400_000).toISOString(),
      player_ids: [PLAYERS[f.player]], ...(f.maxWin ? { max_win: f.maxWin } : {}) }),
  }));
  const campaign = await made.json();
  expect(made.status, JSON.stringify(campaign)).toBe(201);
  const [grant] = await sql`select id from public.free_round_grant where campaign_id = ${campaign.id}`;
  const [session] = await sql`
    insert into public.game_session (client_id, livemode, player_id, provider_id, game, currency_code, status, expires_at)
    select ${operator.account.id}, true, ${PLAYERS[f.player]}, id, ${freeGame}, ${CURRENCIES[f.currency]}, 'active', now() + interval '1 hour'
    from public.game_provider where slug = 'pragmatic-play'
    returning id`;
  const roundId = `free-${randomUUID()}`;
  const bet = `fb-${randomUUID()}`;
  const [placed] = await sql`select * from private.round_bet(${keyHash.pragmatic}, ${session.id}, ${bet}, ${roundId}, 1::numeric, false,
    ${sha(bet)}, ${grant.id})`;
  expect(placed.outcome, JSON.stringify(placed.body)).toBe('ok');
  const tx = `${f.end}-${randomUUID()}`;
  if (f.end === 'rollback') {
    const [back] = await sql`select * from private.round_rollback(${keyHash.pragmatic}, ${session.id}, ${tx}, ${bet}, ${sha(tx)})`;
    expect(back.outcome).toBe('ok');
  } else if (f.end === 'win') {
    const [won] = await sql`select * from private.round_win(${keyHash.pragmatic}, ${session.id}, ${tx}, ${roundId}, ${f.win}::numeric, true,
      null, ${sha(tx)}, ${grant.id})`;
    expect(won.outcome, JSON.stringify(won.body)).toBe('ok');
  } else {
    const [found] = await sql`select id from public.game_round where provider_round_id = ${roundId}`;
    await as(sql, people.mona, (t) => t`select * from public.resolve_round(${found.id}, 'close')`);
  }
}

const SPORTSBOOK_OUTCOME = /^(ok|wallet_call|bet_[a-z_]+|unknown_bet|invalid_settlement)$/;

/** Places one sportsbook bet and plays its steps through the engine, finishing its wallet calls as the runner would; its bet id. */
async function playBet(operator: Operator, b: BookBet): Promise<string> {
  const [session] = await sql`
    insert into public.game_session (client_id, livemode, player_id, provider_id, game, currency_code, status, expires_at)
    select ${operator.account.id}, true, ${PLAYERS[b.player]}, id, ${bookGame}, ${CURRENCIES[b.currency]}, 'active', now() + interval '1 hour'
    from public.game_provider where slug = 'pragmatic-play'
    returning id`;
  const bet = `sb-${randomUUID()}`;
  const stake = (b.stake / 10_000).toFixed(4);
  const potential = ((b.stake * 10) / 10_000).toFixed(4);
  const finish = async (answer: { outcome: string; body: Record<string, unknown> | null }, result: string, code: string | null = null) => {
    if (answer.outcome !== 'wallet_call') return;
    await sql`select * from private.finish_wallet_call(${answer.body!.call_id as string}::uuid, ${answer.body!.attempt as number}, ${result},
      ${result === 'accepted' ? '1000.0000' : '0.0000'}, ${code}, 'test')`;
  };
  const placed = await book.place(session.id, bet, `place-${randomUUID()}`, stake, { odds: '10', potential, twoPhase: b.twoPhase });
  expect(placed.outcome).toMatch(SPORTSBOOK_OUTCOME);
  await finish(placed, b.debit, b.debit === 'refused' ? 'insufficient_funds' : null);
  for (const step of b.steps) {
    const tx = `${step.op}-${randomUUID()}`;
    let answer;
    if (step.op === 'settle') {
      const payout = ((b.stake * step.tenths) / 10_000).toFixed(4);
      answer = await book.settle(bet, tx, step.tenths === 0 ? 'lost' : 'won', payout);
    } else if (step.op === 'unsettle') answer = await book.unsettle(bet, tx);
    else if (step.op === 'discard') answer = await book.discard(bet, tx);
    else answer = await book.commit(bet, tx);
    expect(answer.outcome).toMatch(SPORTSBOOK_OUTCOME);
    if (answer.outcome === 'wallet_call') {
      const [call] = await sql`select action from public.wallet_call where id = ${answer.body!.call_id as string}`;
      const refused = call.action === 'clawback' && step.clawback === 'refused';
      await finish(answer, refused ? 'refused' : 'accepted', refused ? 'insufficient_funds' : null);
    }
  }
  return bet;
}

/** Spreads each round's movements over past days, in order: as if the play had happened then. */
async function spreadOverDays(operator: Operator, rounds: { daysAgo: number; later: boolean[] }[], bets: [string, BookBet][] = []) {
  const ids = await sql`select r.id from public.game_round r where r.client_id = ${operator.account.id}
    and not exists (select 1 from public.sportsbook_bet b where b.round_id = r.id) order by r.opened_at, r.id`;
  await sql.begin(async (tx) => {
    for (const [betId, b] of bets) {
      const [found] = await tx`select id from public.game_round where provider_round_id = ${betId}`;
      if (!found) continue; // a stake refused: never placed
      let days = -b.daysAgo;
      await tx`update public.game_round set opened_at = opened_at + make_interval(days => ${days}) where id = ${found.id}`;
      await tx`update public.sportsbook_bet set placed_at = placed_at + make_interval(days => ${days}) where round_id = ${found.id}`;
      const moves = await tx`select id from public.round_transaction where round_id = ${found.id} order by created_at, id`;
      for (const [j, move] of moves.entries()) {
        if (j > 0 && b.later[j % b.later.length]) days = Math.min(0, days + 1);
        await tx`update public.round_transaction set created_at = created_at + make_interval(days => ${days}) where id = ${move.id}`;
        await tx`update public.wallet_call set created_at = created_at + make_interval(days => ${days}) where round_transaction_id = ${move.id}`;
      }
    }
    for (const [i, { id }] of ids.entries()) {
      const r = rounds[i];
      let days = -r.daysAgo;
      await tx`update public.game_round set opened_at = opened_at + make_interval(days => ${days}) where id = ${id}`;
      const moves = await tx`select id from public.round_transaction where round_id = ${id} order by created_at, id`;
      for (const [j, move] of moves.entries()) {
        if (j > 0 && r.later[j % r.later.length]) days = Math.min(0, days + 1);
        await tx`update public.round_transaction set created_at = created_at + make_interval(days => ${days}) where id = ${move.id}`;
        await tx`update public.wallet_call set created_at = created_at + make_interval(days => ${days}) where round_transaction_id = ${move.id}`;
      }
      await tx`update public.held_win set decided_at = decided_at + make_interval(days => ${Math.min(0, days + 1)})
        where round_id = ${id} and decided_at is not null`;
    }
  });
}

// ---- The oracle: the figures summed from the raw rows, in 1/10000ths (exact). ----
const units = (text: string) => BigInt(text.replace('.', '').replace(/^(-?)0+(?=\d)/, '$1'));
const money = (value: bigint) => {
  const sign = value < 0n ? '-' : '';
  const digits = (value < 0n ? -value : value).toString().padStart(5, '0');
  return `${sign}${digits.slice(0, -4)}.${digits.slice(-4)}`;
};

interface Movement {
  day: string;
  provider: string;
  game_id: string;
  currency: string;
  player_id: string;
  bets: bigint;
  betCount: number;
  wins: bigint;
  rolledBack: bigint;
  voided: bigint;
  rounds: number;
  freeRoundWins: bigint;
  sbStakes: bigint;
  sbBetCount: number;
  sbRefunded: bigint;
  sbPayouts: bigint;
}

async function rawMovements(clientId: string): Promise<Movement[]> {
  // Each settlement's and unsettlement's change of its bet's payout, from the bet's history.
  const changes = new Map<string, bigint>();
  for (const b of await sql`select round_id, settlements from public.sportsbook_bet where client_id = ${clientId} and livemode`) {
    let before = 0n;
    for (const entry of b.settlements as { type: string; transaction_id: string; payout?: string }[]) {
      if (entry.type !== 'settlement' && entry.type !== 'unsettlement') continue;
      const after = units(entry.payout!);
      const key = `${b.round_id} ${entry.transaction_id}`;
      changes.set(key, (changes.get(key) ?? 0n) + after - before);
      before = after;
    }
  }
  const rows = await sql`
    select t.kind, t.amount::text, t.transaction_id, t.round_id, t.related_id::text, to_char(t.created_at at time zone 'UTC', 'YYYY-MM-DD') as day,
           gp.slug as provider, gp.slug || ':' || r.game as game_id, r.currency_code as currency, r.player_id, r.wallet_mode,
           r.free_round_grant_id is not null as free, (select l.amount::text from public.transaction l where l.id = t.ledger_transaction_id) as paid,
           (select c.status from public.wallet_call c where c.round_transaction_id = t.id and c.action = 'debit') as debit,
           exists (select 1 from public.held_win h where h.round_transaction_id = t.id) as held
    from public.round_transaction t
    join public.game_round r on r.id = t.round_id
    join public.game_provider gp on gp.id = r.provider_id
    where t.client_id = ${clientId} and r.livemode`;
  const released = await sql`
    select h.amount::text, to_char(h.decided_at at time zone 'UTC', 'YYYY-MM-DD') as day, gp.slug as provider,
           gp.slug || ':' || r.game as game_id, r.currency_code as currency, r.player_id
    from public.held_win h join public.game_round r on r.id = h.round_id join public.game_provider gp on gp.id = r.provider_id
    where h.client_id = ${clientId} and h.status = 'released'`;
  const rounds = await sql`
    select to_char(r.opened_at at time zone 'UTC', 'YYYY-MM-DD') as day, gp.slug as provider, gp.slug || ':' || r.game as game_id,
           r.currency_code as currency, r.player_id
    from public.game_round r join public.game_provider gp on gp.id = r.provider_id
    where r.client_id = ${clientId} and r.livemode and not exists (select 1 from public.sportsbook_bet b where b.round_id = r.id)`;
  const zero = { bets: 0n, betCount: 0, wins: 0n, rolledBack: 0n, voided: 0n, rounds: 0, freeRoundWins: 0n, sbStakes: 0n, sbBetCount: 0, sbRefunded: 0n,
    sbPayouts: 0n };
  const key = (row: Record<string, string>) =>
    ({ day: row.day, provider: row.provider, game_id: row.game_id, currency: row.currency, player_id: row.player_id });
  return [
    ...rows.map((t) => {
      // A free round moves no money but what its wins paid (the float's movement: free rounds are played in transfer mode here).
      const moved = t.kind === 'bet' && !t.free && (t.wallet_mode === 'transfer' || t.debit === 'accepted');
      const voided = t.kind === 'rollback' && !t.free && t.transaction_id === `cgs-cancel-${t.related_id}`;
      const staked = t.kind === 'sportsbook_place' && (t.wallet_mode === 'transfer' || t.debit === 'accepted');
      return {
        ...key(t), ...zero,
        bets: moved ? units(t.amount) : 0n,
        betCount: moved ? 1 : 0,
        wins: t.kind === 'win' && !t.held && !t.free ? units(t.amount) : 0n,
        freeRoundWins: t.kind === 'win' && t.free ? units(t.paid ?? '0') : 0n,
        rolledBack: t.kind === 'rollback' && !voided && !t.free ? units(t.amount) : 0n,
        voided: voided ? units(t.amount) : 0n,
        sbStakes: staked ? units(t.amount) : 0n,
        sbBetCount: staked ? 1 : 0,
        sbRefunded: t.kind === 'sportsbook_discard' ? units(t.amount) : 0n,
        sbPayouts: t.kind === 'sportsbook_settle' || t.kind === 'sportsbook_unsettle' ? changes.get(`${t.round_id} ${t.transaction_id}`) ?? 0n : 0n,
      };
    }),
    ...released.map((h) => ({ ...key(h), ...zero, wins: units(h.amount) })),
    ...rounds.map((r) => ({ ...key(r), ...zero, rounds: 1 })),
  ];
}

type Dimension = 'day' | 'provider' | 'game' | 'currency' | 'player';
const FIELD: Record<Dimension, keyof Movement> = { day: 'day', provider: 'provider', game: 'game_id', currency: 'currency', player: 'player_id' };

/** The report's cells as the raw rows add up, in the API's shape. */
function expectedCells(movements: Movement[], groupBy: Dimension[], from: string, to: string) {
  const cells = new Map<string, { key: Record<string, string>; sums: Movement; players: Set<string> }>();
  for (const m of movements.filter((m) => m.day >= from && m.day <= to)) {
    const dims = [...new Set<Dimension>([...groupBy, 'currency'])];
    const key = Object.fromEntries(dims.map((d) => [FIELD[d], m[FIELD[d]] as string]));
    const id = JSON.stringify(Object.entries(key).sort());
    const cell = cells.get(id) ?? { key, sums: { ...m, bets: 0n, betCount: 0, wins: 0n, rolledBack: 0n, voided: 0n, rounds: 0, freeRoundWins: 0n, sbStakes: 0n,
      sbBetCount: 0, sbRefunded: 0n, sbPayouts: 0n }, players: new Set() };
    cell.sums.bets += m.bets;
    cell.sums.wins += m.wins;
    cell.sums.rolledBack += m.rolledBack;
    cell.sums.voided += m.voided;
    cell.sums.rounds += m.rounds;
    cell.sums.freeRoundWins += m.freeRoundWins;
    cell.sums.sbStakes += m.sbStakes;
    cell.sums.sbBetCount += m.sbBetCount;
    cell.sums.sbRefunded += m.sbRefunded;
    cell.sums.sbPayouts += m.sbPayouts;
    if (m.betCount > 0) cell.players.add(m.player_id);
    cells.set(id, cell);
  }
  return [...cells.values()].map(({ key, sums, players }) => ({
    ...key, bets: money(sums.bets), wins: money(sums.wins), free_round_wins: money(sums.freeRoundWins), rolled_back: money(sums.rolledBack),
    voided: money(sums.voided), ggr: money(sums.bets - sums.rolledBack - sums.voided - sums.wins), rounds: sums.rounds, players: players.size,
    sportsbook: sums.sbBetCount === 0 && sums.sbRefunded === 0n && sums.sbPayouts === 0n ? null : {
      bets: sums.sbBetCount, stakes: money(sums.sbStakes), refunded: money(sums.sbRefunded), payouts: money(sums.sbPayouts),
      ggr: money(sums.sbStakes - sums.sbRefunded - sums.sbPayouts),
    },
  }));
}

const byKey = (cells: Record<string, unknown>[]) =>
  [...cells].sort((a, b) => JSON.stringify([a.day, a.provider, a.game_id, a.currency, a.player_id])
    .localeCompare(JSON.stringify([b.day, b.provider, b.game_id, b.currency, b.player_id])));

async function report(operator: Operator, query: string) {
  const response = await handle(new Request(`http://api.test/v3/reports/ggr?${query}`, { headers: { authorization: `Bearer ${operator.key}` } }));
  const body = await response.json();
  expectResponseMatches('getGgrReport', response, body);
  expect(response.status, JSON.stringify(body)).toBe(200);
  return body as { data: Record<string, unknown>[]; totals: Record<string, unknown>[] };
}

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

async function checkEveryCell(operator: Operator) {
  const movements = await rawMovements(operator.account.id);
  const [from, to] = [day(-8), day(1)];
  const limited = `pragmatic-play:${limitedGame}`;
  const views: [string, Dimension[], (m: Movement) => boolean][] = [
    ['', [], () => true],
    ['&group_by=day', ['day'], () => true],
    ['&group_by=day,provider', ['day', 'provider'], () => true],
    ['&group_by=game,player', ['game', 'player'], () => true],
    ['&group_by=player,currency,game,provider,day', ['day', 'provider', 'game', 'currency', 'player'], () => true],
    ['&group_by=day&currency=EUR', ['day'], (m) => m.currency === 'EUR'],
    ['&group_by=player&provider=spribe', ['player'], (m) => m.provider === 'spribe'],
    [`&group_by=day&game_id=${limited}`, ['day'], (m) => m.game_id === limited],
    // Closed days by day are read from the roll-up's cells at the grain the grouping and filters need.
    ['&group_by=day,game', ['day', 'game'], () => true],
    ['&group_by=day&provider=spribe', ['day'], (m) => m.provider === 'spribe'],
    [`&group_by=day,provider&game_id=${limited}`, ['day', 'provider'], (m) => m.game_id === limited],
    // Without filters, closed days are read whole (their fragments, totals and players' days).
    ['&group_by=day,provider,game', ['day', 'provider', 'game'], () => true],
    ['&group_by=currency,day', ['day'], () => true],
  ];
  for (const [query, groupBy, filter] of views) {
    const body = await report(operator, `from=${from}&to=${to}${query}`);
    expect(byKey(body.data), query).toEqual(byKey(expectedCells(movements.filter(filter), groupBy, from, to)));
    expect(byKey(body.totals), query).toEqual(byKey(expectedCells(movements.filter(filter), [], from, to)));
  }
  // A window of some days only: the days outside it count nowhere.
  for (const groupBy of ['day', 'day,provider']) {
    const some = await report(operator, `from=${day(-4)}&to=${day(-2)}&group_by=${groupBy}`);
    const dims = groupBy.split(',') as Dimension[];
    expect(byKey(some.data), groupBy).toEqual(byKey(expectedCells(movements, dims, day(-4), day(-2))));
    expect(byKey(some.totals), groupBy).toEqual(byKey(expectedCells(movements, [], day(-4), day(-2))));
  }
  return movements;
}

describe('GGR reports against the raw rows', () => {
  it('equal a sum over the raw rows in every cell, read live and again rolled up, and the rounds\' own totals', async () => {
    await fc.assert(fc.asyncProperty(play, async ({ transfer, free, seamless, bookTransfer, bookSeamless }) => {
      const operator = await newOperator(sql, 'reports');
      for (const currency of CURRENCIES) {
        await sql`insert into public.wallet (client_id, currency_code, is_primary) values (${operator.account.id}, ${currency}, ${currency === 'EUR'})`;
        await sql`select * from public.record_transaction(${operator.account.id}::uuid, ${currency}, 'deposit', 1000000::numeric)`;
      }
      const bets: [string, BookBet][] = [];
      for (const r of transfer) await playRound(operator, r);
      for (const f of free) await playFreeRound(operator, f);
      for (const b of bookTransfer) bets.push([await playBet(operator, b), b]);
      if (seamless.length || bookSeamless.length) {
        const [changed] = await sql`select * from private.change_wallet_settings(${operator.account.id}, true, 'seamless',
          'https://wallet.example/cgs', false)`;
        expect(changed.outcome).toBe('updated');
        for (const r of seamless) await playRound(operator, r);
        for (const b of bookSeamless) bets.push([await playBet(operator, b), b]);
      }
      await spreadOverDays(operator, [...transfer, ...free, ...seamless], bets);

      // Read live (nothing rolled up: the report function rolls up before reading, so first
      // the raw-row function itself), then through the API, which rolls the closed days up.
      const live = await sql<Record<string, string>[]>`
        select c.day::text, gp.slug as provider, gp.slug || ':' || c.game as game_id, c.currency_code as currency, c.player_id,
               c.bets::text, c.bet_count::int, c.wins::text, c.free_round_wins::text, c.rolled_back::text, c.voided::text, c.rounds::int,
               c.sportsbook_stakes::text, c.sportsbook_bet_count::int, c.sportsbook_refunded::text, c.sportsbook_payouts::text
        from private.ggr_cells(${operator.account.id}, true, now() - interval '30 days', now() + interval '1 day') c
        join public.game_provider gp on gp.id = c.provider_id`;
      const all: Dimension[] = ['day', 'provider', 'game', 'currency', 'player'];
      const raw = await rawMovements(operator.account.id);
      expect(byKey(expectedCells(live.map((c) => ({
        ...c, bets: units(c.bets), betCount: Number(c.bet_count), wins: units(c.wins), freeRoundWins: units(c.free_round_wins), rolledBack: units(c.rolled_back),
        voided: units(c.voided), rounds: Number(c.rounds), sbStakes: units(c.sportsbook_stakes), sbBetCount: Number(c.sportsbook_bet_count),
        sbRefunded: units(c.sportsbook_refunded), sbPayouts: units(c.sportsbook_payouts),
      } as Movement)), all, day(-30), day(1)))).toEqual(byKey(expectedCells(raw, all, day(-30), day(1))));
      const movements = await checkEveryCell(operator);
      const [rolled] = await sql`select through from private.ggr_rolled_up where client_id = ${operator.account.id}`;
      expect(rolled?.through ?? null).not.toBeNull();
      // The cells of the closed days: one per day and currency, per day, provider and currency, and
      // per day, game and currency of the roll-up's rows, none missing and none twice.
      const [cells] = await sql`
        select (select count(*) from private.ggr_day_cell where client_id = ${operator.account.id})::int as written,
               (select count(distinct (d.day, d.currency_code)) + count(distinct (d.day, d.provider_id, d.currency_code))
                       + count(distinct (d.day, d.provider_id, d.game, d.currency_code))
                from private.ggr_day d where d.client_id = ${operator.account.id})::int as expected`;
      expect(cells.written).toBe(cells.expected);
      // And what a report by day reads whole: a fragment per closed day and grouping, a total per
      // day and currency, a player's days once per currency.
      const [whole] = await sql`
        select (select count(*) from private.ggr_day_fragment where client_id = ${operator.account.id})::int as fragments,
               (select count(*) from private.ggr_day_total where client_id = ${operator.account.id})::int as totals,
               (select count(*) from private.ggr_player_days where client_id = ${operator.account.id})::int as players,
               (select 4 * count(distinct d.day) from private.ggr_day d where d.client_id = ${operator.account.id})::int as days,
               (select count(distinct (d.day, d.currency_code)) from private.ggr_day d where d.client_id = ${operator.account.id})::int
                 as day_currencies,
               (select count(distinct (d.currency_code, d.player_id)) from private.ggr_day d
                where d.client_id = ${operator.account.id} and d.bet_count > 0)::int as bettors`;
      expect(whole).toEqual({ fragments: whole.days, totals: whole.day_currencies, players: whole.bettors,
        days: whole.days, day_currencies: whole.day_currencies, bettors: whole.bettors });
      await checkEveryCell(operator);

      // The rounds' own totals, kept by the engine: bets net of rollbacks and voids, wins paid.
      const totals = await sql`select r.currency_code as currency, sum(r.total_bet)::text as bet, sum(r.total_win)::text as win,
          b.round_id is not null as sportsbook, sum(b.payout)::text as payout, r.free_round_grant_id is not null as free
        from public.game_round r left join public.sportsbook_bet b on b.round_id = r.id
        where r.client_id = ${operator.account.id} group by 1, 4, 6`;
      for (const t of totals) {
        const mine = movements.filter((m) => m.currency === t.currency);
        const sum = (f: (m: Movement) => bigint) => mine.reduce((s, m) => s + f(m), 0n);
        if (t.free) {
          // What free rounds paid is their rounds' wins.
          expect(money(sum((m) => m.freeRoundWins))).toBe(money(units(t.win)));
        } else if (t.sportsbook) {
          // A bet's stake stands unless given back (its round's total_bet is 0 once discarded); its payout is the one in force.
          expect(money(sum((m) => m.sbStakes - m.sbRefunded))).toBe(money(units(t.bet)));
          expect(money(sum((m) => m.sbPayouts))).toBe(money(units(t.payout)));
        } else {
          expect(money(sum((m) => m.bets - m.rolledBack - m.voided))).toBe(money(units(t.bet)));
          expect(money(sum((m) => m.wins))).toBe(money(units(t.win)));
        }
      }
      // And the grants' own: what each grant's rounds paid.
      const grants = await sql`select c.currency_code as currency, sum(g.total_win)::text as paid from public.free_round_grant g
        join public.free_round_campaign c on c.id = g.campaign_id where g.client_id = ${operator.account.id} group by 1`;
      for (const g of grants) {
        expect(money(movements.filter((m) => m.currency === g.currency).reduce((s, m) => s + m.freeRoundWins, 0n))).toBe(money(units(g.paid)));
      }
    }), {
      numRuns: 12,
      // Always among them: one player on two games of one closed day (a day's cell counts them once).
      examples: [[{ transfer: [0, 1].map((game) => ({
        seamless: false, game, player: 0, currency: 0, bets: [{ amount: '1.0000', debit: 'accepted', rolledBack: false }],
        end: 'win', win: '0.5000', creditAccepted: true, review: 'none', daysAgo: 2, later: Array<boolean>(12).fill(false),
      } as Round)), free: [], seamless: [], bookTransfer: [], bookSeamless: [] }],
      // A bet settled, resettled lower and unsettled on later days, and one discarded; in seamless
      // mode one whose clawback is owed and one whose stake was never answered.
      [{ transfer: [], free: [
        { player: 0, currency: 0, end: 'win', win: '80.0000', maxWin: '25.0000', daysAgo: 2, later: Array<boolean>(12).fill(true) },
        { player: 1, currency: 1, end: 'win', win: '3.5000', maxWin: undefined, daysAgo: 1, later: Array<boolean>(12).fill(false) },
        { player: 2, currency: 0, end: 'rollback', win: '0.0000', maxWin: undefined, daysAgo: 3, later: Array<boolean>(12).fill(true) },
      ], seamless: [], bookTransfer: [
        { seamless: false, player: 0, currency: 0, stake: 20_000, twoPhase: false, debit: 'accepted', daysAgo: 3, later: Array<boolean>(12).fill(true),
          steps: [{ op: 'settle', tenths: 10, clawback: 'accepted' }, { op: 'settle', tenths: 3, clawback: 'accepted' },
            { op: 'unsettle', tenths: 0, clawback: 'accepted' }] },
        { seamless: false, player: 1, currency: 0, stake: 10_000, twoPhase: true, debit: 'accepted', daysAgo: 2, later: Array<boolean>(12).fill(true),
          steps: [{ op: 'discard', tenths: 0, clawback: 'accepted' }] },
      ], bookSeamless: [
        { seamless: true, player: 2, currency: 1, stake: 30_000, twoPhase: false, debit: 'accepted', daysAgo: 1, later: Array<boolean>(12).fill(true),
          steps: [{ op: 'settle', tenths: 8, clawback: 'accepted' }, { op: 'settle', tenths: 1, clawback: 'refused' }] },
        { seamless: true, player: 0, currency: 0, stake: 5_000, twoPhase: false, debit: 'failed', daysAgo: 1, later: Array<boolean>(12).fill(false),
          steps: [] },
      ] }]],
    });
  }, 600_000);
});
