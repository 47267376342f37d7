import type { Sql } from 'postgres';
import { describeAccessMatrix, newId, ownerAndStaff, staff } from './matrix.ts';

/** A live session of the client's, as POST /v3/sessions records it. */
async function sessionOf(sql: Sql, clientId: string): Promise<{ id: string; provider_id: string }> {
  const [session] = await sql`
    insert into public.game_session (client_id, livemode, player_id, provider_id, game, currency_code, expires_at)
    select ${clientId}, true, 'p1', id, 'aviator', 'USD', now() + interval '15 minutes'
    from public.game_provider where slug = 'spribe'
    returning id, provider_id`;
  return session as { id: string; provider_id: string };
}

const roundOf = (session: { id: string; provider_id: string }, clientId: string) => ({
  provider_id: session.provider_id, provider_round_id: `r-${newId()}`, client_id: clientId, livemode: true,
  session_id: session.id, player_id: 'p1', game: 'aviator', currency_code: 'USD',
});

// Rounds are written by the round engine alone (as the service); clients read their own, staff all.
describeAccessMatrix({
  table: 'game_round',
  async seed({ sql, owner }) {
    const [row] = await sql`insert into public.game_round ${sql(roundOf(await sessionOf(sql, owner.id), owner.id))} returning id`;
    return row.id;
  },
  newRow: async ({ sql, owner }) => ({ id: newId(), ...roundOf(await sessionOf(sql, owner.id), owner.id) }),
  change: { status: 'cancelled', closed_at: new Date() },
  allowed: { select: ownerAndStaff, insert: [], update: [], delete: [] },
});

// Their transactions likewise.
describeAccessMatrix({
  table: 'round_transaction',
  async seed({ sql, owner }) {
    const session = await sessionOf(sql, owner.id);
    const [row] = await sql`
      insert into public.round_transaction (provider_id, transaction_id, kind, client_id, amount, request_fingerprint, response_body)
      values (${session.provider_id}, ${`t-${newId()}`}, 'rollback', ${owner.id}, 0, ${'0'.repeat(64)}, ${sql.json({})})
      returning id`;
    return row.id;
  },
  newRow: async ({ sql, owner }) => {
    const session = await sessionOf(sql, owner.id);
    return {
      id: newId(), provider_id: session.provider_id, transaction_id: `t-${newId()}`, kind: 'rollback', client_id: owner.id,
      amount: 0, request_fingerprint: '0'.repeat(64), response_body: {},
    };
  },
  change: { settled: true },
  allowed: { select: ownerAndStaff, insert: [], update: [], delete: [] },
});

// Their seamless wallet calls likewise: queued and finished by the engine and the runner alone.
describeAccessMatrix({
  table: 'wallet_call',
  async seed({ sql, owner }) {
    const session = await sessionOf(sql, owner.id);
    const [row] = await sql`
      with t as (
        insert into public.round_transaction (provider_id, transaction_id, kind, client_id, amount, request_fingerprint)
        values (${session.provider_id}, ${`t-${newId()}`}, 'rollback', ${owner.id}, 0, ${'0'.repeat(64)})
        returning id
      )
      insert into public.wallet_call (client_id, livemode, round_transaction_id, action, request)
      select ${owner.id}, true, t.id, 'rollback', '{}' from t
      returning id`;
    return row.id;
  },
  newRow: async ({ sql, owner }) => {
    const session = await sessionOf(sql, owner.id);
    const [t] = await sql`
      insert into public.round_transaction (provider_id, transaction_id, kind, client_id, amount, request_fingerprint)
      values (${session.provider_id}, ${`t-${newId()}`}, 'rollback', ${owner.id}, 0, ${'0'.repeat(64)})
      returning id`;
    return { id: newId(), client_id: owner.id, livemode: true, round_transaction_id: t.id, action: 'rollback', request: {} };
  },
  change: { status: 'failed', completed_at: new Date() },
  allowed: { select: ownerAndStaff, insert: [], update: [], delete: [] },
});

/** A win of the client's in a new round, as the engine records one. */
async function winOf(sql: Sql, clientId: string): Promise<{ round: string; win: string }> {
  const [round] = await sql`insert into public.game_round ${sql(roundOf(await sessionOf(sql, clientId), clientId))} returning id, provider_id`;
  const [win] = await sql`
    insert into public.round_transaction (provider_id, transaction_id, kind, client_id, round_id, amount, request_fingerprint, response_body)
    values (${round.provider_id}, ${`t-${newId()}`}, 'win', ${clientId}, ${round.id}, 500, ${'0'.repeat(64)}, ${sql.json({})})
    returning id`;
  return { round: round.id, win: win.id };
}

const heldWinOf = (clientId: string, { round, win }: { round: string; win: string }) => ({
  round_transaction_id: win, client_id: clientId, livemode: true, round_id: round, amount: 500, currency_code: 'USD',
});

// Held wins are the engine's and staff's review's to write; clients read their own, staff all.
describeAccessMatrix({
  table: 'held_win',
  key: 'round_transaction_id',
  async seed({ sql, owner }) {
    const [row] = await sql`insert into public.held_win ${sql(heldWinOf(owner.id, await winOf(sql, owner.id)))} returning round_transaction_id`;
    return row.round_transaction_id;
  },
  newRow: async ({ sql, owner }) => heldWinOf(owner.id, await winOf(sql, owner.id)),
  change: { status: 'released', decided_at: new Date() },
  allowed: { select: ownerAndStaff, insert: [], update: [], delete: [] },
});

// Win limits are staff's: no client sees where review starts.
describeAccessMatrix({
  table: 'win_limit',
  async seed({ sql }) {
    const [row] = await sql`
      insert into public.win_limit (provider_id, game, max_multiple)
      select id, ${`g-${newId()}`}, 500 from public.game_provider where slug = 'spribe'
      returning id`;
    return row.id;
  },
  async newRow({ sql }) {
    const [provider] = await sql`select id from public.game_provider where slug = 'spribe'`;
    return { id: newId(), provider_id: provider.id, game: `g-${newId()}`, max_multiple: 1000 };
  },
  change: { max_multiple: '2000.00' },
  allowed: { select: staff, insert: staff, update: staff, delete: staff },
});
