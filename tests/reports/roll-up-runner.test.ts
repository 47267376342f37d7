// The delivery runner rolls reports' closed days up (issue 36), so a report never pays for it: each
// of its rounds rolls up a month of one client's days, until every closed day is; a report then
// finds them done and moves nothing. On a database of its own: the runner takes every client due.
import { createHash, randomUUID } from 'node:crypto';
import type { Sql } from 'postgres';
import { beforeAll, expect, it } from 'vitest';
import { runDeliveries } from '../../supabase/functions/deliver/deliveries.ts';
import { isolatedDatabase, newOperator, type Operator } from '../helpers/api.ts';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');
let owner: Sql;
let endpoint: Sql;
let operator: Operator;
let providerKey: string;
/** Days before today each round was played. */
const DAYS_AGO = [45, 20, 2];

beforeAll(async () => {
  ({ owner, endpoint } = await isolatedDatabase('report_roll_up'));
  operator = await newOperator(owner, 'roll-up');
  await owner`insert into public.wallet (client_id, currency_code) values (${operator.account.id}, 'EUR')`;
  await owner`select * from public.record_transaction(${operator.account.id}::uuid, 'EUR', 'deposit', 1000::numeric)`;
  providerKey = sha((await owner`select key from public.issue_provider_key('pragmatic-play', 'Roll-up tests')`)[0].key);
  for (const days of DAYS_AGO) {
    const [session] = await owner`
      insert into public.game_session (client_id, livemode, player_id, provider_id, game, currency_code, status, expires_at)
      select ${operator.account.id}, true, 'player-r', id, 'vs20olympgate', 'EUR', 'active', now() + interval '1 hour'
      from public.game_provider where slug = 'pragmatic-play'
      returning id`;
    const round = `round-${randomUUID()}`;
    const [bet] = await owner`select outcome from private.round_bet(${providerKey}, ${session.id}, ${`${round}-b`}, ${round}, 2::numeric,
      false, ${sha(`${round}-b`)})`;
    const [win] = await owner`select outcome from private.round_win(${providerKey}, ${session.id}, ${`${round}-w`}, ${round}, 0.5::numeric,
      true, null, ${sha(`${round}-w`)})`;
    expect([bet.outcome, win.outcome]).toEqual(['ok', 'ok']);
    // As if played then.
    await owner`update public.game_round set opened_at = opened_at - make_interval(days => ${days}) where provider_round_id = ${round}`;
    await owner`update public.round_transaction t set created_at = t.created_at - make_interval(days => ${days})
      from public.game_round r where r.id = t.round_id and r.provider_round_id = ${round}`;
  }
});

const mark = async () =>
  (await owner`select through::text from private.ggr_rolled_up where client_id = ${operator.account.id}`)[0]?.through ?? null;

it('rolls every closed day up a month at a time, and a report then finds them done', async () => {
  // Without the option (as the tests' runners), nothing is rolled up.
  await runDeliveries(endpoint);
  expect(await mark()).toBeNull();

  const [{ closed }] = await owner`select (((now() - interval '1 hour') at time zone 'UTC')::date - 1)::text as closed`;
  const marks: string[] = [];
  for (let round = 0; round < 10 && (marks.at(-1) ?? '') < closed; round++) {
    const counts = await runDeliveries(endpoint, { rollUpReports: true });
    expect(counts.reports_rolled_up).toBe(1);
    marks.push((await mark())!);
  }
  // 45 days and more in two rounds of at most a month each, the mark moving each time, up to the last closed day.
  expect(marks.length).toBe(2);
  expect(marks[0] < marks[1]).toBe(true);
  expect(marks.at(-1)).toBe(closed);
  // Nothing left: the next round rolls nobody up.
  expect((await runDeliveries(endpoint, { rollUpReports: true })).reports_rolled_up).toBeUndefined();

  const [rows] = await owner`select count(distinct day)::int as days, sum(bets)::text as bets, sum(wins)::text as wins
    from private.ggr_day where client_id = ${operator.account.id}`;
  expect(rows).toEqual({ days: DAYS_AGO.length, bets: '6.0000', wins: '1.5000' });

  // A report by day finds the days rolled up: it moves no mark, and counts every round.
  const [report] = await owner`select r.outcome, string_agg(r.report, '' order by r.part) as body
    from private.ggr_report(${sha(operator.key)}, ((now() at time zone 'UTC')::date - 60), (now() at time zone 'UTC')::date, '{day}', null, null, null)
      with ordinality r(outcome, report, part) group by r.outcome`;
  expect(report.outcome).toBe('ok');
  expect(await mark()).toBe(closed);
  expect(JSON.parse(report.body).totals).toEqual([expect.objectContaining({ currency: 'EUR', bets: '6.0000', wins: '1.5000', rounds: 3 })]);
});
