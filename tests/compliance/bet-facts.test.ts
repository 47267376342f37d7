// What a bet knows of its player and its client without reading their tables (issue 38): a session
// says whether its player may have restrictions, a live float whether its client is active. Each
// fact must never say less than the truth: a restriction given mid-session holds the next bet, a
// suspension the next live bet, and a new session (or float) made while a restriction (or
// suspension) is written cannot miss it, whichever of the two takes the player (or the profile)
// first. Real concurrent transactions; each waits on the other's lock, seen in pg_locks.
import { createHash, randomUUID } from 'node:crypto';
import type { Sql } from 'postgres';
import { beforeAll, describe, expect, it } from 'vitest';
import { connect, untilBlockedBy } from '../helpers/db.ts';
import { newOperator, type Operator, recordedSession } from '../helpers/api.ts';

const sql = connect();
const sha = (text: string) => createHash('sha256').update(text).digest('hex');
let providerHash: string;

beforeAll(async () => {
  providerHash = sha((await sql`select key from public.issue_provider_key('pragmatic-play')`)[0].key);
});

async function fundedOperator(name: string): Promise<Operator> {
  const operator = await newOperator(sql, name);
  await sql`insert into public.wallet (client_id, currency_code) values (${operator.account.id}, 'EUR')`;
  await sql`select * from public.record_transaction(${operator.account.id}::uuid, 'EUR', 'deposit', 100::numeric)`;
  return operator;
}
const bet = async (session: string) =>
  (await sql`select outcome from private.round_bet(${providerHash}, ${session}::uuid, ${randomUUID()}, ${randomUUID()}, 1, false,
    ${sha(randomUUID())})`)[0].outcome as string;
/** A session of `player`'s, inserted as POST /v3/sessions does (its triggers run). */
const sessionOf = async (db: Sql, client: string, player: string, livemode = true) =>
  (await db`
    insert into public.game_session (client_id, livemode, player_id, provider_id, game, currency_code, expires_at)
    select ${client}, ${livemode}, ${player}, id, 'vs20olympgate', 'EUR', now() + interval '1 hour'
    from public.game_provider where slug = 'pragmatic-play'
    returning id`)[0].id as string;
const coolOff = (db: Sql, client: string, player: string) =>
  db`insert into public.player_restriction (client_id, livemode, player_id, cool_off_until)
     values (${client}, true, ${player}, now() + interval '1 day')`;
const restricted = async (session: string) =>
  (await sql`select restricted from public.game_session where id = ${session}`)[0].restricted as boolean;

/**
 * Runs `first` in a transaction held open, then `second` on another connection, which must wait
 * for `first`'s lock (or, if nothing makes it wait, finish); then commits `first`. `second`'s result.
 */
async function interleaved<T>(first: (tx: Sql) => Promise<unknown>, second: () => Promise<T>): Promise<T> {
  let commit!: () => void;
  let started!: (pid: number) => void;
  const begun = new Promise<number>((resolve) => (started = resolve));
  const held = sql.begin(async (tx) => {
    await first(tx as unknown as Sql);
    started((await tx`select pg_backend_pid() as pid`)[0].pid);
    await new Promise<void>((resolve) => (commit = resolve));
  });
  const pid = await begun;
  const waiting = second();
  await untilBlockedBy(sql, pid, waiting);
  commit();
  await held;
  return waiting;
}

describe("a session's restrictions fact", () => {
  it('a player with none: the session says so; a restriction given mid-session marks it and holds its next bet', async () => {
    const operator = await fundedOperator('facts-restricted');
    const player = `p-${randomUUID()}`;
    const session = await sessionOf(sql, operator.account.id, player);
    const [otherPlayer, otherMode] = [await sessionOf(sql, operator.account.id, `q-${player}`),
      await sessionOf(sql, operator.account.id, player, false)];
    expect(await restricted(session)).toBe(false);
    expect(await bet(session)).toBe('ok');
    await coolOff(sql, operator.account.id, player);
    expect(await restricted(session)).toBe(true);
    expect(await bet(session)).toBe('player_restricted');
    // Another player of the client's, or the same player in the other mode, is not marked.
    expect([await restricted(otherPlayer), await restricted(otherMode)]).toEqual([false, false]);
    // A session made while the player has a restriction says so from the start; the others still not.
    expect(await restricted(await sessionOf(sql, operator.account.id, player))).toBe(true);
    expect(await restricted(await sessionOf(sql, operator.account.id, `q-${player}`))).toBe(false);
    expect(await restricted(await sessionOf(sql, operator.account.id, player, false))).toBe(false);
  });

  it('a new session waits for a restriction being written, and reads it', async () => {
    const operator = await fundedOperator('facts-session-second');
    const player = `p-${randomUUID()}`;
    const session = await interleaved((tx) => coolOff(tx, operator.account.id, player), () => sessionOf(sql, operator.account.id, player));
    expect(await restricted(session)).toBe(true);
    expect(await bet(session)).toBe('player_restricted');
  });

  it('a restriction waits for a new session being made, and marks it', async () => {
    const operator = await fundedOperator('facts-restriction-second');
    const player = `p-${randomUUID()}`;
    let session!: string;
    await interleaved(async (tx) => (session = await sessionOf(tx, operator.account.id, player)),
      () => coolOff(sql, operator.account.id, player));
    expect(await restricted(session)).toBe(true);
    expect(await bet(session)).toBe('player_restricted');
  });
});

describe("a float's client status fact", () => {
  const setStatus = (operator: Operator, status: string) =>
    sql`update public.profile set status = ${status} where id = ${operator.account.id}`;
  const active = async (operator: Operator, currency = 'EUR') =>
    (await sql`select client_active from public.wallet where client_id = ${operator.account.id} and currency_code = ${currency}`)[0]
      .client_active as boolean;

  it('follows the profile both ways, and a live bet follows it; a test-mode bet reads the profile', async () => {
    const operator = await fundedOperator('facts-status');
    const session = await recordedSession(sql, operator.account.id);
    expect(await active(operator)).toBe(true);
    await setStatus(operator, 'suspended');
    expect(await active(operator)).toBe(false);
    expect(await bet(session)).toBe('operator_suspended');
    const test = await recordedSession(sql, operator.account.id, { livemode: false });
    expect(await bet(test)).toBe('operator_suspended');
    await setStatus(operator, 'active');
    expect(await active(operator)).toBe(true);
    expect(await bet(session)).toBe('ok');
  });

  it('a suspension waits for a new float being made, and suspends it', async () => {
    const operator = await fundedOperator('facts-float-first');
    await interleaved(
      (tx) => tx`insert into public.wallet (client_id, currency_code) values (${operator.account.id}, 'USD')`,
      () => setStatus(operator, 'suspended'));
    expect(await active(operator, 'USD')).toBe(false);
  });

  it('a new float waits for a suspension being written, and reads it', async () => {
    const operator = await fundedOperator('facts-float-second');
    await interleaved((tx) => tx`update public.profile set status = 'suspended' where id = ${operator.account.id}`,
      () => sql`insert into public.wallet (client_id, currency_code) values (${operator.account.id}, 'USD')`);
    expect(await active(operator, 'USD')).toBe(false);
  });
});
