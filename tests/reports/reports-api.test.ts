// GET /v3/reports/ggr and GET /v3/reconciliation/transactions in-process against the test database:
// rounds played through the provider API, each answer held to the OpenAPI document; a late rollback
// counts in its own day and a report read again shows it; test and live apart, and another client
// sees nothing; reconciliation lines with what they moved, daily totals, cursor pages, and one CSV
// that a spreadsheet opens as text (RFC 4180 quoting, formula cells guarded).
import { createHash, randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectResponseMatches } from '../openapi/contract.ts';
import { connect } from '../helpers/db.ts';
import { issueKey, newOperator, type Operator, sessionsHandler, validBody } from '../helpers/api.ts';
import { launchToken, providerCalls } from '../helpers/provider-api.ts';
import { engine, sportsbookGame } from '../sportsbook/sportsbook.ts';

const sql = connect();
const { handle } = await sessionsHandler();
let operator: Operator;
let post: ReturnType<typeof providerCalls>;
const id = (prefix: string) => `${prefix}-${randomUUID()}`;
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

beforeAll(async () => {
  operator = await newOperator(sql, 'reports-api');
  await sql`insert into public.wallet (client_id, currency_code, is_primary) values (${operator.account.id}, 'EUR', true)`;
  await sql`select * from public.record_transaction(${operator.account.id}::uuid, 'EUR', 'deposit', 500::numeric)`;
  post = providerCalls(handle, (await sql`select key from public.issue_provider_key('pragmatic-play')`)[0].key);
});

async function get(path: string, key = operator.key, headers: Record<string, string> = {}) {
  const response = await handle(new Request(`http://api.test/v3${path}`, { headers: { authorization: `Bearer ${key}`, ...headers } }));
  if (response.headers.get('content-type')?.startsWith('text/csv')) {
    // As a spreadsheet reads it: the byte-order mark kept.
    return { status: response.status, response, body: null, text: new TextDecoder('utf-8', { ignoreBOM: true }).decode(await response.arrayBuffer()) };
  }
  const body = await response.json();
  expectResponseMatches(path.startsWith('/reports/') ? 'getGgrReport' : 'listReconciliationTransactions', response, body);
  return { status: response.status, response, body, text: null as string | null };
}

/** Moves a round's rows `days` days back, as if it had been played then. */
async function playedDaysAgo(round: string, days: number) {
  await sql.begin(async (tx) => {
    const [r] = await tx`update public.game_round set opened_at = opened_at - make_interval(days => ${days})
      where provider_round_id = ${round} returning id`;
    await tx`update public.round_transaction set created_at = created_at - make_interval(days => ${days}) where round_id = ${r.id}`;
  });
}

