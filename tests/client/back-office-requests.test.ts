// The PostgREST requests the back-office helpers make, recorded by a fetch that answers nothing
// of substance: no database is faked here, only the request supabase-js would send is checked
// (path, filters, ordering, Prefer and Accept headers, body). What the database then allows is
// proven against a real Postgres in tests/policies/.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import * as backOffice from '../../src/back-office/index.ts';

const SUPABASE_URL = 'http://supabase.test';
const ANON_KEY = 'anon-key-for-tests';

interface Recorded {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Headers;
  body: unknown;
}

/** A client whose fetch records each request and answers an empty 200 JSON. */
function recordingClient() {
  const requests: Recorded[] = [];
  const db = backOffice.createBackOfficeClient(SUPABASE_URL, ANON_KEY, {
    auth: { persistSession: false },
    global: {
      fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
        const url = new URL(input instanceof Request ? input.url : String(input));
        requests.push({
          method: init?.method ?? 'GET',
          path: url.pathname,
          query: Object.fromEntries(url.searchParams),
          headers: new Headers(init?.headers),
          body: typeof init?.body === 'string' ? JSON.parse(init.body) : init?.body,
        });
        const single = new Headers(init?.headers).get('accept') === 'application/vnd.pgrst.object+json';
        return new Response(single ? '{}' : '[]', { status: 200, headers: { 'content-type': 'application/json' } });
      },
    },
  });
  const last = () => requests.at(-1)!;
  return { db, requests, last };
}

const alice = randomUUID();

describe("reads of a client's own rows filter by client_id explicitly (the index path), not only by RLS", () => {
  it.each(
    [
      ['clientWallets', 'wallet', backOffice.clientWallets],
      ['latestTransactions', 'transaction', backOffice.latestTransactions],
      ['clientApiKeys', 'api_key', backOffice.clientApiKeys],
      ['clientTickets', 'support_ticket', backOffice.clientTickets],
    ] as const,
  )('%s reads /rest/v1/%s with client_id=eq.<id>', async (_, table, helper) => {
    const { db, last } = recordingClient();
    await helper(db, alice);
    expect(last()).toMatchObject({ method: 'GET', path: `/rest/v1/${table}`, query: { client_id: `eq.${alice}` } });
  });
});

describe('the queries the back office runs', () => {
  it('latestTransactions: newest first, the latest 50 unless told otherwise', async () => {
    const { db, last } = recordingClient();
    await backOffice.latestTransactions(db, alice);
    expect(last().query).toEqual({ select: '*', client_id: `eq.${alice}`, order: 'created_at.desc', limit: '50' });
    await backOffice.latestTransactions(db, alice, 10);
    expect(last().query.limit).toBe('10');
  });

  it('clientWallets: primary first, then by currency', async () => {
    const { db, last } = recordingClient();
    await backOffice.clientWallets(db, alice);
    expect(last().query).toEqual({ select: '*', client_id: `eq.${alice}`, order: 'is_primary.desc,currency_code.asc' });
  });

  it('clientApiKeys: never asks for key_hash', async () => {
    const { db, last } = recordingClient();
    await backOffice.clientApiKeys(db, alice);
    const columns = last().query.select.split(',');
    expect(columns).toEqual(['id', 'label', 'key_prefix', 'livemode', 'status', 'created_at', 'last_used_at', 'revoked_at']);
    expect(columns).not.toContain('key_hash');
  });

  it("ticketMessages: one ticket's conversation, oldest first", async () => {
    const { db, last } = recordingClient();
    const ticket = randomUUID();
    await backOffice.ticketMessages(db, ticket);
    expect(last()).toMatchObject({
      path: '/rest/v1/support_ticket_message',
      query: { select: '*', ticket_id: `eq.${ticket}`, order: 'created_at.asc' },
    });
  });

  it('currencies and gameProviders: every row in display order, or only active ones', async () => {
    const { db, last } = recordingClient();
    await backOffice.currencies(db);
    expect(last()).toMatchObject({
      path: '/rest/v1/currency',
      query: { select: '*', order: 'sort_order.asc,code.asc' },
    });
    expect(last().query).not.toHaveProperty('is_active');
    await backOffice.currencies(db, { activeOnly: true });
    expect(last().query.is_active).toBe('eq.true');
    await backOffice.gameProviders(db, { activeOnly: true });
    expect(last()).toMatchObject({
      path: '/rest/v1/game_provider',
      query: { select: '*', status: 'eq.active', order: 'sort_order.asc,name.asc' },
    });
  });
});

