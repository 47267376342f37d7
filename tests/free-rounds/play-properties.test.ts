// Free rounds in both wallet modes, through the provider API against a database of its own: in
// seamless mode a free bet makes no debit (a balance call answers it), a free win is a credit naming
// the grant, a rollback of a free bet calls nobody, and a lump-sum payout is one credit. Then a
// property (fast-check): random interleavings of free bets, wins, rollbacks, payouts, repeats,
// cancels and expiries over grants of both payout modes, in both wallet modes, against a model:
// every answer is the one the model predicts (so no grant plays past its rounds or after it ends),
// no grant pays past max_win or twice, and the float, or the reference wallet, moves by exactly
// what the grants paid.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { Sql } from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDeliveries } from '../../supabase/functions/deliver/deliveries.ts';
import { createApp } from '../../supabase/functions/v3/app.ts';
import { createSessionTokenSigner } from '../../supabase/functions/v3/session-token.ts';
import { expectResponseMatches, type OperationId } from '../openapi/contract.ts';
import { type ReferenceWallet, startReferenceWallet } from '../helpers/reference-wallet.ts';
import { isolatedDatabase, newOperator, type Operator } from '../helpers/api.ts';
import { launchToken } from '../helpers/provider-api.ts';

let owner: Sql;
let endpoint: Sql;
let handle: (request: Request) => Promise<Response>;
let providerKey: string;
let wallet: ReferenceWallet;
let seamlessOperator: Operator;
let games: { perRound: string; lumpSum: string };

const id = (prefix: string) => `${prefix}-${randomUUID()}`;
const days = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString();

beforeAll(async () => {
  ({ owner, endpoint } = await isolatedDatabase('free_round_play'));
  const signer = await createSessionTokenSigner({ issuer: 'https://cgs.test' });
  handle = createApp({ sql: endpoint, signer, config: { allowPrivateUrls: true, walletTimeoutMs: 2_000 } });
  providerKey = (await owner`select key from public.issue_provider_key('pragmatic-play')`)[0].key;
  const newGame = async (mode: string) => {
    const code = `frq-${randomUUID().slice(0, 8)}`;
    const [game] = await owner`insert into public.game (provider_id, code, name, category, currencies)
      select id, ${code}, 'Free Round Property', 'slots', '{}' from public.game_provider where slug = 'pragmatic-play' returning id`;
    await owner`insert into public.game_free_rounds (game_id, payout_mode, max_rounds, max_validity_days, stakes)
                values (${game.id}, ${mode}, 100, 30, ${owner.json({ EUR: [1] })})`;
    return `pragmatic-play:${code}`;
  };
  games = { perRound: await newGame('per_round'), lumpSum: await newGame('lump_sum') };
  seamlessOperator = await newOperator(owner, 'free-rounds-seamless');
  const setTo = (url: string) => owner`
    select * from private.change_wallet_settings(${seamlessOperator.account.id}, true, 'seamless', ${url}, false)`;
  const [{ secret }] = await setTo('https://wallet.operator.test/');
  wallet = await startReferenceWallet(secret);
  await setTo(wallet.url);
});
afterAll(() => wallet?.close());

interface Answer { status: number; text: string; body: Record<string, unknown>; replayed: string | null }