describe('GET /v3/reports/ggr', () => {
  it('counts a late rollback in the day it happened, and a report read again shows it', async () => {
    const own = await newOperator(sql, 'late');
    await sql`insert into public.wallet (client_id, currency_code, is_primary) values (${own.account.id}, 'EUR', true)`;
    await sql`select * from public.record_transaction(${own.account.id}::uuid, 'EUR', 'deposit', 100::numeric)`;
    const token = await launchToken(handle, own);
    const [bet, round] = [id('bet'), id('round')];
    expect((await post('bets', { session_token: token, transaction_id: bet, round_id: round, amount: '7.25' })).status).toBe(200);
    await playedDaysAgo(round, 2);
    const query = `/reports/ggr?from=${day(-3)}&to=${day(0)}&group_by=day`;
    const before = await get(query, own.key);
    expect(before.body.data).toEqual([{
      day: day(-2), currency: 'EUR', bets: '7.2500', wins: '0.0000', free_round_wins: '0.0000', rolled_back: '0.0000', voided: '0.0000',
      ggr: '7.2500', rounds: 1, players: 1, sportsbook: null,
    }]);
    expect((await post('rollbacks', { session_token: token, transaction_id: id('rb'), rolled_back_transaction_id: bet })).status).toBe(200);
    const after = await get(query, own.key);
    expect(after.body.data).toEqual([
      before.body.data[0],
      { day: day(0), currency: 'EUR', bets: '0.0000', wins: '0.0000', free_round_wins: '0.0000', rolled_back: '7.2500', voided: '0.0000',
        ggr: '-7.2500', rounds: 0, players: 0, sportsbook: null },
    ]);
    expect(after.body.totals).toEqual([{ currency: 'EUR', bets: '7.2500', wins: '0.0000', free_round_wins: '0.0000', rolled_back: '7.2500',
      voided: '0.0000', ggr: '0.0000', rounds: 1, players: 1, sportsbook: null }]);
  });

  it('reports test and live play apart, and another client\'s as nothing', async () => {
    const token = await launchToken(handle, operator);
    const round = id('round');
    await post('bets', { session_token: token, transaction_id: id('bet'), round_id: round, amount: '3' });
    await post('wins', { session_token: token, transaction_id: id('win'), round_id: round, amount: '1.5', round_closed: true });
    const live = await get(`/reports/ggr?from=${day(0)}&to=${day(0)}&group_by=provider,game`);
    expect(live.body).toMatchObject({ object: 'ggr_report', livemode: true, first_day: day(0), last_day: day(0), group_by: ['provider', 'game'] });
    expect(live.body.data).toContainEqual(expect.objectContaining({ provider: 'pragmatic-play', game_id: validBody.game_id, currency: 'EUR' }));
    const test = (await issueKey(sql, operator.account, 'Reports sandbox', false)).key;
    expect((await get(`/reports/ggr?from=${day(0)}&to=${day(0)}`, test)).body).toMatchObject({ livemode: false, data: [], totals: [] });
    const other = await newOperator(sql, 'reports-other');
    expect((await get(`/reports/ggr?from=${day(0)}&to=${day(0)}`, other.key)).body).toMatchObject({ data: [], totals: [] });
  });

  it('counts what a free round paid in test mode too, from the test ledger\'s line, and the reconciliation shows it moved', async () => {
    const own = await newOperator(sql, 'reports-free-test');
    const testKey = (await issueKey(sql, own.account, 'Sandbox', false)).key;
    const code = `rfr-${randomUUID().slice(0, 8)}`;
    const [game] = await sql`
      insert into public.game (provider_id, code, name, category, currencies)
      select id, ${code}, 'Report Free Rounds', 'slots', '{}' from public.game_provider where slug = 'pragmatic-play' returning id`;
    await sql`insert into public.game_free_rounds (game_id, payout_mode, max_rounds, max_validity_days, stakes)
              values (${game.id}, 'per_round', 100, 30, ${sql.json({ EUR: [0.2] })})`;
    const call = (method: string, path: string, body: object) => handle(new Request(`http://api.test/v3${path}`, {
      method, headers: { authorization: `Bearer ${testKey}`, 'content-type': 'application/json' }, body: JSON.stringify(body) }));
    expect((await call('POST', '/sandbox/players', { player_id: 'fr-1', currency: 'EUR', balance: '5' })).ok).toBe(true);
    const made = await call('POST', '/free-rounds/campaigns', { external_id: id('c'), name: 'Spins', game_ids: [`pragmatic-play:${code}`],
      currency: 'EUR', bet_amount: '0.2', rounds: 1, valid_until: new Date(Date.now() + 86_400_000).toISOString(), player_ids: ['fr-1'] });
    expect(made.status).toBe(201);
    const [grant] = await sql`select id from public.free_round_grant where campaign_id = ${(await made.json()).id}`;
    const token = await launchToken(handle, { ...own, key: testKey }, { player_id: 'fr-1', game_id: `pragmatic-play:${code}`, currency: 'EUR' });
    const round = id('round');
    expect((await post('bets', { session_token: token, transaction_id: id('fb'), round_id: round, amount: '0.2',
      free_round_grant_id: grant.id })).status).toBe(200);
    const paid = id('fw');
    expect((await post('wins', { session_token: token, transaction_id: paid, round_id: round, amount: '1.5', round_closed: true,
      free_round_grant_id: grant.id })).status).toBe(200);
    const report = await get(`/reports/ggr?from=${day(0)}&to=${day(0)}`, testKey);
    expect(report.body.totals).toEqual([{ currency: 'EUR', bets: '0.0000', wins: '0.0000', free_round_wins: '1.5000', rolled_back: '0.0000',
      voided: '0.0000', ggr: '0.0000', rounds: 1, players: 0, sportsbook: null }]);
    const lines = (await get(`/reconciliation/transactions?date=${day(0)}`, testKey)).body.data;
    expect(lines.map((l: Record<string, string>) => `${l.type} ${l.moved}`)).toEqual(['bet 0.0000', 'win 1.5000']);
  });

  it('refuses what it cannot answer: every bad parameter at once (400), a bad key (401), too many cells (422)', async () => {
    const bad = await get('/reports/ggr?from=2026-02-30&to=2025-01-01&group_by=day,day&currency=eur&colour=red');
    expect(bad).toMatchObject({ status: 400, body: { code: 'invalid_parameters' } });
    expect(bad.body.errors.map((e: { parameter: string }) => e.parameter).sort()).toEqual(['colour', 'currency', 'from', 'group_by']);
    const semantic = await get('/reports/ggr?from=2026-02-30&to=2025-01-01&group_by=day,day');
    expect(semantic.body.errors.map((e: { parameter: string; code: string }) => `${e.parameter} ${e.code}`).sort())
      .toEqual(['from invalid_format', 'group_by invalid_format']);
    expect((await get('/reports/ggr?from=2026-03-01&to=2026-01-01')).body.errors).toEqual([expect.objectContaining({ parameter: 'to', code: 'invalid_range' })]);
    expect((await get('/reports/ggr?from=2024-01-01&to=2024-12-31')).status).toBe(200); // a leap year: 366 days
    expect((await get('/reports/ggr?from=2024-01-01&to=2025-01-01')).body.errors).toEqual([expect.objectContaining({ code: 'invalid_range' })]);
    expect((await get('/reports/ggr?to=2024-01-01')).body.errors).toEqual([expect.objectContaining({ parameter: 'from', code: 'required' })]);
    expect(await get(`/reports/ggr?from=${day(0)}&to=${day(0)}`, `cgs_live_${'x'.repeat(43)}`)).toMatchObject({ status: 401 });
    const [{ outcome }] = await sql`select outcome from private.ggr_report(${createHash('sha256').update(operator.key).digest('hex')},
      ${day(-1)}::date, ${day(0)}::date, '{player,day}', null, null, null, 0)`;
    expect(outcome).toBe('too_large');
  });
});

