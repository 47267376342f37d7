// The operator's webhook endpoints, in-process against the test database: created with a secret
// shown once (kept where no API role reads it), listed, read and removed in the key's mode only,
// bad bodies a 400 naming each field, 401 first, every answer as the document says.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectResponseMatches, type OperationId } from '../openapi/contract.ts';
import { connect } from '../helpers/db.ts';
import { cursorOf, issueKey, newOperator, type Operator, sessionRequest, sessionsHandler, validBody } from '../helpers/api.ts';

const sql = connect();
const { handle, buildApp } = await sessionsHandler();
let operator: Operator;

beforeAll(async () => {
  operator = await newOperator(sql, 'hooks');
});

async function call(method: string, path: string, operation: OperationId, body?: object, key: string | null = operator.key) {
  const response = await handle(new Request(`http://api.test/v3${path}`, {
    method,
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  }));
  const json = await response.json();
  expectResponseMatches(operation, response, json);
  return { status: response.status, body: json };
}

describe('webhook endpoints', () => {
  it('answers a create with the Location of the endpoint it made, which reads it back', async () => {
    const located = await newOperator(sql, 'hooks-located');
    const response = await handle(new Request('http://api.test/v3/webhook-endpoints', {
      method: 'POST', headers: { authorization: `Bearer ${located.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'https://hooks.operator.test/located' }),
    }));
    const created = await response.json();
    expectResponseMatches('createWebhookEndpoint', response, created);
    expect(response.headers.get('location')).toBe(`/functions/v1/v3/webhook-endpoints/${created.id}`);
    const read = await call('GET', response.headers.get('location')!.replace('/functions/v1/v3', ''), 'getWebhookEndpoint', undefined,
      located.key);
    expect(read).toMatchObject({ status: 200, body: { id: created.id, url: 'https://hooks.operator.test/located' } });
  });

  it('creates one with its secret shown once, then lists and reads it without', async () => {
    const created = await call('POST', '/webhook-endpoints', 'createWebhookEndpoint', {
      url: 'https://hooks.operator.test/cgs', event_types: ['round.closed', 'session.created'], description: 'Ledger',
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ url: 'https://hooks.operator.test/cgs', enabled: true, livemode: true,
      event_types: ['round.closed', 'session.created'] });
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(created.body.secret_prefix).toBe(created.body.secret.slice(0, 12));
    const [stored] = await sql`select secret from private.webhook_secret where endpoint_id = ${created.body.id}`;
    expect(stored.secret).toBe(created.body.secret);
    const listed = await call('GET', '/webhook-endpoints', 'listWebhookEndpoints');
    expect(listed.body.data.map((e: { id: string }) => e.id)).toEqual([created.body.id]);
    expect(listed.body.data[0]).not.toHaveProperty('secret');
    const read = await call('GET', `/webhook-endpoints/${created.body.id}`, 'getWebhookEndpoint');
    expect(read.body).toEqual(listed.body.data[0]);
  });

  it('pages the list, each endpoint once in the list\'s order, and refuses a cursor naming none of them', async () => {
    const own = await newOperator(sql, 'hooks-pages');
    const made: string[] = [];
    for (let i = 0; i < 3; i++) {
      made.push((await call('POST', '/webhook-endpoints', 'createWebhookEndpoint', { url: `https://hooks.operator.test/${i}` }, own.key)).body.id);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await call('GET', `/webhook-endpoints?limit=1${cursor ? `&cursor=${cursor}` : ''}`, 'listWebhookEndpoints', undefined, own.key);
      expect(page.body.data).toHaveLength(1);
      seen.push(page.body.data[0].id);
      cursor = page.body.next_cursor;
    } while (cursor);
    const whole = await call('GET', '/webhook-endpoints', 'listWebhookEndpoints', undefined, own.key);
    expect(seen).toEqual(whole.body.data.map((e: { id: string }) => e.id));
    expect([...seen].sort()).toEqual([...made].sort());
    const stale = cursorOf([operator.account.id]);
    expect((await call('GET', `/webhook-endpoints?cursor=${stale}`, 'listWebhookEndpoints', undefined, own.key)).body.errors)
      .toEqual([expect.objectContaining({ parameter: 'cursor', code: 'invalid_cursor' })]);
  });

  it('keeps each client and each key mode to its own endpoints', async () => {
    const [{ id }] = await sql`select id from public.webhook_endpoint where client_id = ${operator.account.id}`;
    const other = await newOperator(sql, 'hooks-other');
    expect((await call('GET', `/webhook-endpoints/${id}`, 'getWebhookEndpoint', undefined, other.key)).status).toBe(404);
    expect((await call('DELETE', `/webhook-endpoints/${id}`, 'deleteWebhookEndpoint', undefined, other.key)).status).toBe(404);
    const test = (await issueKey(sql, operator.account, 'Sandbox hooks', false)).key;
    expect((await call('GET', '/webhook-endpoints', 'listWebhookEndpoints', undefined, test)).body.data).toEqual([]);
    expect((await call('GET', '/webhook-endpoints/not-an-id', 'getWebhookEndpoint')).status).toBe(404);
  });

  it('refuses a bad body field by field, and anyone without a key first', async () => {
    const bad = await call('POST', '/webhook-endpoints', 'createWebhookEndpoint', { url: 'ftp://x', event_types: ['nope.never'], extra: 1 });
    expect(bad).toMatchObject({ status: 400, body: { code: 'validation_failed' } });
    expect(bad.body.errors.map((e: { pointer: string }) => e.pointer).sort()).toEqual(['#/event_types/0', '#/extra', '#/url']);
    expect((await call('POST', '/webhook-endpoints', 'createWebhookEndpoint', { url: 'ftp://x' }, null)).status).toBe(401);
  });

  it('removes one, with its pending deliveries, answering it as it was', async () => {
    const created = await call('POST', '/webhook-endpoints', 'createWebhookEndpoint', { url: 'https://gone.operator.test/' });
    await sql`select private.emit_event(${operator.account.id}, true, 'session.created', '{}'::jsonb)`;
    await sql`select private.fan_out_events()`;
    expect((await sql`select count(*)::int as n from public.webhook_delivery where endpoint_id = ${created.body.id}`)[0].n).toBe(1);
    const removed = await call('DELETE', `/webhook-endpoints/${created.body.id}`, 'deleteWebhookEndpoint');
    expect(removed.body).toMatchObject({ id: created.body.id, url: 'https://gone.operator.test/' });
    expect((await sql`select count(*)::int as n from public.webhook_delivery where endpoint_id = ${created.body.id}`)[0].n).toBe(0);
    expect((await call('GET', `/webhook-endpoints/${created.body.id}`, 'getWebhookEndpoint')).status).toBe(404);
  });
});

describe('the routes', () => {
  // The app is built inside the test, so what the routes are (their paths, methods and handlers)
  // is the test's own: an app built when the file loads is built before a mutant under test is on.
  it('answers at each of its paths, with the handler of its method', async () => {
    const app = buildApp();
    const own = await newOperator(sql, 'hooks-routes');
    const send = async (method: string, path: string, body?: object) => {
      const response = await app(new Request(`http://api.test/v3${path}`, {
        method, body: body && JSON.stringify(body),
        headers: { authorization: `Bearer ${own.key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      }));
      const json = await response.json();
      return { status: response.status, body: json };
    };
    const created = await send('POST', '/webhook-endpoints', { url: 'https://hooks.operator.test/routes' });
    expect(created).toMatchObject({ status: 201, body: { url: 'https://hooks.operator.test/routes', secret: expect.any(String) } });
    const id = created.body.id;
    expect((await send('GET', '/webhook-endpoints')).body.data.map((e: { id: string }) => e.id)).toEqual([id]);
    expect((await send('GET', `/webhook-endpoints/${id}`)).body).toMatchObject({ id, description: null });
    expect((await send('PATCH', `/webhook-endpoints/${id}`, { description: 'routes' })).body).toMatchObject({ id, description: 'routes' });
    const rotated = await send('POST', `/webhook-endpoints/${id}/rotate-secret`);
    expect(rotated).toMatchObject({ status: 200, body: { id, secret: expect.any(String) } });
    expect(rotated.body.secret).not.toBe(created.body.secret);
    const ping = await send('POST', `/webhook-endpoints/${id}/test`);
    expect(ping).toMatchObject({ status: 202, body: { type: 'endpoint.ping' } });
    const events = await send('GET', '/events?type=endpoint.ping');
    expect(events.body.data.map((e: { id: string }) => e.id)).toEqual([ping.body.id]);
    expect((await send('GET', `/events/${ping.body.id}`)).body).toEqual(events.body.data[0]);
    const deliveries = await send('GET', `/events/${ping.body.id}/deliveries`);
    expect(deliveries).toMatchObject({ status: 200, body: { data: [expect.objectContaining({ endpoint_id: id })] } });
    expect((await send('POST', `/events/${ping.body.id}/redeliver`)).status).toBe(200);
    expect((await send('DELETE', `/webhook-endpoints/${id}`)).body).toMatchObject({ id });
    expect((await send('GET', `/webhook-endpoints/${id}`)).status).toBe(404);
    // A path the routes do not have, and a method a path does not take.
    expect((await send('GET', '/webhook-endpoints/x/y/z')).status).toBe(404);
    expect((await send('PUT', '/events')).status).toBe(405);
  });
});

describe('events', () => {
  it('lists the caller\'s events newest first, by type, a page at a time, and reads one', async () => {
    const made: string[] = [];
    for (let i = 0; i < 3; i++) {
      const response = await handle(sessionRequest(validBody, { key: operator.key }));
      made.push((await response.json()).id);
    }
    const listed = await call('GET', '/events?type=session.created&limit=100', 'listEvents');
    const ids = listed.body.data.map((e: { data: { id: string } }) => e.data.id);
    expect(ids.slice(0, 3)).toEqual([...made].reverse());
    const first = await call('GET', '/events?type=session.created&limit=1', 'listEvents');
    const second = await call('GET', `/events?type=session.created&limit=1&cursor=${first.body.next_cursor}`, 'listEvents');
    expect([first.body.data[0].data.id, second.body.data[0].data.id]).toEqual([made[2], made[1]]);
    const event = listed.body.data[0];
    expect((await call('GET', `/events/${event.id}`, 'getEvent')).body).toEqual(event);
    const other = await newOperator(sql, 'events-other');
    expect((await call('GET', `/events/${event.id}`, 'getEvent', undefined, other.key)).status).toBe(404);
    expect((await call('GET', '/events?type=nope.never', 'listEvents')).status).toBe(400);
  });

  it('answers an empty page for a client with no such events, and refuses a cursor unless both its parts are right', async () => {
    const quiet = await newOperator(sql, 'events-none');
    expect((await call('GET', '/events?type=round.closed', 'listEvents', undefined, quiet.key)).body)
      .toEqual({ data: [], next_cursor: null, has_more: false });
    const [at, id] = ['2026-12-08T01:00:00.000000Z', randomUUID()];
    expect((await call('GET', `/events?cursor=${cursorOf([at, id])}`, 'listEvents', undefined, quiet.key)).status).toBe(200);
    for (const parts of [['yesterday', id], [at, 'not-a-uuid'], ['yesterday', 'not-a-uuid']]) {
      const refused = await call('GET', `/events?cursor=${cursorOf(parts)}`, 'listEvents', undefined, quiet.key);
      expect(refused.body.errors, parts.join()).toEqual([expect.objectContaining({ parameter: 'cursor', code: 'invalid_cursor' })]);
    }
  });
});

describe('changing an endpoint', () => {
  it('changes the fields given, rotates the secret keeping the old one a day, and sends a ping to it alone', async () => {
    const created = await call('POST', '/webhook-endpoints', 'createWebhookEndpoint', { url: 'https://change.operator.test/', description: 'x' });
    const id = created.body.id;
    const patched = await call('PATCH', `/webhook-endpoints/${id}`, 'updateWebhookEndpoint', { enabled: false, event_types: ['round.closed'] });
    expect(patched.body).toMatchObject({ enabled: false, event_types: ['round.closed'], url: 'https://change.operator.test/', description: 'x' });
    expect((await call('PATCH', `/webhook-endpoints/${id}`, 'updateWebhookEndpoint', {})).status).toBe(400);
    expect((await call('PATCH', `/webhook-endpoints/${id}`, 'updateWebhookEndpoint', { description: null })).body.description).toBeNull();

    const rotated = await call('POST', `/webhook-endpoints/${id}/rotate-secret`, 'rotateWebhookSecret');
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(created.body.secret);
    const [kept] = await sql`select secret, previous_secret, previous_until from private.webhook_secret where endpoint_id = ${id}`;
    expect(kept).toMatchObject({ secret: rotated.body.secret, previous_secret: created.body.secret });

    const ping = await call('POST', `/webhook-endpoints/${id}/test`, 'testWebhookEndpoint');
    expect(ping).toMatchObject({ status: 202, body: { type: 'endpoint.ping', data: { endpoint_id: id } } });
    const deliveries = await sql`select endpoint_id from public.webhook_delivery where event_id = ${ping.body.id}`;
    expect(deliveries.map((d) => d.endpoint_id)).toEqual([id]);
    const other = await newOperator(sql, 'change-other');
    expect((await call('POST', `/webhook-endpoints/${id}/test`, 'testWebhookEndpoint', undefined, other.key)).status).toBe(404);
  });
});
