// Hostile input to the database functions callable over RPC: whatever arguments and whoever
// calls, a call either applies fully or is refused with a precise SQLSTATE, and writes only
// when it succeeds. Ledger invariants hold afterwards.
import fc from 'fast-check';
import { beforeAll, describe, expect, test } from 'vitest';
import { type Caller, type Cast, as, cast, connect } from '../helpers/db.ts';
import { expectChainHolds, ledgerOf, openWallet, record } from '../ledger/record.ts';

// What a refusal may look like: privileges, bad values, references, constraints. Anything else
// (an internal error, a PL/pgSQL raise without a code, a missing function) is a defect.
const REFUSALS = new Set(['42501', '22023', '22P02', '22003', '23503', '23505', '23514']);

const amount = fc.oneof(
  fc.double({ noNaN: false }).map(String),
  fc.bigInt({ min: -(10n ** 18n), max: 10n ** 18n }).map(String),
  fc.tuple(fc.integer({ min: -9_999, max: 9_999 }), fc.nat({ max: 999_999 })).map(([w, f]) => `${w}.${f}`),
  fc.constantFrom('0', '-0', 'NaN', 'Infinity', '-Infinity', '1e400', '0.00001', ' 5 ', 'five'),
  fc.constant(null),
);
const text = fc.oneof(fc.string({ maxLength: 40 }), fc.string({ unit: 'grapheme', maxLength: 2000 }), fc.constant(null));

// Callers by name: the cast's accounts (alice and eve are clients, mona and adam staff), anonymous,
// and the service itself with the service key. Staff and the service may write; nobody else.
const CALLERS = ['anon', 'service_role', 'alice', 'eve', 'mona', 'adam'] as const;
const WRITERS: readonly string[] = ['service_role', 'mona', 'adam'];
const callerOf = (name: (typeof CALLERS)[number], c: Cast): Caller =>
  name === 'anon' || name === 'service_role' ? name : c[name];

const hostile = fc.record({
  caller: fc.constantFrom(...CALLERS),
  client: fc.oneof(fc.constantFrom('alice', 'eve'), fc.uuid(), fc.string({ maxLength: 40 })),
  currency: fc.oneof(fc.constantFrom('USD', 'EUR', 'GBP', 'XXX', 'usd'), fc.string({ maxLength: 8 })),
  type: fc.oneof(fc.constantFrom('deposit', 'withdraw', 'adjustment', 'bet', 'win', 'fee'), fc.string({ maxLength: 12 })),
  amount,
  note: text,
  reference: fc.oneof(fc.constantFrom('r-1', 'r-2', 'r-3'), text),
});

// Calls staff could make for real (some still refused: overdraws, reused references).
const wellFormed = fc
  .record({
    caller: fc.constantFrom('mona', 'adam'),
    client: fc.constantFrom('alice', 'eve'),
    currency: fc.constant('USD'),
    type: fc.constantFrom('deposit', 'withdraw', 'adjustment', 'bet', 'win', 'fee'),
    cents: fc.integer({ min: 1, max: 50_000 }),
    note: fc.option(fc.string({ maxLength: 100 })),
    reference: fc.option(fc.constantFrom('r-1', 'r-2', 'r-3', 'r-4')),
  })
  .map(({ cents, type, ...call }) => ({
    ...call,
    type,
    amount: `${['deposit', 'win'].includes(type) || (type === 'adjustment' && cents % 2) ? '' : '-'}${(cents / 100).toFixed(2)}`,
  }));

describe('record_transaction under hostile input', () => {
  const sql = connect();
  let c: Cast;
  beforeAll(async () => {
    c = await cast(sql);
    await Promise.all([openWallet(sql, c.alice, 'USD'), openWallet(sql, c.alice, 'EUR'), openWallet(sql, c.eve, 'USD')]);
  });

  test('any arguments from any caller: applied whole or refused with a precise code, never written when refused', async () => {
    const outcomes = { applied: 0, refused: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.oneof({ arbitrary: hostile, weight: 2 }, { arbitrary: wellFormed, weight: 1 }),
        async (input) => {
          const named = { alice: c.alice, eve: c.eve, mona: c.mona, adam: c.adam } as const;
          const caller = callerOf(input.caller, c);
          const client = input.client === 'alice' || input.client === 'eve' ? named[input.client] : { id: input.client, email: '' };
          const before = await sql`select count(*)::int as n from public.transaction where client_id in ${sql([c.alice.id, c.eve.id])}`;
          try {
            const row = await record(sql, caller, {
              client, currency: input.currency, type: input.type, amount: input.amount, note: input.note, reference: input.reference,
            });
            expect(WRITERS).toContain(input.caller);
            expect(row.client_id).toBe(client.id);
            outcomes.applied++;
          } catch (error) {
            const code = (error as { code?: string }).code;
            expect(REFUSALS, `${code}: ${(error as Error).message}`).toContain(code);
            if (code === '42501') expect(WRITERS).not.toContain(input.caller);
            const after = await sql`select count(*)::int as n from public.transaction where client_id in ${sql([c.alice.id, c.eve.id])}`;
            expect(after[0].n).toBe(before[0].n);
            outcomes.refused++;
          }
        },
      ),
      { numRuns: 300 },
    );
    // The generators reach both sides; a fuzz that only ever refuses proves little.
    expect(outcomes.applied).toBeGreaterThan(0);
    expect(outcomes.refused).toBeGreaterThan(0);

    for (const [client, currency] of [[c.alice, 'USD'], [c.alice, 'EUR'], [c.eve, 'USD']] as const) {
      expectChainHolds(await ledgerOf(sql, client, currency));
    }
  }, 120_000);
});

