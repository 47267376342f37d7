// The deliver Edge Function under real Deno, on a database of its own: a POST drains what is due
// and says what it did; anything else is 405.
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Sql } from 'postgres';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { serveFunction, type ServedFunction } from '../../scripts/lib/deno-function.ts';
import { freshMigratedDatabase } from '../../scripts/lib/database.ts';
import postgres from 'postgres';
import { signUp } from '../helpers/db.ts';

let owner: Sql;
let served: ServedFunction;
const hits: string[] = [];
const receiver = createServer((req, res) => {
  hits.push(req.headers['webhook-id'] as string);
  req.resume().on('end', () => res.writeHead(200).end());
});

beforeAll(async () => {
  const url = await freshMigratedDatabase(inject('databaseUrl'), 'cgs_deliver_function');
  owner = postgres(url, { max: 2, onnotice: () => {} });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  served = await serveFunction({ name: 'deliver', databaseUrl: url, env: { ALLOW_PRIVATE_URLS: 'true', DELIVER_BUDGET_MS: '300' } });
});
afterAll(async () => {
  await served?.stop();
  await owner?.end();
  await new Promise((resolve) => receiver.close(resolve));
});

describe('the deliver function', () => {
  it('delivers what is due when called, and answers its counts', async () => {
    const client = (await signUp(owner, 'deliver')).id;
    const secret = `whsec_${randomBytes(32).toString('base64')}`;
    const [endpoint] = await owner`
      insert into public.webhook_endpoint (client_id, livemode, url, secret_prefix)
      values (${client}, true, ${`http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`}, 'whsec_x') returning id`;
    await owner`insert into private.webhook_secret (endpoint_id, secret) values (${endpoint.id}, ${secret})`;
    const [event] = await owner`select private.emit_event(${client}, true, 'test.deno', '{}'::jsonb) as id`;
    const base = served.url.replace('/functions/v1', '');
    const response = await fetch(`${base}/`, { method: 'POST' });
    expect(await response.json()).toEqual({ claimed: 1, delivered: 1 });
    expect(hits).toEqual([event.id]);
    expect((await fetch(`${base}/`)).status).toBe(405);
  });
});

describe('the schedule', () => {
  it('says what is missing where pg_cron and pg_net are not installed, and schedules the deliver call where they are', async () => {
    expect((await owner`select private.schedule_webhook_deliveries() as said`)[0].said).toBe('not scheduled: pg_cron and pg_net are needed');
    // Stand-ins with the extensions' names and signatures, on this database of its own.
    await owner.unsafe(`
      create schema cron; create schema net; create schema vault;
      create table cron.jobs (name text, schedule text, command text);
      create function cron.schedule(name text, schedule text, command text) returns bigint language sql
        as 'insert into cron.jobs values (name, schedule, command); select 1::bigint';
      create function net.http_post(url text, headers jsonb) returns bigint language sql as 'select 1::bigint';`);
    expect((await owner`select private.schedule_webhook_deliveries() as said`)[0].said)
      .toBe('not scheduled: Vault is needed (secrets project_url and service_role_key)');
    await owner`create view vault.decrypted_secrets as select 'project_url'::text as name, 'https://ref.supabase.co'::text as decrypted_secret`;
    expect((await owner`select private.schedule_webhook_deliveries() as said`)[0].said).toBe('scheduled: deliver-webhooks, every 10 seconds');
    const [job] = await owner`select * from cron.jobs`;
    expect(job).toMatchObject({ name: 'deliver-webhooks', schedule: '10 seconds' });
    expect(job.command).toContain("'/functions/v1/deliver'");
    expect(job.command).toContain('service_role_key');
  });
});
