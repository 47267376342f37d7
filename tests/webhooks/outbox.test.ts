// The outbox: each change writes its event in its own transaction (a change that rolls back leaves
// none); the runner's fan-out gives it a pending delivery to every enabled endpoint of the client,
// in the event's mode, that wants its type. An event per type, produced by the real change.
import { createHash, randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { as, cast, connect } from '../helpers/db.ts';
import { issueKey, newOperator, type Operator, recordedSession, sessionRequest, sessionsHandler, validBody } from '../helpers/api.ts';

const sql = connect();
const { handle } = await sessionsHandler();
let operator: Operator;
let everything: string;
let sessionsOnly: string;

const endpoint = async (client: string, options: { livemode?: boolean; types?: string[]; enabled?: boolean } = {}) =>
  (await sql`
    insert into public.webhook_endpoint (client_id, livemode, url, event_types, enabled, secret_prefix)
    values (${client}, ${options.livemode ?? true}, 'https://hooks.operator.test/', ${options.types ?? []}, ${options.enabled ?? true},
            'whsec_abcdef')
    returning id`)[0].id as string;

beforeAll(async () => {
  operator = await newOperator(sql, 'outbox');
  everything = await endpoint(operator.account.id);
  sessionsOnly = await endpoint(operator.account.id, { types: ['session.created'] });
  await endpoint(operator.account.id, { enabled: false });
  await endpoint(operator.account.id, { livemode: false });
});

// The runner's fan-out first: it writes the deliveries (tests/webhooks/fan-out.test.ts).
const eventsOf = async (type: string, id: string) => {
  await sql`select private.fan_out_events()`;
  return sql`select e.*, array(select d.endpoint_id from public.webhook_delivery d where d.event_id = e.id order by d.endpoint_id) as endpoints
      from public.event e where e.client_id = ${operator.account.id} and e.type = ${type} and e.data->>'id' = ${id}`;
};

describe('the outbox', () => {
  it('session.created, with a delivery to each endpoint that wants it, and to no other', async () => {
    const response = await handle(sessionRequest(validBody, { key: operator.key }));
    const session = await response.json();
    const [event] = await eventsOf('session.created', session.id);
    expect(event).toMatchObject({ livemode: true, data: { id: session.id, game_id: validBody.game_id, status: 'created' } });
    expect(event.endpoints).toEqual([everything, sessionsOnly].sort());
    const [delivery] = await sql`select status, attempts from public.webhook_delivery where event_id = ${event.id} limit 1`;
    expect(delivery).toEqual({ status: 'pending', attempts: 0 });
  });

  it('round.closed and round.cancelled, as GET /v3/rounds/{id} shows the round', async () => {
    const sha = (text: string) => createHash('sha256').update(text).digest('hex');
    const provider = sha((await sql`select key from public.issue_provider_key('pragmatic-play')`)[0].key);
    await sql`insert into public.wallet (client_id, currency_code) values (${operator.account.id}, 'EUR')`;
    await sql`select * from public.record_transaction(${operator.account.id}::uuid, 'EUR', 'deposit', 10::numeric)`;
    const s = { id: await recordedSession(sql, operator.account.id) };
    const [closed, cancelled, bet] = [randomUUID(), randomUUID(), randomUUID()];
    await sql`select * from private.round_bet(${provider}, ${s.id}, ${randomUUID()}, ${closed}, 1, true, ${sha('a')})`;
    await sql`select * from private.round_bet(${provider}, ${s.id}, ${bet}, ${cancelled}, 1, false, ${sha('b')})`;
    await sql`select * from private.round_rollback(${provider}, ${s.id}, ${randomUUID()}, ${bet}, ${sha('c')})`;
    const rounds = await sql`select id, provider_round_id from public.game_round where session_id = ${s.id}`;
    const idOf = (round: string) => rounds.find((r) => r.provider_round_id === round)!.id;
    expect((await eventsOf('round.closed', idOf(closed)))[0].data).toMatchObject({ round_id: closed, status: 'closed', total_bet: '1.0000' });
    expect((await eventsOf('round.cancelled', idOf(cancelled)))[0].data).toMatchObject({ round_id: cancelled, status: 'cancelled' });
    // The ledger's movements are events too (the deposit, the rollback's refund), but for a round's bets
    // and wins, which the round's events report: one event per provider call at most.
    const movements = await sql`select data->>'type' as type from public.event where client_id = ${operator.account.id}
      and type = 'transaction.created' order by created_at, data->>'type'`;
    expect(movements.map((m) => m.type).sort()).toEqual(['adjustment', 'deposit']);
  });

  it("a round's bet and win are reported by the round, one event per call at most; a bet crossing the float's alert still alerts", async () => {
    const sha = (text: string) => createHash('sha256').update(text).digest('hex');
    const provider = sha((await sql`select key from public.issue_provider_key('pragmatic-play')`)[0].key);
    const player = await newOperator(sql, 'outbox-rounds');
    const client = player.account.id;
    await sql`insert into public.wallet (client_id, currency_code) values (${client}, 'EUR')`;
    await sql`select * from public.record_transaction(${client}::uuid, 'EUR', 'deposit', 10::numeric)`;
    await sql`select * from private.change_wallet_settings(${client}, true, 'transfer', null, false, ${sql.json({ EUR: '5' })})`;
    const s = await recordedSession(sql, client);
    const events = async () => (await sql`select type from public.event where client_id = ${client} order by created_at, type`)
      .map((e) => e.type);
    const before = (await events()).length;
    const round = randomUUID();
    await sql`select * from private.round_bet(${provider}, ${s}, ${randomUUID()}, ${round}, 2, false, ${sha('bet')})`;
    expect((await events()).slice(before)).toEqual([]);
    await sql`select * from private.round_win(${provider}, ${s}, ${randomUUID()}, ${round}, 1, true, null, ${sha('win')})`;
    expect((await events()).slice(before)).toEqual(['round.closed']);
    await sql`select * from private.round_bet(${provider}, ${s}, ${randomUUID()}, ${randomUUID()}, 5, false, ${sha('low')})`;
    expect((await events()).slice(before)).toEqual(['round.closed', 'wallet.balance_low']);
    const ledger = await sql`select type, amount::text, balance_after::text from public.transaction where client_id = ${client}
      order by ledger_seq`;
    expect(ledger).toEqual([
      { type: 'deposit', amount: '10.0000', balance_after: '10.0000' },
      { type: 'bet', amount: '-2.0000', balance_after: '8.0000' },
      { type: 'win', amount: '1.0000', balance_after: '9.0000' },
      { type: 'bet', amount: '-5.0000', balance_after: '4.0000' },
    ]);
  });

  it('api_key.created and api_key.revoked, in the key\'s mode', async () => {
    const { keyId } = await issueKey(sql, operator.account, 'Evented', false);
    await sql`select * from public.revoke_api_key(${keyId})`;
    const events = await sql`select type, livemode from public.event where data->>'id' = ${keyId} order by created_at, type`;
    expect(events).toEqual([{ type: 'api_key.created', livemode: false }, { type: 'api_key.revoked', livemode: false }]);
  });

  it('support_ticket.updated, when staff change a ticket and when anyone posts on it, as the client does through the API', async () => {
    const people = await cast(sql);
    const [ticket] = await as(sql, operator.account, (tx) =>
      tx`insert into public.support_ticket (client_id, subject) values (${operator.account.id}, 'Payout delayed') returning id`);
    await as(sql, operator.account, (tx) =>
      tx`insert into public.support_ticket_message (ticket_id, author_id, body) values (${ticket.id}, ${operator.account.id}, 'Any news?')`);
    await as(sql, people.adam, (tx) => tx`update public.support_ticket set status = 'pending' where id = ${ticket.id}`);
    const events = await sql`select data->>'change' as change, data->>'status' as status from public.event
      where type = 'support_ticket.updated' and data->>'id' = ${ticket.id} order by created_at, data->>'change'`;
    expect(events).toEqual([{ change: 'message', status: 'open' }, { change: 'ticket', status: 'pending' }]);
  });

  it('writes nothing for a change that rolled back', async () => {
    const id = randomUUID();
    await sql.begin(async (tx) => {
      await tx`
        insert into public.game_session (id, client_id, livemode, player_id, provider_id, game, currency_code, expires_at)
        select ${id}, ${operator.account.id}, true, 'p', id, 'vs20olympgate', 'EUR', now() + interval '1 hour'
        from public.game_provider where slug = 'pragmatic-play'`;
      expect(await tx`select 1 from public.event where data->>'id' = ${id}`).toHaveLength(1);
      throw new Error('roll back');
    }).catch(() => {});
    expect(await sql`select 1 from public.event where data->>'id' = ${id}`).toHaveLength(0);
  });

  it('shows a client its own events and deliveries only', async () => {
    const other = await newOperator(sql, 'outbox-other');
    const own = await as(sql, operator.account, (tx) => tx`select count(*)::int as n from public.event`);
    const theirs = await as(sql, other.account, (tx) => tx`select count(*)::int as n from public.event where client_id = ${operator.account.id}`);
    expect(own[0].n).toBeGreaterThan(3);
    expect(theirs[0].n).toBe(0);
  });
});
