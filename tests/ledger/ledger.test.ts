// The wallet ledger RPC (public.record_transaction): who may call it, the sign convention, the
// balance_after it writes, overdraws, references and bad input. Each test opens its own wallets.
import { randomUUID } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { type Account, as, cast, connect, grantModes, outcome, signIn } from '../helpers/db.ts';
import { ledgerOf, openWallet, record, type Movement } from './record.ts';

describe.each(grantModes)('who may record (%s)', (mode) => {
  const sql = connect(mode);

  test('staff (a manager, an admin) record a transaction and move the balance', async () => {
    const { alice, mona, adam } = await cast(sql);
    await openWallet(sql, alice);

    const deposit = await record(sql, mona, { client: alice, type: 'deposit', amount: '100' });
    const bet = await record(sql, adam, { client: alice, type: 'bet', amount: '-40.5' });

    expect(deposit).toMatchObject({ client_id: alice.id, amount: '100.0000', balance_after: '100.0000', created_by: mona.id });
    expect(bet).toMatchObject({ amount: '-40.5000', balance_after: '59.5000', created_by: adam.id });
    expect((await ledgerOf(sql, alice)).balance).toBe('59.5000');
  });

  test('clients may not record, not even on their own wallet (42501, nothing written)', async () => {
    const { alice, eve } = await cast(sql);
    await openWallet(sql, alice);

    expect(await outcome(() => record(sql, alice, { client: alice, type: 'deposit', amount: '10' }))).toBe('42501');
    expect(await outcome(() => record(sql, eve, { client: alice, type: 'deposit', amount: '10' }))).toBe('42501');
    expect(await ledgerOf(sql, alice)).toEqual({ balance: '0.0000', transactions: [] });
  });

  test('anonymous callers may not record (42501, nothing written)', async () => {
    const { alice } = await cast(sql);
    await openWallet(sql, alice);

    expect(await outcome(() => record(sql, 'anon', { client: alice, type: 'deposit', amount: '10' }))).toBe('42501');
    expect(await ledgerOf(sql, alice)).toEqual({ balance: '0.0000', transactions: [] });
  });

  test('the service itself may record: with the service key (service_role) and as the database owner', async () => {
    const { alice } = await cast(sql);
    await openWallet(sql, alice);

    const byServiceKey = await record(sql, 'service_role', { client: alice, type: 'deposit', amount: '5' });
    const [byOwner] = await sql`select * from public.record_transaction(${alice.id}::uuid, 'USD', 'deposit', 2)`;
    expect(byServiceKey).toMatchObject({ amount: '5.0000', balance_after: '5.0000', created_by: null });
    expect(byOwner).toMatchObject({ amount: '2.0000', balance_after: '7.0000', created_by: null });
  });

  test('the owner inside an API request (a security-definer function) is held to the staff rule', async () => {
    const { alice, mona } = await cast(sql);
    await openWallet(sql, alice);
    // current_user stays the owner, as in a function it owns; the request's claims are set.
    const asOwnerFor = async (caller: Account) => {
      const { claims } = await signIn(sql, caller);
      return sql.begin(async (tx) => {
      await tx`select set_config('request.jwt.claims', ${JSON.stringify(claims)}, true)`;
      return tx`select * from public.record_transaction(${alice.id}::uuid, 'USD', 'deposit', 3)`;
      });
    };

    expect(await outcome(() => asOwnerFor(alice))).toBe('42501');
    expect((await asOwnerFor(mona))[0]).toMatchObject({ balance_after: '3.0000', created_by: mona.id });
  });

  test('a role outside the API\'s own (a custom JWT role) is held to the staff rule', async () => {
    const { alice, mona } = await cast(sql);
    await openWallet(sql, alice);
    // Created inside the transaction, so the failing call that ends it takes the role away too.
    const asCustomRole = async (caller: Account) => {
      const { claims } = await signIn(sql, caller);
      return sql.begin(async (tx) => {
      const role = `cgs_custom_${randomUUID().slice(0, 8)}`;
      await tx.unsafe(`create role ${role} nologin`);
      await tx.unsafe(`grant usage on schema private to ${role}`);
      await tx.unsafe(`grant execute on function public.record_transaction(uuid, text, text, numeric, text, text),
        private.require_staff(text), private.is_staff() to ${role}`);
      await tx`select set_config('role', ${role}, true),
                      set_config('request.jwt.claims', ${JSON.stringify(claims)}, true)`;
      return tx`select * from public.record_transaction(${alice.id}::uuid, 'USD', 'deposit', 3)`;
      });
    };
    const messageOf = (run: Promise<unknown>) => run.then(() => 'recorded', (error: Error) => error.message);

    expect(await messageOf(asCustomRole(alice))).toBe('only staff may record transactions');
    // Staff claims pass the guard; the role then lacks rights on the wallet, and nothing is written.
    expect(await messageOf(asCustomRole(mona))).toMatch(/permission denied for table wallet/);
    expect(await ledgerOf(sql, alice)).toEqual({ balance: '0.0000', transactions: [] });
  });
});

