// What anonymous callers may write is bounded: the contact form's fields are checked in the
// database, so no one stores megabytes or nonsense through it.
import { describe, expect, test } from 'vitest';
import { as, connect, outcome } from '../helpers/db.ts';

describe('contact form bounds', () => {
  const sql = connect();
  const valid = { name: 'Visitor', email: 'visitor@example.test', message: 'Please call me back.' };
  const send = (row: Record<string, unknown>) => () => as(sql, 'anon', (tx) => tx`insert into public.contact_submission ${tx(row)}`);

  test('a well-formed message with every optional field is accepted', async () => {
    const row = { ...valid, company: 'Acme Casino', phone: '+44 20 7946 0958', messaging_handle: '@acme', source: 'pricing-page' };
    expect(await outcome(send(row))).toBe('ok');
  });

  const rejected: [string, Record<string, unknown>][] = [
    ['an empty name', { name: '  ' }],
    ['a name over 200 characters', { name: 'n'.repeat(201) }],
    ['an e-mail without @', { email: 'visitor.example.test' }],
    ['an e-mail over 320 characters', { email: `${'e'.repeat(320)}@example.test` }],
    ['an empty message', { message: '' }],
    ['a message of a megabyte', { message: 'm'.repeat(1_000_000) }],
    ['a company over 200 characters', { company: 'c'.repeat(201) }],
    ['a phone number that is not one', { phone: 'call me maybe' }],
    ['a messaging handle over 100 characters', { messaging_handle: 'h'.repeat(101) }],
    ['a source that is not a short slug', { source: 'Ad Campaign <script>' }],
  ];
  test.each(rejected)('%s is rejected, and nothing is stored', async (_, change) => {
    const marker = `bounds ${Math.random()}`;
    const row = { ...valid, name: marker, message: marker, ...change };
    expect(await outcome(send(row))).toBe('23514');
    const stored = await sql`select 1 from public.contact_submission where name = ${String(row.name)} or message = ${String(row.message)}`;
    expect(stored).toHaveLength(0);
  });
});
