// Who may still play: once a client is suspended or closed, its sessions take no new bets, while
// wins, rollbacks and staff settlements of what was already played still settle, so no player loses
// money. A key revoked after it made a session does not stop that session: revoking a leaked key
// must not cut players off mid-game.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../helpers/db.ts';
import { newOperator, type Operator, sessionRequest, sessionsHandler, validBody } from '../helpers/api.ts';
import { launchToken, type ProviderAnswer, providerCalls } from '../helpers/provider-api.ts';

const sql = connect();
const { handle } = await sessionsHandler();
const id = (prefix: string) => `${prefix}-${randomUUID()}`;
let post: (path: 'bets' | 'wins' | 'rollbacks', body: object) => Promise<ProviderAnswer>;

beforeAll(async () => {
  post = providerCalls(handle, (await sql`select key from public.issue_provider_key('pragmatic-play')`)[0].key);
});

async function fundedOperator(): Promise<Operator> {
  const operator = await newOperator(sql, 'suspended');
  await sql`insert into public.wallet (client_id, currency_code, is_primary) values (${operator.account.id}, 'EUR', true)`;
  await sql`select * from public.record_transaction(${operator.account.id}::uuid, 'EUR', 'deposit', 100::numeric)`;
  return operator;
}

const launch = (operator: Operator) => launchToken(handle, operator);

const setStatus = (operator: Operator, status: string) =>
  sql`update public.profile set status = ${status} where id = ${operator.account.id}`;
const float = async (operator: Operator) =>
  (await sql`select balance::text from public.wallet where client_id = ${operator.account.id} and currency_code = 'EUR'`)[0].balance;
const roundsOf = async (operator: Operator) =>
  (await sql`select count(*)::int as n from public.game_round where client_id = ${operator.account.id}`)[0].n;

describe('a suspended or closed operator', () => {
  for (const status of ['suspended', 'closed']) {
    it(`${status}: takes no new bet, writing nothing, and still pays the win and the rollback of rounds played`, async () => {
      const operator = await fundedOperator();
      const token = await launch(operator);
      const [won, lost, refunded] = [id('round'), id('round'), id('round')];
      for (const round of [won, lost, refunded]) {
        expect((await post('bets', { session_token: token, transaction_id: `${round}-bet`, round_id: round, amount: '10' })).status)
          .toBe(200);
      }
      await setStatus(operator, status);

      const refused = await post('bets', { session_token: token, transaction_id: id('bet'), round_id: id('round'), amount: '1' });
      expect(refused).toMatchObject({ status: 403, body: { code: 'operator_suspended', retryable: false } });
      const another = await post('bets', { session_token: token, transaction_id: id('bet'), round_id: won, amount: '1' });
      expect(another).toMatchObject({ status: 403, body: { code: 'operator_suspended' } });
      expect(await roundsOf(operator)).toBe(3);
      expect(await float(operator)).toBe('70.0000');

      expect(await post('wins', { session_token: token, transaction_id: id('win'), round_id: won, amount: '25', round_closed: true }))
        .toMatchObject({ status: 200, body: { balance: '95.0000' } });
      expect(await post('rollbacks', { session_token: token, transaction_id: id('rb'), rolled_back_transaction_id: `${refunded}-bet` }))
        .toMatchObject({ status: 200, body: { balance: '105.0000' } });
      const [open] = await sql`select id from public.game_round where provider_round_id = ${lost}`;
      expect((await sql`select status from public.resolve_round(${open.id}, 'close')`)[0].status).toBe('closed');
      expect(await float(operator)).toBe('105.0000');
    });
  }

  it('plays again once active', async () => {
    const operator = await fundedOperator();
    const token = await launch(operator);
    await setStatus(operator, 'suspended');
    const bet = { session_token: token, transaction_id: id('bet'), round_id: id('round'), amount: '1' };
    expect((await post('bets', bet)).status).toBe(403);
    await setStatus(operator, 'active');
    expect(await post('bets', bet)).toMatchObject({ status: 200, body: { balance: '99.0000' } });
  });
  it("is judged by its own status alone: another client's being active lets it bet no more", async () => {
    const [active, suspended] = [await fundedOperator(), await fundedOperator()];
    const [activeToken, suspendedToken] = [await launch(active), await launch(suspended)];
    await setStatus(suspended, 'suspended');
    expect(await post('bets', { session_token: suspendedToken, transaction_id: id('bet'), round_id: id('round'), amount: '1' }))
      .toMatchObject({ status: 403, body: { code: 'operator_suspended' } });
    expect(await post('bets', { session_token: activeToken, transaction_id: id('bet'), round_id: id('round'), amount: '1' }))
      .toMatchObject({ status: 200, body: { balance: '99.0000' } });
    expect(await float(suspended)).toBe('100.0000');
  });
});

describe('a revoked key', () => {
  it('makes no new session, while the sessions it made keep playing', async () => {
    const operator = await fundedOperator();
    const token = await launch(operator);
    await sql`update public.api_key set status = 'revoked', revoked_at = now() where id = ${operator.keyId}`;
    const denied = await handle(sessionRequest(validBody, { key: operator.key }));
    expect(denied.status).toBe(401);
    const round = id('round');
    expect(await post('bets', { session_token: token, transaction_id: id('bet'), round_id: round, amount: '10' }))
      .toMatchObject({ status: 200, body: { balance: '90.0000' } });
    expect(await post('wins', { session_token: token, transaction_id: id('win'), round_id: round, amount: '4', round_closed: true }))
      .toMatchObject({ status: 200, body: { balance: '94.0000' } });
  });
});
