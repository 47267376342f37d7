// Data rules of spec section 7 (and the types of section 2): bad data is refused by the
// database with a constraint error, whoever writes it, and nothing is written.
import { createHash, randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, test } from 'vitest';
import { type Cast, cast, connect, outcome } from '../helpers/db.ts';

const UNIQUE = '23505';
const FOREIGN_KEY = '23503';
const CHECK = '23514';
const hash = () => createHash('sha256').update(randomUUID()).digest('hex');

class Rollback extends Error {}

describe('data rules', () => {
  const sql = connect();
  let c: Cast;
  beforeAll(async () => {
    c = await cast(sql);
  });
  const count = async (table: string, clientId: string) =>
    Number((await sql`select count(*) from ${sql(table)} where client_id = ${clientId}`)[0].count);

  test('a transaction type outside deposit, withdraw, adjustment, bet, win, fee is rejected', async () => {
    // Amounts are the signed effect on the balance (see the ledger migration).
    const amounts = { deposit: 1, withdraw: -1, adjustment: 1, bet: -1, win: 1, fee: -1 };
    for (const [type, amount] of Object.entries(amounts)) {
      await sql`insert into public.transaction (client_id, type, currency_code, amount) values (${c.alice.id}, ${type}, 'USD', ${amount})`;
    }
    const result = await outcome(
      () => sql`insert into public.transaction (client_id, type, currency_code, amount) values (${c.alice.id}, 'refund', 'USD', 1)`,
    );
    expect(result).toBe(CHECK);
    expect(await count('transaction', c.alice.id)).toBe(6);
  });

  test('an account holds each role once', async () => {
    const result = await outcome(() => sql`insert into public.user_role (user_id, role) values (${c.alice.id}, 'client')`);
    expect(result).toBe(UNIQUE);
  });

  test('a role outside admin, manager, client is rejected', async () => {
    const result = await outcome(() => sql`insert into public.user_role (user_id, role) values (${c.alice.id}, 'owner')`);
    expect(result).toBe('22P02');
  });

  test('a username is unique when present, regardless of case', async () => {
    await sql`update public.profile set username = ${`Taken-${c.eve.id}`} where id = ${c.eve.id}`;
    const result = await outcome(() => sql`update public.profile set username = ${`taken-${c.eve.id}`} where id = ${c.alice.id}`);
    expect(result).toBe(UNIQUE);
    await sql`update public.profile set username = null where id in ${sql([c.alice.id, c.eve.id])}`;
  });

  test('a client has at most one wallet per currency', async () => {
    const { id } = (await sql`insert into auth.users (id, email) values (${randomUUID()}, null) returning id`)[0];
    await sql`insert into public.wallet (client_id, currency_code) values (${id}, 'GBP')`;
    const result = await outcome(() => sql`insert into public.wallet (client_id, currency_code) values (${id}, 'GBP')`);
    expect(result).toBe(UNIQUE);
    expect(await count('wallet', id)).toBe(1);
    await sql`delete from auth.users where id = ${id}`;
  });

  test('currency codes, provider slugs and key hashes are unique', async () => {
    expect(await outcome(() => sql`insert into public.currency (code, name, symbol) values ('USD', 'Again', '$')`)).toBe(UNIQUE);
    expect(await outcome(() => sql`insert into public.game_provider (name, slug) values ('Again', 'evolution')`)).toBe(UNIQUE);
    const keyHash = hash();
    await sql`insert into public.api_key (client_id, key_prefix, key_hash) values (${c.alice.id}, 'cgs_live_one', ${keyHash})`;
    const result = await outcome(
      () => sql`insert into public.api_key (client_id, key_prefix, key_hash) values (${c.eve.id}, 'cgs_live_two', ${keyHash})`,
    );
    expect(result).toBe(UNIQUE);
  });

  test('a reference to a missing currency is rejected', async () => {
    expect(await outcome(() => sql`insert into public.wallet (client_id, currency_code) values (${c.alice.id}, 'XXX')`)).toBe(FOREIGN_KEY);
    const result = await outcome(
      () => sql`insert into public.transaction (client_id, type, currency_code, amount) values (${c.alice.id}, 'deposit', 'XXX', 1)`,
    );
    expect(result).toBe(FOREIGN_KEY);
  });

  test('a currency a ledger row uses is neither deleted nor renamed', async () => {
    await sql.begin(async (tx) => {
      await tx`insert into public.currency (code, name, symbol) values ('XLG', 'Ledger test', 'L')`;
      await tx`insert into public.transaction (client_id, type, currency_code, amount) values (${c.alice.id}, 'deposit', 'XLG', 1)`;
      expect(await outcome(() => tx.savepoint((s) => s`delete from public.currency where code = 'XLG'`))).toBe(FOREIGN_KEY);
      expect(await outcome(() => tx.savepoint((s) => s`update public.currency set code = 'XLH' where code = 'XLG'`))).toBe(FOREIGN_KEY);
      throw new Rollback();
    }).catch((error) => {
      if (!(error instanceof Rollback)) throw error;
    });
  });

  test('a reference to a missing account or ticket is rejected', async () => {
    const nobody = randomUUID();
    const attempts = [
      () => sql`insert into public.wallet (client_id, currency_code) values (${nobody}, 'USD')`,
      () => sql`insert into public.api_key (client_id, key_prefix, key_hash) values (${nobody}, 'cgs_live_x', ${hash()})`,
      () => sql`insert into public.transaction (client_id, type, currency_code, amount) values (${nobody}, 'deposit', 'USD', 1)`,
      () => sql`insert into public.support_ticket (client_id, subject) values (${nobody}, 'Hi')`,
      () => sql`insert into public.user_role (user_id, role) values (${nobody}, 'client')`,
      () => sql`insert into public.support_ticket_message (ticket_id, author_id, body) values (${nobody}, ${c.alice.id}, 'Hi')`,
    ];
    for (const attempt of attempts) expect(await outcome(attempt)).toBe(FOREIGN_KEY);
  });

  test('money is numeric(20,4): four decimals kept, more than 16 integer digits refused', async () => {
    const [row] = await sql`
      insert into public.transaction (client_id, type, currency_code, amount) values (${c.eve.id}, 'deposit', 'USD', '1234567890123456.12344')
      returning amount::text`;
    expect(row.amount).toBe('1234567890123456.1234');
    const result = await outcome(
      () => sql`insert into public.transaction (client_id, type, currency_code, amount) values (${c.eve.id}, 'deposit', 'USD', '12345678901234567')`,
    );
    expect(result).toBe('22003');
  });

  test('a wallet balance never goes below zero', async () => {
    const [wallet] = await sql`insert into public.wallet (client_id, currency_code, balance) values (${c.eve.id}, 'JPY', 5) returning id`;
    expect(await outcome(() => sql`update public.wallet set balance = -0.0001 where id = ${wallet.id}`)).toBe(CHECK);
  });

  test('defaults apply where no value is supplied', async () => {
    const [key] = await sql`
      insert into public.api_key (client_id, key_prefix, key_hash) values (${c.alice.id}, 'cgs_live_def', ${hash()})
      returning label, status, last_used_at, revoked_at`;
    expect(key).toEqual({ label: 'Default', status: 'active', last_used_at: null, revoked_at: null });
    const [ticket] = await sql`insert into public.support_ticket (client_id, subject) values (${c.alice.id}, 'Hi') returning status, priority`;
    expect(ticket).toEqual({ status: 'open', priority: 'normal' });
    const [wallet] = await sql`insert into public.wallet (client_id, currency_code) values (${c.alice.id}, 'EUR') returning balance::text, is_primary`;
    expect(wallet).toEqual({ balance: '0.0000', is_primary: false });
    // Rows no account owns are removed here, so the test can run again on a shared database.
    await sql.begin(async (tx) => {
      const [provider] = await tx`
        insert into public.game_provider (name, slug) values ('Defaults', 'defaults') returning games_count, status, sort_order`;
      expect(provider).toEqual({ games_count: 0, status: 'active', sort_order: 100 });
      const [currency] = await tx`insert into public.currency (code, name, symbol) values ('XDF', 'Defaults', 'D') returning is_active, sort_order`;
      expect(currency).toEqual({ is_active: true, sort_order: 100 });
      const [contact] = await tx`
        insert into public.contact_submission (name, email, message) values ('Dee', 'dee@example.test', 'Hi') returning source, status`;
      expect(contact).toEqual({ source: 'contact', status: 'new' });
      const [setting] = await tx`insert into public.app_setting (key) values (${`defaults.${c.alice.id}`}) returning value`;
      expect(setting.value).toEqual({});
      throw new Rollback();
    }).catch((error) => {
      if (!(error instanceof Rollback)) throw error;
    });
  });

  test('a revoked key carries its revocation time, and only a revoked key does', async () => {
    const insert = (status: string, revokedAt: Date | null) => () =>
      sql`insert into public.api_key (client_id, key_prefix, key_hash, status, revoked_at)
          values (${c.alice.id}, 'cgs_live_rev', ${hash()}, ${status}, ${revokedAt})`;
    expect(await outcome(insert('revoked', null))).toBe(CHECK);
    expect(await outcome(insert('active', new Date()))).toBe(CHECK);
    expect(await outcome(insert('revoked', new Date()))).toBe('ok');
  });
});