describe('GET /v3/reconciliation/transactions', () => {
  let own: Operator;
  let lines: { transaction_id: string; type: string; moved: string; amount: string }[];

  beforeAll(async () => {
    own = await newOperator(sql, 'reconcile');
    await sql`insert into public.wallet (client_id, currency_code, is_primary) values (${own.account.id}, 'EUR', true)`;
    await sql`select * from public.record_transaction(${own.account.id}::uuid, 'EUR', 'deposit', 100::numeric)`;
    // A player id a spreadsheet would run as a formula, with a comma and quotes in it.
    const token = await launchToken(handle, own, { player_id: '=HYPERLINK("http://x.example","a,b")' });
    const [b1, b2, round] = [id('bet'), id('bet'), id('round')];
    await post('bets', { session_token: token, transaction_id: b1, round_id: round, amount: '2' });
    await post('bets', { session_token: token, transaction_id: b2, round_id: round, amount: '3' });
    await post('rollbacks', { session_token: token, transaction_id: id('rb'), rolled_back_transaction_id: b2 });
    await post('wins', { session_token: token, transaction_id: `+${id('win')}`, round_id: round, amount: '4.5', round_closed: true });
  });

  it('lists each round transaction with what it moved, and the day\'s totals to check first', async () => {
    const page = await get(`/reconciliation/transactions?date=${day(0)}`, own.key);
    expect(page.status).toBe(200);
    lines = page.body.data;
    expect(lines.map((l) => `${l.type} ${l.amount} ${l.moved}`)).toEqual(['bet 2.0000 -2.0000', 'bet 3.0000 -3.0000', 'rollback 3.0000 3.0000',
      'win 4.5000 4.5000']);
    expect(page.body.data[0]).toMatchObject({ provider: 'pragmatic-play', game_id: validBody.game_id, currency: 'EUR', wallet_mode: 'transfer',
      player_id: '=HYPERLINK("http://x.example","a,b")', wallet_call: null, review: null, ledger_transaction_id: expect.any(String) });
    expect(page.body.totals).toEqual([{ currency: 'EUR', transactions: 4, bets: '5.0000', wins: '4.5000', rollbacks: '3.0000', moved: '2.5000' }]);
    expect(page.body).toMatchObject({ has_more: false, next_cursor: null });
  });

  it('pages by cursor, oldest first, with the totals on the first page only', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: { body: { data: { transaction_id: string }[]; next_cursor: string | null; totals: unknown } } =
        await get(`/reconciliation/transactions?date=${day(0)}&limit=1${cursor ? `&cursor=${cursor}` : ''}`, own.key);
      expect(page.body.totals === null).toBe(cursor !== null);
      seen.push(...page.body.data.map((l) => l.transaction_id));
      cursor = page.body.next_cursor;
      pages += 1;
    } while (cursor);
    expect(seen).toEqual(lines.map((l) => l.transaction_id));
    expect(pages).toBe(4);
  });

  it('streams one CSV a spreadsheet opens: a header, RFC 4180 quoting, formula cells as text', async () => {
    const from = encodeURIComponent(new Date(Date.now() - 3_600_000).toISOString());
    const to = encodeURIComponent(new Date(Date.now() + 3_600_000).toISOString());
    const csv = await get(`/reconciliation/transactions?from=${from}&to=${to}`, own.key, { accept: 'text/csv' });
    expect(csv.status).toBe(200);
    expect(csv.response.headers.get('content-type')).toBe('text/csv; charset=utf-8; header=present');
    expect(csv.response.headers.get('content-disposition')).toMatch(/^attachment; filename="reconciliation-\d{4}-\d{2}-\d{2}\.csv"$/);
    const text = csv.text!;
    expect(text.startsWith('\uFEFFcreated_at,id,provider,transaction_id,type,')).toBe(true);
    const records = text.slice(1).split('\r\n');
    expect(records.at(-1)).toBe('');
    expect(records).toHaveLength(6);
    expect(records[1]).toContain(`,"'=HYPERLINK(""http://x.example"",""a,b"")",`);
    expect(records[4]).toContain(`,'+${lines[3].transaction_id.slice(1)},win,`);
    expect(records[1]).toContain(',2.0000,-2.0000,');
    expect(text).not.toMatch(/[^\r]\n/);
  });

  it('refuses a day that is not one, both forms at once, no range, a range past 31 days', async () => {
    const errors = async (query: string) =>
      (await get(`/reconciliation/transactions?${query}`, own.key)).body.errors.map((e: { parameter: string; code: string }) => `${e.parameter} ${e.code}`);
    expect(await errors('date=2026-02-30')).toEqual(['date invalid_format']);
    expect(await errors('date=2026-02-03&from=2026-02-03T00:00:00Z')).toEqual(['date invalid_range']);
    expect(await errors('')).toEqual(['from required', 'to required']);
    expect(await errors('from=2026-01-01T00:00:00Z&to=2026-03-01T00:00:00Z')).toEqual(['to invalid_range']);
    expect(await errors('from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z')).toEqual(['to invalid_range']);
    expect(await errors(`date=${day(0)}&cursor=abc`)).toEqual(['cursor invalid_cursor']);
  });

  it('shows a test key and another client none of the lines', async () => {
    const test = (await issueKey(sql, own.account, 'Sandbox', false)).key;
    expect((await get(`/reconciliation/transactions?date=${day(0)}`, test)).body).toMatchObject({ data: [], totals: [] });
    const other = await newOperator(sql, 'reconcile-other');
    expect((await get(`/reconciliation/transactions?date=${day(0)}`, other.key)).body).toMatchObject({ data: [], totals: [] });
    expect((await get(`/reconciliation/transactions?date=${day(0)}`, other.key, { accept: 'text/csv' })).text!.split('\r\n')).toHaveLength(2);
  });

  it('lists the sportsbook\'s calls as lines of their own, with what each moved, and the day\'s net is the ledger\'s', async () => {
    const book = await newOperator(sql, 'reconcile-sportsbook');
    await sql`insert into public.wallet (client_id, currency_code, is_primary) values (${book.account.id}, 'EUR', true)`;
    await sql`select * from public.record_transaction(${book.account.id}::uuid, 'EUR', 'deposit', 100::numeric)`;
    const keyHash = createHash('sha256').update((await sql`select key from public.issue_provider_key('pragmatic-play')`)[0].key).digest('hex');
    const { place, commit, settle, discard, close } = engine(sql, () => keyHash);
    const [session] = await sql`insert into public.game_session (client_id, livemode, player_id, provider_id, game, currency_code, status, expires_at)
      select ${book.account.id}, true, 'player-b', id, ${await sportsbookGame(sql)}, 'EUR', 'active', now() + interval '1 hour'
      from public.game_provider where slug = 'pragmatic-play' returning id`;
    const [won, dropped] = [id('bet'), id('bet')];
    expect((await place(session.id, won, id('place'), '10', { odds: '2.5', potential: '25', twoPhase: true })).outcome).toBe('ok');
    expect((await commit(won, id('commit'))).outcome).toBe('ok');
    expect((await settle(won, id('settle'), 'won', '25')).outcome).toBe('ok');
    expect((await settle(won, id('resettle'), 'won', '10.5')).outcome).toBe('ok');
    expect((await close(won, id('close'))).outcome).toBe('ok');
    expect((await place(session.id, dropped, id('place'), '4.25', { twoPhase: true })).outcome).toBe('ok');
    expect((await discard(dropped, id('discard'))).outcome).toBe('ok');
    const page = await get(`/reconciliation/transactions?date=${day(0)}`, book.key);
    expect(page.status).toBe(200);
    expect(page.body.data.map((l: { type: string; amount: string; moved: string; round_id: string }) =>
      `${l.round_id === won ? 'won' : 'dropped'} ${l.type} ${l.amount} ${l.moved}`)).toEqual([
      'won sportsbook_place 10.0000 -10.0000', 'won sportsbook_commit 0.0000 0.0000', 'won sportsbook_settle 25.0000 25.0000', 'won sportsbook_settle 10.5000 -14.5000',
      'won sportsbook_close 0.0000 0.0000', 'dropped sportsbook_place 4.2500 -4.2500', 'dropped sportsbook_discard 4.2500 4.2500',
    ]);
    expect(page.body.data[0]).toMatchObject({ provider: 'pragmatic-play', player_id: 'player-b', session_id: session.id, currency: 'EUR',
      wallet_mode: 'transfer', wallet_call: null, ledger_transaction_id: expect.any(String) });
    // Every line that moved names its movement of the float, and moves what it does.
    const ledger = await sql`select id, amount::text from public.transaction where client_id = ${book.account.id} and type <> 'deposit'`;
    const moves = new Map(ledger.map((t) => [t.id as string, t.amount as string]));
    for (const line of page.body.data.filter((l: { moved: string }) => l.moved !== '0.0000')) {
      expect(moves.get(line.ledger_transaction_id)).toBe(line.moved);
    }
    const [net] = await sql`select sum(amount)::numeric(20, 4)::text as moved, count(*)::int as n from public.transaction
      where client_id = ${book.account.id} and type <> 'deposit'`;
    expect(net).toEqual({ moved: '0.5000', n: 5 });
    // The casino's columns stay the casino's; the count and the net are every line's.
    expect(page.body.totals).toEqual([{ currency: 'EUR', transactions: 7, bets: '0.0000', wins: '0.0000', rollbacks: '0.0000', moved: net.moved }]);
    const csv = (await get(`/reconciliation/transactions?date=${day(0)}`, book.key, { accept: 'text/csv' })).text!;
    expect(csv.split('\r\n').slice(1, -1).map((record) => record.split(',')[4])).toEqual([
      'sportsbook_place', 'sportsbook_commit', 'sportsbook_settle', 'sportsbook_settle', 'sportsbook_close', 'sportsbook_place', 'sportsbook_discard']);
  });

  it('in seamless mode, carries each wallet call\'s state, and counts as moved only what the wallet accepted', async () => {
    const seamless = await newOperator(sql, 'reconcile-seamless');
    await sql`select * from private.change_wallet_settings(${seamless.account.id}, true, 'seamless', 'https://wallet.example/cgs', false)`;
    const keyHash = createHash('sha256').update((await sql`select key from public.issue_provider_key('pragmatic-play')`)[0].key).digest('hex');
    const [session] = await sql`insert into public.game_session (client_id, livemode, player_id, provider_id, game, currency_code, status, expires_at)
      select ${seamless.account.id}, true, 'player-s', id, 'vs20olympgate', 'EUR', 'active', now() + interval '1 hour'
      from public.game_provider where slug = 'pragmatic-play' returning id`;
    const bet = async (answer: string) => {
      const tx = id('bet');
      const [call] = await sql`select * from private.round_bet(${keyHash}, ${session.id}, ${tx}, ${id('round')}, 4::numeric, false, ${'a'.repeat(64)})`;
      await sql`select * from private.finish_wallet_call(${call.body.call_id}::uuid, ${call.body.attempt}, ${answer}, '96.0000', null, 'down')`;
      return tx;
    };
    const [accepted, failed] = [await bet('accepted'), await bet('failed')];
    const page = await get(`/reconciliation/transactions?date=${day(0)}`, seamless.key);
    expect(page.body.data.map((l: { transaction_id: string; moved: string; wallet_call: { status: string; action: string } }) =>
      [l.transaction_id, l.moved, l.wallet_call.action, l.wallet_call.status]))
      .toEqual([[accepted, '-4.0000', 'debit', 'accepted'], [failed, '0.0000', 'debit', 'failed']]);
    expect(page.body.data[0].wallet_call).toMatchObject({ balance: '96.0000', attempts: 1 });
    expect(page.body.totals).toEqual([{ currency: 'EUR', transactions: 2, bets: '8.0000', wins: '0.0000', rollbacks: '0.0000', moved: '-4.0000' }]);
  });
  it('counts a payout less what it withheld for the player\'s owed clawbacks, so the lines\' net stays the ledger\'s', async () => {
    const book = await newOperator(sql, 'reconcile-sportsbook-owed');
    await sql`insert into public.wallet (client_id, currency_code, is_primary) values (${book.account.id}, 'EUR', true)`;
    await sql`select * from public.record_transaction(${book.account.id}::uuid, 'EUR', 'deposit', 10::numeric)`;
    const keyHash = createHash('sha256').update((await sql`select key from public.issue_provider_key('pragmatic-play')`)[0].key).digest('hex');
    const { place, settle } = engine(sql, () => keyHash);
    const [session] = await sql`insert into public.game_session (client_id, livemode, player_id, provider_id, game, currency_code, status, expires_at)
      select ${book.account.id}, true, 'player-o', id, ${await sportsbookGame(sql)}, 'EUR', 'active', now() + interval '1 hour'
      from public.game_provider where slug = 'pragmatic-play' returning id`;
    const [first, second] = [id('bet'), id('bet')];
    expect((await place(session.id, first, id('place'), '10', { odds: '2.5', potential: '25' })).outcome).toBe('ok');
    expect((await settle(first, id('settle'), 'won', '25')).outcome).toBe('ok');
    expect((await place(session.id, second, id('place'), '20')).outcome).toBe('ok');
    // The float holds 5 of the 25 clawed back: 20 owed, then taken from the next payout.
    expect((await settle(first, id('resettle'), 'lost', '0')).outcome).toBe('ok');
    expect((await settle(second, id('settle'), 'won', '6')).outcome).toBe('ok');
    const page = await get(`/reconciliation/transactions?date=${day(0)}`, book.key);
    expect(page.body.data.map((l: { type: string; amount: string; moved: string }) => `${l.type} ${l.amount} ${l.moved}`)).toEqual([
      'sportsbook_place 10.0000 -10.0000', 'sportsbook_settle 25.0000 25.0000', 'sportsbook_place 20.0000 -20.0000',
      'sportsbook_settle 0.0000 -5.0000', 'sportsbook_settle 6.0000 0.0000',
    ]);
    const [net] = await sql`select sum(amount)::numeric(20, 4)::text as moved from public.transaction
      where client_id = ${book.account.id} and type <> 'deposit'`;
    expect(page.body.totals).toEqual([{ currency: 'EUR', transactions: 5, bets: '0.0000', wins: '0.0000', rollbacks: '0.0000', moved: net.moved }]);
    expect(net.moved).toBe('-10.0000');
  });

  it('in seamless mode, carries the sportsbook\'s wallet calls too, and counts as moved only what the wallet accepted', async () => {
    const book = await newOperator(sql, 'reconcile-sportsbook-seamless');
    await sql`select * from private.change_wallet_settings(${book.account.id}, true, 'seamless', 'https://wallet.example/cgs', false)`;
    const keyHash = createHash('sha256').update((await sql`select key from public.issue_provider_key('pragmatic-play')`)[0].key).digest('hex');
    const { place, settle } = engine(sql, () => keyHash);
    const [session] = await sql`insert into public.game_session (client_id, livemode, player_id, provider_id, game, currency_code, status, expires_at)
      select ${book.account.id}, true, 'player-sb', id, ${await sportsbookGame(sql)}, 'EUR', 'active', now() + interval '1 hour'
      from public.game_provider where slug = 'pragmatic-play' returning id`;
    const answer = async (queued: { outcome: string; body: Record<string, unknown> | null }, status: string, balance: string) => {
      expect(queued.outcome).toBe('wallet_call');
      await sql`select * from private.finish_wallet_call(${queued.body!.call_id as string}::uuid, ${queued.body!.attempt as number}, ${status},
        ${balance}, null, 'down')`;
    };
    const bet = id('bet');
    await answer(await place(session.id, bet, id('place'), '8', { odds: '2.5', potential: '20' }), 'accepted', '92.0000');
    await answer(await settle(bet, id('settle'), 'won', '20'), 'accepted', '112.0000');
    // A resettlement's clawback still waiting for the wallet moved nothing yet.
    expect((await settle(bet, id('resettle'), 'lost', '0')).outcome).toBe('wallet_call');
    const page = await get(`/reconciliation/transactions?date=${day(0)}`, book.key);
    expect(page.body.data.map((l: { type: string; amount: string; moved: string; wallet_call: { action: string; status: string } }) =>
      [l.type, l.amount, l.moved, l.wallet_call.action, l.wallet_call.status])).toEqual([
      ['sportsbook_place', '8.0000', '-8.0000', 'debit', 'accepted'], ['sportsbook_settle', '20.0000', '20.0000', 'credit', 'accepted'],
      ['sportsbook_settle', '0.0000', '0.0000', 'debit', 'pending'],
    ]);
    expect(page.body.data[0]).toMatchObject({ wallet_mode: 'seamless', ledger_transaction_id: null, session_id: session.id });
    expect(page.body.totals).toEqual([{ currency: 'EUR', transactions: 3, bets: '0.0000', wins: '0.0000', rollbacks: '0.0000', moved: '12.0000' }]);
  });
});