async function api(method: string, path: string, operation: OperationId, body?: unknown, key = providerKey): Promise<Answer> {
  const response = await handle(new Request(`http://api.test/v3${path}`, {
    method, headers: { authorization: `Bearer ${key}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  }));
  const text = await response.text();
  expectResponseMatches(operation, response, JSON.parse(text));
  return { status: response.status, text, body: JSON.parse(text), replayed: response.headers.get('idempotent-replayed') };
}

type Call = { path: 'bets' | 'wins' | 'rollbacks' | 'payout'; grant?: string; body: object };
const operations = { bets: 'providerBet', wins: 'providerWin', rollbacks: 'providerRollback', payout: 'providerFreeRoundPayout' } as const;
const send = (call: Call) => call.path === 'payout'
  ? api('POST', `/provider/free-rounds/${call.grant}/payout`, operations.payout, call.body)
  : api('POST', `/provider/${call.path}`, operations[call.path], call.body);

/** A campaign of `operator`'s for each of `players` on `game`; each player's grant id. */
async function grantsFor(operator: Operator, game: string, players: string[], rounds: number, maxWin?: string): Promise<{ campaign: string; grants: string[] }> {
  const created = await api('POST', '/free-rounds/campaigns', 'createFreeRoundCampaign', {
    external_id: id('campaign'), name: 'Property', game_ids: [game], currency: 'EUR', bet_amount: '1', rounds, valid_until: days(7),
    player_ids: players, ...(maxWin ? { max_win: maxWin } : {}),
  }, operator.key);
  expect(created.status).toBe(201);
  const rows = await owner`select id, player_id from public.free_round_grant where campaign_id = ${created.body.id as string}`;
  return { campaign: created.body.id as string, grants: players.map((p) => rows.find((r) => r.player_id === p)!.id as string) };
}

const grantRow = async (grant: string) => (await owner`select * from public.free_round_grant where id = ${grant}`)[0];

describe('free rounds in seamless mode', () => {
  it('a free bet makes no debit, a free win is a credit naming the grant, a rollback of a free bet calls nobody', async () => {
    const player = id('player');
    const { campaign, grants: [grant] } = await grantsFor(seamlessOperator, games.perRound, [player], 3, '5');
    const token = await launchToken(handle, seamlessOperator, { player_id: player, game_id: games.perRound });
    const [external] = await owner`select external_id from public.free_round_campaign where id = ${campaign}`;
    const [b, round] = [id('fb'), id('round')];
    const placed = await send({ path: 'bets', body: { session_token: token, transaction_id: b, round_id: round, amount: '1', free_round_grant_id: grant } });
    expect(placed).toMatchObject({ status: 200, body: { balance: '100.0000' } });
    expect(wallet.calls.filter((c) => c.player_id === player).map((c) => c.action)).toEqual(['balance']);
    const w = id('w');
    const won = await send({ path: 'wins', body: { session_token: token, transaction_id: w, round_id: round, amount: '7', round_closed: true } });
    // Capped at max_win: 5 of the 7 credited.
    expect(won).toMatchObject({ status: 200, body: { balance: '105.0000' } });
    const credit = wallet.calls.find((c) => c.player_id === player && c.action === 'credit')!;
    expect(credit).toMatchObject({ amount: '5.0000', transaction_id: `pragmatic-play:${w}`, free_round: { grant_id: grant, campaign_external_id: external.external_id } });
    expect(wallet.balance(player)).toBe('105.0000');
    const b2 = id('fb');
    await send({ path: 'bets', body: { session_token: token, transaction_id: b2, round_id: id('round'), amount: '1', free_round_grant_id: grant } });
    const rb = await send({ path: 'rollbacks', body: { session_token: token, transaction_id: id('rb'), rolled_back_transaction_id: b2 } });
    expect(rb).toMatchObject({ status: 200, body: { balance: '105.0000' } });
    expect(wallet.calls.filter((c) => c.player_id === player).map((c) => c.action)).toEqual(['balance', 'credit', 'balance']);
    expect(await grantRow(grant)).toMatchObject({ rounds_used: 1, total_win: '5.0000', capped_win: '2.0000' });
  });

  it('a lump-sum payout is one credit naming the grant, replayed to a repeat without another call', async () => {
    const player = id('player');
    const { grants: [grant] } = await grantsFor(seamlessOperator, games.lumpSum, [player], 1);
    const token = await launchToken(handle, seamlessOperator, { player_id: player, game_id: games.lumpSum });
    const round = id('round');
    await send({ path: 'bets', body: { session_token: token, transaction_id: id('fb'), round_id: round, amount: '1', free_round_grant_id: grant } });
    await send({ path: 'wins', body: { session_token: token, transaction_id: id('w'), round_id: round, amount: '3', round_closed: true } });
    expect(wallet.calls.filter((c) => c.player_id === player).map((c) => c.action)).toEqual(['balance']);
    const pay = { path: 'payout' as const, grant, body: { transaction_id: id('pay'), amount: '3' } };
    const paid = await send(pay);
    expect(paid).toMatchObject({ status: 200, body: { balance: '103.0000' } });
    expect(await send(pay)).toMatchObject({ status: 200, text: paid.text, replayed: 'true' });
    expect(wallet.calls.filter((c) => c.player_id === player && c.action === 'credit')).toMatchObject([{ amount: '3.0000', free_round: { grant_id: grant } }]);
    expect(wallet.balance(player)).toBe('103.0000');
    expect(await grantRow(grant)).toMatchObject({ status: 'completed', total_win: '3.0000' });
  });
  it("a free bet whose balance call the operator does not answer is refused 502 wallet_unavailable, writing nothing, and plays once it answers", async () => {
    const player = id('player');
    const { grants: [grant] } = await grantsFor(seamlessOperator, games.perRound, [player], 2);
    const token = await launchToken(handle, seamlessOperator, { player_id: player, game_id: games.perRound });
    const free = { path: 'bets' as const, body: { session_token: token, transaction_id: id('fb'), round_id: id('round'), amount: '1', free_round_grant_id: grant } };
    wallet.fault = (call) => (call.action === 'balance' ? 'error' : 'none');
    try {
      expect(await send(free)).toMatchObject({ status: 502, body: { code: 'wallet_unavailable', retryable: true } });
    } finally {
      wallet.fault = undefined;
    }
    expect((await owner`select count(*)::int as n from public.round_transaction where transaction_id = ${free.body.transaction_id}`)[0].n).toBe(0);
    expect(await grantRow(grant)).toMatchObject({ rounds_used: 0 });
    expect(await send(free)).toMatchObject({ status: 200, body: { balance: '100.0000' } });
    expect(wallet.calls.filter((c) => c.player_id === player).map((c) => c.action)).toEqual(['balance', 'balance']);
    expect(await grantRow(grant)).toMatchObject({ rounds_used: 1 });
  });
});

describe('the delivery runner', () => {
  it('records a grant past its expiry as expired, with its event (time alone already made it so)', async () => {
    const player = id('player');
    const { grants: [grant] } = await grantsFor(seamlessOperator, games.perRound, [player], 1);
    await owner`update public.free_round_grant set expires_at = now() - interval '1 second' where id = ${grant}`;
    expect((await runDeliveries(endpoint, { allowPrivateUrls: true })).free_round_ends).toBeGreaterThanOrEqual(1);
    expect((await grantRow(grant)).status).toBe('expired');
    expect((await owner`select count(*)::int as n from public.event where type = 'free_rounds.grant.expired' and data->>'id' = ${grant}`)[0].n).toBe(1);
  });
});

// The property's model of one grant: what the engine must answer, and what it must have paid.
interface ModelGrant {
  grant: string; campaign: string; token: string; player: string; perRound: boolean; rounds: number; maxWin: number | null;
  used: number; open: { round: string; bet: string }[]; cancelled: boolean; expired: boolean; paid: boolean; played: boolean; total: number;
}

type Command =
  | { kind: 'bet'; g: number } | { kind: 'win'; g: number; k: number; amount: number } | { kind: 'rollback'; g: number; k: number }
  | { kind: 'payout'; g: number; amount: number } | { kind: 'cancel'; g: number } | { kind: 'expire'; g: number } | { kind: 'repeat' };

const command: fc.Arbitrary<Command> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('bet' as const), g: fc.nat(2) }), weight: 5 },
  { arbitrary: fc.record({ kind: fc.constant('win' as const), g: fc.nat(2), k: fc.nat(3), amount: fc.integer({ min: 0, max: 8 }) }), weight: 4 },
  { arbitrary: fc.record({ kind: fc.constant('rollback' as const), g: fc.nat(2), k: fc.nat(3) }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('payout' as const), g: fc.nat(2), amount: fc.integer({ min: 0, max: 12 }) }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('cancel' as const), g: fc.nat(2) }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('expire' as const), g: fc.nat(2) }), weight: 1 },
  { arbitrary: fc.constant({ kind: 'repeat' as const }), weight: 2 },
);

async function runModel(mode: 'transfer' | 'seamless', commands: Command[]) {
  const operator = mode === 'seamless' ? seamlessOperator : await newOperator(owner, 'free-rounds-property');
  if (mode === 'transfer') {
    await owner`insert into public.wallet (client_id, currency_code, is_primary) values (${operator.account.id}, 'EUR', true)`;
  }
  // Three grants, each its own campaign and player: per round with max_win 6, per round without, lump sum with max_win 9.
  const specs = [{ game: games.perRound, maxWin: 6 }, { game: games.perRound, maxWin: null }, { game: games.lumpSum, maxWin: 9 }];
  const model: ModelGrant[] = [];
  for (const spec of specs) {
    const player = id('player');
    const made = await grantsFor(operator, spec.game, [player], 3, spec.maxWin === null ? undefined : String(spec.maxWin));
    model.push({
      grant: made.grants[0], campaign: made.campaign, player, token: await launchToken(handle, operator, { player_id: player, game_id: spec.game }),
      perRound: spec.game === games.perRound, rounds: 3, maxWin: spec.maxWin, used: 0, open: [], cancelled: false, expired: false,
      paid: false, played: false, total: 0,
    });
  }
  const floatOf = async () => Number((await owner`select coalesce(sum(balance), 0)::text as b from public.wallet where client_id = ${operator.account.id}`)[0].b);
  const before = mode === 'transfer' ? await floatOf() : 0;
  let last: { call: Call; answer: Answer } | null = null;
  const pay = (g: ModelGrant, amount: number) => {
    const paid = g.maxWin === null ? amount : Math.min(amount, Math.max(g.maxWin - g.total, 0));
    g.total += paid;
  };
  for (const c of commands) {
    if (c.kind === 'repeat') {
      if (!last) continue;
      const again = await send(last.call);
      expect(again.status).toBe(last.answer.status);
      if (last.answer.status === 200) expect(again).toMatchObject({ text: last.answer.text, replayed: 'true' });
      else expect(again.body.code).toBe(last.answer.body.code);
      continue;
    }
    const g = model[c.g];
    const playable = !g.cancelled && !g.expired && !g.paid;
    if (c.kind === 'cancel') {
      await api('POST', `/free-rounds/campaigns/${g.campaign}/cancel`, 'cancelFreeRoundCampaign', undefined, operator.key);
      g.cancelled = true;
      last = null;
    } else if (c.kind === 'expire') {
      await owner`update public.free_round_grant set expires_at = now() - interval '1 second' where id = ${g.grant}`;
      g.expired = true;
      last = null;
    } else if (c.kind === 'bet') {
      const [bet, round] = [id('fb'), id('round')];
      const call: Call = { path: 'bets', body: { session_token: g.token, transaction_id: bet, round_id: round, amount: '1', free_round_grant_id: g.grant } };
      const answer = await send(call);
      // A grant completed (paid out, or every round used and settled) stays completed past its expiry.
      const completed = g.paid || (g.perRound && g.used >= g.rounds && g.open.length === 0);
      const expected = g.cancelled ? 'free_round_campaign_cancelled' : g.expired && !completed ? 'free_round_grant_expired'
        : completed || g.used >= g.rounds ? 'free_rounds_exhausted' : null;
      expect(answer.body.code ?? null).toBe(expected);
      if (!expected) {
        g.used += 1;
        g.open.push({ round, bet });
        g.played = true;
      }
      last = { call, answer };
    } else if (c.kind === 'win' || c.kind === 'rollback') {
      if (!g.open.length) continue;
      const [open] = g.open.splice(c.k % g.open.length, 1);
      const call: Call = c.kind === 'win'
        ? { path: 'wins', body: { session_token: g.token, transaction_id: id('w'), round_id: open.round, amount: String(c.amount), round_closed: true } }
        : { path: 'rollbacks', body: { session_token: g.token, transaction_id: id('rb'), rolled_back_transaction_id: open.bet } };
      const answer = await send(call);
      expect(answer.status).toBe(200);
      if (c.kind === 'win' && g.perRound) pay(g, c.amount);
      if (c.kind === 'rollback' && playable) g.used -= 1;
      last = { call, answer };
    } else {
      const call: Call = { path: 'payout', grant: g.grant, body: { transaction_id: id('pay'), amount: String(c.amount) } };
      const answer = await send(call);
      const expected = !g.played ? 'free_round_not_played' : g.perRound ? 'free_round_not_lump_sum' : g.paid ? 'free_round_already_paid'
        : g.open.length > 0 || (g.used < g.rounds && !g.cancelled && !g.expired) ? 'free_rounds_left' : null;
      expect(answer.body.code ?? null).toBe(expected);
      if (!expected) {
        pay(g, c.amount);
        g.paid = true;
      }
      last = { call, answer };
    }
  }
  for (const g of model) {
    const row = await grantRow(g.grant);
    expect(Number(row.total_win)).toBe(g.total);
    if (g.maxWin !== null) expect(Number(row.total_win)).toBeLessThanOrEqual(g.maxWin);
    expect(row.rounds_used).toBe(g.used);
    expect(row.rounds_used).toBeLessThanOrEqual(g.rounds);
    expect(row.rounds_open).toBe(g.open.length);
  }
  const paid = model.reduce((sum, g) => sum + g.total, 0);
  if (mode === 'transfer') {
    expect(await floatOf() - before).toBe(paid);
    const ledger = await owner`select type, count(*)::int as n from public.transaction where client_id = ${operator.account.id} group by type`;
    expect(ledger.every((row) => row.type === 'win')).toBe(true);
  } else {
    for (const g of model) {
      expect(wallet.balance(g.player)).toBe((100 + g.total).toFixed(4));
      expect(wallet.calls.filter((call) => call.player_id === g.player && call.action === 'debit')).toEqual([]);
    }
  }
}

describe.each(['transfer', 'seamless'] as const)('free rounds against a model (%s)', (mode) => {
  it('every answer as the model predicts; no grant pays past max_win or twice; the money moved is what the grants paid', async () => {
    await fc.assert(fc.asyncProperty(fc.array(command, { minLength: 5, maxLength: 30 }), (commands) => runModel(mode, commands)),
      { numRuns: 12, endOnFailure: true });
  }, 300_000);
});
