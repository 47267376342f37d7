// The jurisdictions' rules as launch tokens carry them (v3/jurisdiction-rules.ts), against the test
// database with an injected clock: read once for many sessions and again once a minute has passed; a
// code not seen yet read again at once, at most once a second; a read that failed never kept, and a
// failed read that a newer one replaced never throws the newer one away. The reads are counted by a
// wrapper around the real connection (it can also hand the next read a failure, as a lost database).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sql } from 'postgres';
import { connect } from '../helpers/db.ts';
import { jurisdictionRules } from '../../supabase/functions/v3/jurisdiction-rules.ts';

const sql = connect();
// Codes of this file's own (the other files' tests read the shipped ones, and ZZ-EUR).
const codes = { refreshed: 'ZR-A', added: 'ZR-B', never: 'ZR-C' };

beforeAll(async () => {
  await sql`delete from public.jurisdiction where code in ${sql(Object.values(codes))}`;
  await sql`insert into public.jurisdiction (code, name, regulator, max_stake, max_stake_currency)
            values (${codes.refreshed}, 'Rules test', 'Rules test', 5, 'EUR')`;
});
afterAll(async () => {
  await sql`delete from public.jurisdiction where code in ${sql(Object.values(codes))}`;
});

/** The real connection, counting reads; `next` hands the next read this promise instead. */
function countedReads() {
  const reads = { count: 0, next: null as null | (() => Promise<never>) };
  const counted = (strings: TemplateStringsArray, ...values: never[]) => {
    reads.count++;
    const instead = reads.next;
    reads.next = null;
    return instead ? instead() : sql(strings, ...values);
  };
  return { reads, sql: counted as unknown as Sql };
}

function clock() {
  const time = { now: 1_000_000 };
  return { time, now: () => time.now };
}

const maxStake = (rules: Record<string, unknown> | undefined) => rules?.max_stake;

describe('the jurisdictions\' rules for launch tokens', () => {
  it('reads them once for many lookups, and again when a minute has passed (not before)', async () => {
    const { reads, sql: counted } = countedReads();
    const { time, now } = clock();
    const rulesOf = jurisdictionRules(counted, now);
    expect(maxStake(await rulesOf(codes.refreshed))).toBe('5.0000');
    expect((await rulesOf('GB'))?.autoplay_allowed).toBe(false);
    expect(reads.count).toBe(1);

    await sql`update public.jurisdiction set max_stake = 7 where code = ${codes.refreshed}`;
    time.now += 59_999;
    expect(maxStake(await rulesOf(codes.refreshed))).toBe('5.0000');
    expect(reads.count).toBe(1);
    time.now += 1;
    expect(maxStake(await rulesOf(codes.refreshed))).toBe('7.0000');
    expect(reads.count).toBe(2);
    expect(maxStake(await rulesOf(codes.refreshed))).toBe('7.0000');
    expect(reads.count).toBe(2);
  });

  it('reads again at once for a code not seen yet, at most once a second, and answers undefined for one that does not exist', async () => {
    const { reads, sql: counted } = countedReads();
    const { time, now } = clock();
    const rulesOf = jurisdictionRules(counted, now);
    expect(await rulesOf(codes.added)).toBeUndefined();
    expect(reads.count).toBe(1);
    await sql`insert into public.jurisdiction (code, name, regulator, max_stake, max_stake_currency)
              values (${codes.added}, 'Rules test', 'Rules test', 3, 'EUR')`;
    time.now += 999;
    expect(await rulesOf(codes.added)).toBeUndefined();
    expect(reads.count).toBe(1);
    time.now += 1;
    expect(maxStake(await rulesOf(codes.added))).toBe('3.0000');
    expect(reads.count).toBe(2);
    // That read was the newest: a code that names nothing is not read again within the second.
    expect(await rulesOf(codes.never)).toBeUndefined();
    expect(reads.count).toBe(2);
    time.now += 1_000;
    expect(await rulesOf(codes.never)).toBeUndefined();
    expect(reads.count).toBe(3);
    // A known code is answered from what was read, within the second or not.
    expect((await rulesOf('GB'))?.autoplay_allowed).toBe(false);
    expect(reads.count).toBe(3);
  });

  it('never keeps a read that failed: the next lookup reads again, at the same moment', async () => {
    const { reads, sql: counted } = countedReads();
    const { now } = clock();
    const rulesOf = jurisdictionRules(counted, now);
    reads.next = () => Promise.reject(new Error('connection lost'));
    await expect(rulesOf(codes.refreshed)).rejects.toThrow('connection lost');
    expect(maxStake(await rulesOf(codes.refreshed))).toMatch(/^\d+\.0000$/);
    expect(reads.count).toBe(2);
    await rulesOf(codes.refreshed);
    expect(reads.count).toBe(2);
  });

  it('keeps the newer read when an older one fails after it', async () => {
    const { reads, sql: counted } = countedReads();
    const { time, now } = clock();
    const rulesOf = jurisdictionRules(counted, now);
    let fail!: (error: Error) => void;
    reads.next = () => new Promise<never>((_, reject) => { fail = reject; });
    const first = rulesOf(codes.refreshed);
    time.now += 60_000;
    expect(maxStake(await rulesOf(codes.refreshed))).toMatch(/^\d+\.0000$/);
    expect(reads.count).toBe(2);
    fail(new Error('connection lost'));
    await expect(first).rejects.toThrow('connection lost');
    await rulesOf(codes.refreshed);
    expect(reads.count).toBe(2);
  });
});