describe('issue_api_key and revoke_api_key under hostile input', () => {
  const sql = connect();
  let c: Cast;
  beforeAll(async () => {
    c = await cast(sql);
  });
  // 23503 no such client, 23514 a label out of bounds, P0002 no such key (PostgREST: 404-ish 400).
  const KEY_REFUSALS = new Set(['42501', '22P02', '23503', '23514', 'P0002']);
  // Only this test's accounts: other files issue keys concurrently.
  const keyCount = async () =>
    (await sql`select count(*)::int as n from public.api_key where client_id in ${sql([c.alice.id, c.eve.id, c.mona.id, c.adam.id])}`)[0].n as number;

  test('any arguments from any caller: a key is issued only by staff or the service, for a client, and revoked only by them', async () => {
    const issued: string[] = [];
    const outcomes = { issued: 0, revoked: 0, refused: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          caller: fc.constantFrom(...CALLERS),
          action: fc.constantFrom('issue', 'revoke'),
          client: fc.oneof(fc.constantFrom('alice', 'eve', 'mona'), fc.uuid(), fc.string({ maxLength: 40 })),
          label: fc.oneof(fc.constant(undefined), text, fc.constant('x'.repeat(101))),
          keyId: fc.oneof(fc.constantFrom('issued'), fc.uuid(), fc.string({ maxLength: 40 })),
        }),
        async (input) => {
          const named = { alice: c.alice, eve: c.eve, mona: c.mona, adam: c.adam } as const;
          const caller = callerOf(input.caller, c);
          const client = Object.hasOwn(named, input.client) ? named[input.client as keyof typeof named].id : input.client;
          const keyId = input.keyId === 'issued' ? (issued.at(-1) ?? input.keyId) : input.keyId;
          const before = await keyCount();
          try {
            if (input.action === 'issue') {
              const [row] = await as(sql, caller, (tx) =>
                input.label === undefined
                  ? tx`select * from public.issue_api_key(client_id => ${client}::uuid)`
                  : tx`select * from public.issue_api_key(client_id => ${client}::uuid, label => ${input.label}::text)`);
              expect(WRITERS).toContain(input.caller);
              expect(row.key).toMatch(/^cgs_live_[A-Za-z0-9_-]{43}$/);
              expect(await keyCount()).toBe(before + 1);
              issued.push(row.id);
              outcomes.issued++;
            } else {
              const [row] = await as(sql, caller, (tx) => tx`select * from public.revoke_api_key(id => ${keyId}::uuid)`);
              expect(WRITERS).toContain(input.caller);
              expect(row.status).toBe('revoked');
              outcomes.revoked++;
            }
          } catch (error) {
            const code = (error as { code?: string }).code;
            expect(KEY_REFUSALS, `${code}: ${(error as Error).message}`).toContain(code);
            if (code === '42501') expect(WRITERS).not.toContain(input.caller);
            expect(await keyCount()).toBe(before);
            outcomes.refused++;
          }
        },
      ),
      { numRuns: 200 },
    );
    expect(outcomes.issued * outcomes.revoked * outcomes.refused).toBeGreaterThan(0);
    // A key issued to a non-client (staff-only account) never exists: mona holds client too
    // (sign-up gives every account the client role), so she may get keys; nobody else's id may.
    const strangers = await sql`
      select k.id from public.api_key k
      where not exists (select 1 from public.user_role r where r.user_id = k.client_id and r.role = 'client')`;
    expect(strangers).toHaveLength(0);
  }, 120_000);
});
