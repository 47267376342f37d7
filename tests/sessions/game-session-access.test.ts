// Who may see game sessions and the endpoint's internals through the API: clients read their
// own sessions, staff read all, nobody writes; the idempotency store and the endpoint's functions
// are out of the API's reach. Under both grant modes: RLS must hold even where everything is granted.
import type { Sql, TransactionSql } from 'postgres';
import { beforeAll, describe, expect, it } from 'vitest';
import { as, type Cast, cast, connect, grantModes, outcome } from '../helpers/db.ts';
import { issueKey } from '../helpers/api.ts';

describe.each(grantModes)('game_session with %s', (mode) => {
  const sql: Sql = connect(mode);
  let people: Cast;
  let aliceSession: string;

  beforeAll(async () => {
    people = await cast(sql);
    const { keyId } = await issueKey(sql, people.alice);
    const [session] = await sql`
      insert into public.game_session (client_id, api_key_id, livemode, player_id, provider_id, game, currency_code, expires_at)
      select ${people.alice.id}, ${keyId}, true, 'p1', id, 'aviator', 'USD', now() + interval '15 minutes'
      from public.game_provider where slug = 'spribe'
      returning id`;
    aliceSession = session.id;
  });

  const visible = (caller: Cast[keyof Cast]) =>
    as(sql, caller, (tx) => tx`select id from public.game_session where id = ${aliceSession}`);

  it('clients read their own sessions', async () => {
    expect(await visible(people.alice)).toHaveLength(1);
  });

  it('clients do not see other clients\' sessions', async () => {
    expect(await visible(people.eve)).toHaveLength(0);
  });

  it.each(['mona', 'adam'] as const)('staff (%s) read every session', async (staff) => {
    expect(await visible(people[staff])).toHaveLength(1);
  });

  it('anonymous callers read no session', async () => {
    const result = await outcome(() => as(sql, 'anon', (tx) => tx`select id from public.game_session`));
    if (mode === 'explicit grants') expect(result).toBe('42501');
    else expect(await as(sql, 'anon', (tx) => tx`select id from public.game_session`)).toHaveLength(0);
  });

  it.each(['alice', 'adam'] as const)('%s cannot create a session through the API', async (who) => {
    expect(await outcome(() => as(sql, people[who], (tx) => tx`
      insert into public.game_session (client_id, livemode, player_id, provider_id, game, currency_code, expires_at)
      select ${people[who].id}, true, 'p2', id, 'aviator', 'USD', now() + interval '1 hour'
      from public.game_provider where slug = 'spribe'`))).toBe('42501');
  });

  it.each(['alice', 'adam'] as const)('%s cannot change or delete a session through the API', async (who) => {
    // Without the grant the statement is refused; with it, RLS leaves no row to touch. The staff role
    // is the project's own, so Supabase's older default grants never included it.
    const denied = mode === 'explicit grants' || who === 'adam' ? '42501' : 0;
    const touched = async (statement: (tx: TransactionSql) => PromiseLike<{ length: number }>) => {
      try {
        return (await as(sql, people[who], async (tx) => statement(tx))).length;
      } catch (error) {
        return (error as { code?: string }).code;
      }
    };
    expect(await touched((tx) => tx`update public.game_session set status = 'closed' where id = ${aliceSession} returning id`))
      .toBe(denied);
    expect(await touched((tx) => tx`delete from public.game_session where id = ${aliceSession} returning id`)).toBe(denied);
    const [row] = await sql`select status from public.game_session where id = ${aliceSession}`;
    expect(row.status).toBe('created');
  });

  it('keeps the idempotency store and the endpoint\'s functions away from API callers', async () => {
    for (const caller of [people.alice, people.adam, 'anon'] as const) {
      expect(await outcome(() => as(sql, caller, (tx) => tx`select * from private.idempotency_key`))).toBe('42501');
      expect(await outcome(() => as(sql, caller, (tx) => tx`select private.purge_idempotency_keys()`))).toBe('42501');
      expect(await outcome(() => as(sql, caller, (tx) => tx`
        select * from private.create_game_session(null, null, null, null, null, null, null, null, null, null, null, null, null)`)))
        .toBe('42501');
      expect(await outcome(() => as(sql, caller, (tx) => tx`select * from private.authenticate_api_key('x')`))).toBe('42501');
      expect(await outcome(() => as(sql, caller, (tx) => tx`select * from private.read_game_session('x', gen_random_uuid())`)))
        .toBe('42501');
    }
  });
});
