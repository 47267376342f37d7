// The delivery runner discards sportsbook bets reserved too long (private.sportsbook_discard_expired
// at each of its rounds), on a database of its own: their stake comes back, each is told as
// sportsbook.bet.discarded (reason expired), and the runner says how many it discarded.
import { createHash, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { runDeliveries } from '../../supabase/functions/deliver/deliveries.ts';
import { isolatedDatabase, newOperator, recordedSession } from '../helpers/api.ts';
import { engine, sportsbookGame } from './sportsbook.ts';

const { owner, endpoint } = await isolatedDatabase('sportsbook_expiry');
const sha = (text: string) => createHash('sha256').update(text).digest('hex');

describe('the delivery runner and reserved sportsbook bets', () => {
  it('discards those reserved past sportsbook.reserve_minutes, once each, giving their stake back', async () => {
    const operator = await newOperator(owner, 'sportsbook-expiry');
    await owner`insert into public.wallet (client_id, currency_code) values (${operator.account.id}, 'EUR')`;
    await owner`select * from public.record_transaction(${operator.account.id}::uuid, 'EUR', 'deposit', 100::numeric)`;
    const keyHash = sha((await owner`select key from public.issue_provider_key('pragmatic-play')`)[0].key);
    const game = await sportsbookGame(owner);
    const { place } = engine(owner, () => keyHash);
    const session = await recordedSession(owner, operator.account.id, { game });
    const [stale, fresh] = [`bet-${randomUUID()}`, `bet-${randomUUID()}`];
    for (const bet of [stale, fresh]) {
      expect(await place(session, bet, `place-${randomUUID()}`, '10', { twoPhase: true })).toMatchObject({ outcome: 'ok' });
    }
    await owner`update public.sportsbook_bet b set placed_at = now() - interval '16 minutes'
                from public.game_round r where r.id = b.round_id and r.provider_round_id = ${stale}`;
    const float = async () => (await owner`select balance::text from public.wallet where client_id = ${operator.account.id}`)[0].balance;
    expect(await float()).toBe('80.0000');

    expect(await runDeliveries(endpoint)).toMatchObject({ sportsbook_discarded: 1 });
    expect((await runDeliveries(endpoint)).sportsbook_discarded).toBeUndefined();
    expect(await float()).toBe('90.0000');
    const statuses = await owner`select r.provider_round_id, b.status from public.sportsbook_bet b join public.game_round r on r.id = b.round_id
                                 where r.client_id = ${operator.account.id}`;
    expect(Object.fromEntries(statuses.map((s) => [s.provider_round_id, s.status]))).toEqual({ [stale]: 'discarded', [fresh]: 'reserved' });
    const events = await owner`select data from public.event where type = 'sportsbook.bet.discarded' and client_id = ${operator.account.id}`;
    expect(events.map((e) => e.data)).toEqual([expect.objectContaining({ bet_id: stale, reason: 'expired' })]);
  });
});