describe('the writes the back office makes', () => {
  it('openTicket and postMessage insert one row and ask for it back as a single object', async () => {
    const { db, requests } = recordingClient();
    const ticket = randomUUID();
    await backOffice.openTicket(db, { client_id: alice, subject: 'Payout delayed' });
    await backOffice.postMessage(db, { ticket_id: ticket, author_id: alice, body: 'Any news?' });
    expect(requests.map((r) => [r.method, r.path, r.body])).toEqual([
      ['POST', '/rest/v1/support_ticket', { client_id: alice, subject: 'Payout delayed' }],
      ['POST', '/rest/v1/support_ticket_message', { ticket_id: ticket, author_id: alice, body: 'Any news?' }],
    ]);
    for (const request of requests) {
      expect(request.headers.get('prefer')).toContain('return=representation');
      expect(request.headers.get('accept')).toBe('application/vnd.pgrst.object+json');
    }
  });

  it('sendContactMessage inserts with return=minimal and selects nothing (anonymous visitors cannot read it back)', async () => {
    const { db, last } = recordingClient();
    const message = { name: 'Ann', email: 'ann@example.test', message: 'Please call me back' };
    const { error } = await backOffice.sendContactMessage(db, message);
    expect(error).toBeNull();
    expect(last()).toMatchObject({ method: 'POST', path: '/rest/v1/contact_submission', body: message });
    expect(last().headers.get('prefer')).toBe('return=minimal');
    expect(last().query).not.toHaveProperty('select');
  });

  it('staff RPCs: issue_api_key and revoke_api_key return one row; record_transaction sends its arguments as named', async () => {
    const { db, requests } = recordingClient();
    const key = randomUUID();
    await backOffice.issueApiKey(db, { client_id: alice, label: 'Production' });
    await backOffice.revokeApiKey(db, key);
    await backOffice.recordTransaction(db, {
      client_id: alice,
      currency_code: 'EUR',
      type: 'bet',
      amount: -12.5,
      reference: 'r-1',
    });
    expect(requests.map((r) => [r.method, r.path, r.body])).toEqual([
      ['POST', '/rest/v1/rpc/issue_api_key', { client_id: alice, label: 'Production' }],
      ['POST', '/rest/v1/rpc/revoke_api_key', { id: key }],
      ['POST', '/rest/v1/rpc/record_transaction', {
        client_id: alice,
        currency_code: 'EUR',
        type: 'bet',
        amount: -12.5,
        reference: 'r-1',
      }],
    ]);
    expect(requests.slice(0, 2).map((r) => r.headers.get('accept'))).toEqual(
      Array(2).fill('application/vnd.pgrst.object+json'),
    );
  });

  it('resolveRound: resolve_round with the round and how to end it', async () => {
    const { db, last } = recordingClient();
    const round = randomUUID();
    await backOffice.resolveRound(db, round, 'cancel');
    expect([last().method, last().path, last().body]).toEqual(['POST', '/rest/v1/rpc/resolve_round', { round_id: round, resolution: 'cancel' }]);
  });
});

describe('createBackOfficeClient', () => {
  it('talks to {url}/rest/v1 with the anon key, in the public schema', async () => {
    const { db, last } = recordingClient();
    await backOffice.currencies(db);
    expect(last().headers.get('apikey')).toBe(ANON_KEY);
    expect(last().headers.get('authorization')).toBe(`Bearer ${ANON_KEY}`);
    const profile = last().headers.get('accept-profile');
    expect(profile === null || profile === 'public').toBe(true);
  });

  it('is built where there is no global WebSocket (Node 20): HTTP works, realtime says what it lacks', async () => {
    const saved = Object.getOwnPropertyDescriptor(globalThis, 'WebSocket');
    Reflect.deleteProperty(globalThis, 'WebSocket');
    try {
      const { db, last } = recordingClient();
      await backOffice.currencies(db);
      expect(last().path).toBe('/rest/v1/currency');
      expect(() => db.realtime.connect()).toThrow(/Realtime needs a WebSocket/);
    } finally {
      if (saved) Object.defineProperty(globalThis, 'WebSocket', saved);
    }
  });
});
