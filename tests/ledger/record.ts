// Recording through the ledger RPC exactly as PostgREST calls it (named arguments, one
// transaction per call), and reading a wallet's ledger back as the database owner.
import type { Sql } from 'postgres';
import { expect } from 'vitest';
import { as, type Account, type Caller } from '../helpers/db.ts';

export interface Movement {
  client: Account;
  currency?: string;
  /** Any text: the tests send types the database must refuse, too. */
  type: string;
  /** Signed, as a decimal string so no digit is lost on the way. */
  amount: string | null;
  note?: string | null;
  reference?: string | null;
}

export interface Recorded {
  id: string;
  client_id: string;
  type: string;
  currency_code: string;
  amount: string;
  balance_after: string;
  note: string | null;
  reference: string | null;
  created_by: string | null;
  ledger_seq: string;
}

export async function record(sql: Sql, caller: Caller, m: Movement): Promise<Recorded> {
  return as(sql, caller, async (tx) => {
    const [row] = await tx<Recorded[]>`
      select * from public.record_transaction(
        client_id => ${m.client.id}::uuid, currency_code => ${m.currency ?? 'USD'}::text,
        type => ${m.type}::text, amount => ${m.amount}::numeric,
        note => ${m.note ?? null}::text, reference => ${m.reference ?? null}::text)`;
    return row;
  });
}

/** An empty wallet, created by the owner as test setup. */
export async function openWallet(sql: Sql, client: Account, currency = 'USD'): Promise<void> {
  await sql`insert into public.wallet (client_id, currency_code) values (${client.id}, ${currency})`;
}

export interface Ledger {
  balance: string;
  transactions: Recorded[];
}

/** The wallet's balance and its transactions in the order they moved it. */
export async function ledgerOf(sql: Sql, client: Account, currency = 'USD'): Promise<Ledger> {
  const [[wallet], transactions] = await Promise.all([
    sql<{ balance: string }[]>`
      select balance from public.wallet where client_id = ${client.id} and currency_code = ${currency}`,
    sql<Recorded[]>`
      select * from public.transaction
      where client_id = ${client.id} and currency_code = ${currency} order by ledger_seq`,
  ]);
  return { balance: wallet.balance, transactions };
}

/**
 * The ledger's invariant: each transaction's balance_after is the running sum of the amounts so
 * far, never negative, and the wallet's balance is the sum of them all.
 */
export function expectChainHolds({ balance, transactions }: Ledger): void {
  let running = 0n;
  for (const t of transactions) {
    running += units(t.amount);
    expect(units(t.balance_after)).toBe(running);
    expect(running).toBeGreaterThanOrEqual(0n);
  }
  expect(units(balance)).toBe(running);
}

/** A numeric(20,4) string as an exact count of 1/10000 units. */
export function units(amount: string): bigint {
  const [whole, fraction = ''] = amount.split('.');
  const sign = whole.startsWith('-') ? -1n : 1n;
  return sign * (BigInt(whole.replace('-', '')) * 10_000n + BigInt(fraction.padEnd(4, '0')));
}
