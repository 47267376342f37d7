// The ledger under contention: 1,200 credits and debits, some of them retries, fired at once from
// 20 connections over five wallets, each call its own PostgREST-like transaction.
import postgres from 'postgres';
import { afterAll, expect, inject, test } from 'vitest';
import { connect, signUp, type Account } from '../helpers/db.ts';
import { expectChainHolds, ledgerOf, openWallet, record, type Movement, type Recorded } from './record.ts';

const sql = connect();
const pool = postgres(inject('databaseUrl'), { max: 20, onnotice: () => {} });
afterAll(() => pool.end());

/** Deterministic pseudo-random numbers (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

interface Wallet {
  client: Account;
  currency: string;
}

/** 1,000 distinct movements, every fifth with a reference that is sent two or three times. */
function movements(wallets: Wallet[], next: () => number): Movement[] {
  const calls: Movement[] = [];
  for (let i = 0; i < 1000; i++) {
    const { client, currency } = wallets[Math.floor(next() * wallets.length)];
    const credit = next() < 0.5;
    const type = credit ? (next() < 0.5 ? 'deposit' : 'win') : ['withdraw', 'bet', 'fee', 'adjustment'][Math.floor(next() * 4)];
    const size = (1 + Math.floor(next() * 1_000_000)) / 10_000;
    const movement = { client, currency, type, amount: (credit ? size : -size).toFixed(4) };
    const copies = i % 5 === 0 ? 2 + Math.floor(next() * 2) : 1;
    for (let c = 0; c < copies; c++) calls.push({ ...movement, reference: copies > 1 ? `op-${i}` : null });
  }
  return calls;
}

test('concurrent credits and debits lose nothing: balances equal their sums, chains hold, none negative, retries apply once', async () => {
  const [mona, anna, ben] = await Promise.all([
    signUp(sql, 'mona', { roles: ['manager'] }),
    signUp(sql, 'anna'),
    signUp(sql, 'ben'),
  ]);
  const wallets: Wallet[] = [
    { client: anna, currency: 'USD' },
    { client: anna, currency: 'EUR' },
    { client: anna, currency: 'GBP' },
    { client: ben, currency: 'USD' },
    { client: ben, currency: 'EUR' },
  ];
  await Promise.all(wallets.map((w) => openWallet(sql, w.client, w.currency)));
  const calls = movements(wallets, random(6));
  expect(calls.length).toBeGreaterThanOrEqual(1000);

  // A debit refused for want of money is an answer, not a failure; anything else fails the test.
  const attempt = async (call: Movement): Promise<Recorded | 'refused'> => {
    try {
      return await record(pool, mona, call);
    } catch (error) {
      const { code, message } = error as { code?: string; message?: string };
      if (code === '23514' && message === 'insufficient funds') return 'refused';
      throw error;
    }
  };
  const results = await Promise.all(calls.map(attempt));

  const applied = new Map<string, Recorded>();
  for (const row of results) if (row !== 'refused') applied.set(row.id, row);
  const refused = results.filter((r) => r === 'refused').length;
  // Both branches were exercised: plenty went through, and some debits found too little money.
  expect(applied.size).toBeGreaterThan(500);
  expect(refused).toBeGreaterThan(0);

  for (const { client, currency } of wallets) {
    const ledger = await ledgerOf(sql, client, currency);
    // What was written is exactly what the callers were told was applied.
    const told = [...applied.values()].filter((r) => r.client_id === client.id && r.currency_code === currency);
    expect(ledger.transactions.map((t) => t.id).sort()).toEqual(told.map((t) => t.id).sort());
    expectChainHolds(ledger);
  }

  // Every call carrying a reference was answered with the same single transaction, or refused.
  const byReference = new Map<string, Set<string>>();
  calls.forEach((call, i) => {
    const result = results[i];
    if (!call.reference || result === 'refused') return;
    byReference.set(call.reference, (byReference.get(call.reference) ?? new Set()).add(result.id));
  });
  expect(byReference.size).toBeGreaterThan(100);
  for (const ids of byReference.values()) expect(ids.size).toBe(1);
});
