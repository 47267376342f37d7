// POST /v3/sessions/{id}/close, in-process against the test database: the session closed (no
// launch URL), closing again changes nothing, another client's is 404; bets are refused from then
// on while a round's win still settles; session.closed is written once, with the change.
import { createHash, randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectResponseMatches } from '../openapi/contract.ts';
import { connect } from '../helpers/db.ts';
import { newOperator, type Operator, sessionRequest, sessionsHandler, validBody } from '../helpers/api.ts';

const sql = connect();
const { handle } = await sessionsHandler();
const sha = (text: string) => createHash('sha256').update(text).digest('hex');
let operator: Operator;
let other: Operator;
let provider: string;

beforeAll(async () => {
  [operator, other] = [await newOperator(sql, 'closing'), await newOperator(sql, 'other')];
  await sql`insert into public.wallet (client_id, currency_code) values (${operator.account.id}, 'EUR')`;
  await sql`select * from public.record_transaction(${operator.account.id}::uuid, 'EUR', 'deposit', 100::numeric)`;
  provider = sha((await sql`select key from public.issue_provider_key('pragmatic-play')`)[0].key);
});

async function close(id: string, key = operator.key) {
  const response = await handle(new Request(`http://api.test/v3/sessions/${id}/close`, { method: 'POST', headers: { authorization: `Bearer ${key}` } }));
  const body = await response.json();
  expectResponseMatches('closeSession', response, body);
  return { status: response.status, body };
}

describe('POST /v3/sessions/{id}/close', () => {
  it('closes the session once: no more bets, wins still settle, one session.closed event', async () => {
    const created = await (await handle(sessionRequest(validBody, { key: operator.key }))).json();
    const round = randomUUID();
    const bet = () => sql`select outcome from private.round_bet(${provider}, ${created.id}, ${randomUUID()}, ${round}, 1, false,
      ${sha(randomUUID())})`.then(([row]) => row.outcome);
    expect(await bet()).toBe('ok');
    expect(await close(created.id, other.key)).toMatchObject({ status: 404, body: { code: 'not_found' } });
    const closed = await close(created.id);
    expect(closed).toMatchObject({ status: 200, body: { id: created.id, status: 'closed' } });
    expect(closed.body.launch_url).toBeUndefined();
    expect(await close(created.id)).toEqual(closed);
    expect(await bet()).toBe('session_closed');
    const [win] = await sql`select outcome from private.round_win(${provider}, ${created.id}, ${randomUUID()}, ${round}, 2, true, null,
      ${sha(randomUUID())})`;
    expect(win.outcome).toBe('ok');
    const events = await sql`select type from public.event where data->>'id' = ${created.id} order by created_at`;
    expect(events.map((e) => e.type)).toEqual(['session.created', 'session.closed']);
    expect(await close('not-a-uuid')).toMatchObject({ status: 400 });
  });
});