describe('the ledger', () => {
  const sql = connect();

  describe('sign convention: amount is the signed effect on the balance', () => {
    test.each([
      { type: 'deposit', accepted: ['10'], refused: ['-10'] },
      { type: 'win', accepted: ['10'], refused: ['-10'] },
      { type: 'withdraw', accepted: ['-10'], refused: ['10'] },
      { type: 'bet', accepted: ['-10'], refused: ['10'] },
      { type: 'fee', accepted: ['-10'], refused: ['10'] },
      { type: 'adjustment', accepted: ['10', '-10'], refused: ['0'] },
    ])('a $type is recorded with amount $accepted and refused with $refused (22023)', async ({ type, accepted, refused }) => {
      const { alice, mona } = await cast(sql);
      await openWallet(sql, alice);
      await record(sql, mona, { client: alice, type: 'deposit', amount: '50' });

      for (const amount of accepted) {
        expect(await record(sql, mona, { client: alice, type, amount })).toMatchObject({ type, amount: `${amount}.0000` });
      }
      for (const amount of refused) {
        expect(await outcome(() => record(sql, mona, { client: alice, type, amount }))).toBe('22023');
      }
      expect((await ledgerOf(sql, alice)).transactions).toHaveLength(1 + accepted.length);
    });

    test('the table itself refuses a direct write against the convention (23514)', async () => {
      const { alice, mona } = await cast(sql);
      const insert = (type: string, amount: string) => () =>
        as(sql, mona, (tx) => tx`
          insert into public.transaction (client_id, type, currency_code, amount)
          values (${alice.id}, ${type}, 'USD', ${amount})`);

      expect(await outcome(insert('deposit', '-5'))).toBe('23514');
      expect(await outcome(insert('bet', '5'))).toBe('23514');
      expect(await outcome(insert('adjustment', '0'))).toBe('23514');
      expect(await outcome(insert('deposit', '5'))).toBe('ok');
    });
  });

  test('each transaction records the balance it leaves, and the balance is the sum of the amounts', async () => {
    const { alice, mona } = await cast(sql);
    await openWallet(sql, alice);
    const steps: Array<[string, string, string]> = [
      ['deposit', '100', '100.0000'],
      ['bet', '-30.5', '69.5000'],
      ['win', '12.25', '81.7500'],
      ['fee', '-0.0001', '81.7499'],
      ['adjustment', '-1.7499', '80.0000'],
      ['withdraw', '-80', '0.0000'],
    ];
    for (const [type, amount] of steps) await record(sql, mona, { client: alice, type, amount });

    const ledger = await ledgerOf(sql, alice);
    expect(ledger.transactions.map((t) => [t.type, t.balance_after])).toEqual(steps.map(([type, , after]) => [type, after]));
    expect(ledger.balance).toBe('0.0000');
  });

  describe('overdraw', () => {
    test('a debit that would overdraw is refused with insufficient funds and writes nothing', async () => {
      const { alice, mona } = await cast(sql);
      await openWallet(sql, alice);
      await record(sql, mona, { client: alice, type: 'deposit', amount: '50' });

      for (const type of ['withdraw', 'bet', 'fee', 'adjustment']) {
        await expect(record(sql, mona, { client: alice, type, amount: '-50.0001' })).rejects.toMatchObject({
          code: '23514',
          message: 'insufficient funds',
          constraint_name: 'wallet_balance_nonnegative',
        });
      }
      const ledger = await ledgerOf(sql, alice);
      expect(ledger.balance).toBe('50.0000');
      expect(ledger.transactions).toHaveLength(1);
    });

    test('a debit of exactly the balance goes through and leaves 0', async () => {
      const { alice, mona } = await cast(sql);
      await openWallet(sql, alice);
      await record(sql, mona, { client: alice, type: 'deposit', amount: '50' });

      expect(await record(sql, mona, { client: alice, type: 'withdraw', amount: '-50' })).toMatchObject({ balance_after: '0.0000' });
    });
  });

  describe('references', () => {
    test('a retry with the same reference returns the first transaction and applies once', async () => {
      const { alice, mona, adam } = await cast(sql);
      await openWallet(sql, alice);
      const deposit = { client: alice, type: 'deposit', amount: '100', note: 'round 7', reference: 'op-1' };

      const first = await record(sql, mona, deposit);
      const retry = await record(sql, adam, deposit);

      expect(retry).toEqual(first);
      const ledger = await ledgerOf(sql, alice);
      expect(ledger.balance).toBe('100.0000');
      expect(ledger.transactions).toHaveLength(1);
    });

    test.each<[string, Partial<Movement>]>([
      ['amount', { amount: '-20' }],
      ['type', { type: 'withdraw' }],
      ['currency', { currency: 'EUR' }],
      ['note', { note: 'another round' }],
    ])('a reference reused with a different %s is refused (23505) and writes nothing', async (_, change) => {
      const { alice, mona } = await cast(sql);
      await Promise.all([openWallet(sql, alice), openWallet(sql, alice, 'EUR')]);
      await record(sql, mona, { client: alice, type: 'deposit', amount: '100' });
      const bet: Movement = { client: alice, type: 'bet', amount: '-10', note: 'round 7', reference: 'op-1' };
      await record(sql, mona, bet);

      await expect(record(sql, mona, { ...bet, ...change })).rejects.toMatchObject({
        code: '23505',
        message: 'reference op-1 was already used for a different transaction',
      });
      const [usd, eur] = await Promise.all([ledgerOf(sql, alice), ledgerOf(sql, alice, 'EUR')]);
      expect([usd.balance, usd.transactions.length, eur.transactions.length]).toEqual(['90.0000', 2, 0]);
    });

    test('a reference is per client: another client may use the same one', async () => {
      const { alice, eve, mona } = await cast(sql);
      await Promise.all([openWallet(sql, alice), openWallet(sql, eve)]);

      const forAlice = await record(sql, mona, { client: alice, type: 'deposit', amount: '1', reference: 'op-1' });
      const forEve = await record(sql, mona, { client: eve, type: 'deposit', amount: '1', reference: 'op-1' });

      expect(forEve.id).not.toBe(forAlice.id);
      expect((await ledgerOf(sql, eve)).balance).toBe('1.0000');
    });

    test('a refused attempt does not use up its reference', async () => {
      const { alice, mona } = await cast(sql);
      await openWallet(sql, alice);
      const withdrawal = { client: alice, type: 'withdraw', amount: '-10', reference: 'op-1' };

      expect(await outcome(() => record(sql, mona, withdrawal))).toBe('23514');
      await record(sql, mona, { client: alice, type: 'deposit', amount: '10' });

      expect(await record(sql, mona, withdrawal)).toMatchObject({ reference: 'op-1', balance_after: '0.0000' });
    });
  });

  describe('bad input is refused and writes nothing', () => {
    test.each<[string, Partial<Movement>, string]>([
      ['a zero amount', { amount: '0' }, '22023'],
      ['a missing amount', { amount: null }, '22023'],
      ['more than 4 decimal places', { amount: '1.00001' }, '22023'],
      ['an amount of 10^16', { amount: '10000000000000000' }, '22023'],
      ['NaN', { amount: 'NaN' }, '22023'],
      ['Infinity', { amount: 'Infinity' }, '22023'],
      ['a type outside the list', { type: 'refund' }, '22023'],
      ['a missing type', { type: null as unknown as string }, '22023'],
      ['an unknown currency', { currency: 'XXX' }, '23503'],
      ['a currency the client has no wallet in', { currency: 'EUR' }, '23503'],
      ['an unknown client', { client: { id: crypto.randomUUID(), email: '' } }, '23503'],
      ['a note over 1000 characters', { note: 'x'.repeat(1001) }, '23514'],
      ['an empty reference', { reference: '' }, '23514'],
      ['a reference over 128 characters', { reference: 'r'.repeat(129) }, '23514'],
    ])('%s (%s)', async (_, change, code) => {
      const { alice, mona } = await cast(sql);
      await openWallet(sql, alice);
      await record(sql, mona, { client: alice, type: 'deposit', amount: '5' });

      expect(await outcome(() => record(sql, mona, { client: alice, type: 'deposit', amount: '1', ...change }))).toBe(code);
      const ledger = await ledgerOf(sql, alice);
      expect([ledger.balance, ledger.transactions.length]).toEqual(['5.0000', 1]);
    });

    test('a credit that would take the balance past numeric(20,4) is refused (22003)', async () => {
      const { alice, mona } = await cast(sql);
      await openWallet(sql, alice);
      await record(sql, mona, { client: alice, type: 'deposit', amount: '9999999999999999.9999' });

      expect(await outcome(() => record(sql, mona, { client: alice, type: 'win', amount: '0.0001' }))).toBe('22003');
      expect((await ledgerOf(sql, alice)).transactions).toHaveLength(1);
    });

    test('a balance of exactly 10^16 is refused by the ledger itself, with its own message, not by the column overflowing', async () => {
      const { alice, mona } = await cast(sql);
      await openWallet(sql, alice);
      await record(sql, mona, { client: alice, type: 'deposit', amount: '9999999999999999' });

      await expect(record(sql, mona, { client: alice, type: 'win', amount: '1' }))
        .rejects.toMatchObject({ code: '22003', message: 'the balance would exceed its maximum' });
      expect((await ledgerOf(sql, alice)).transactions).toHaveLength(1);
    });
  });
});
