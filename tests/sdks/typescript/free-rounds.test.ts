// The TypeScript SDK's free-round methods against the v3 app in-process (its fetch is the app's):
// a campaign created with camelCased input and money as strings, repeated under its external_id,
// players added, its grants listed and read, and the campaign cancelled; refusals are ApiErrors
// with the problem's code and errors.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { ApiError, createOperatorClient, type OperatorClient } from '../../../sdks/typescript/src/index.ts';
import { connect, signUp } from '../../helpers/db.ts';
import { issueKey, sessionsHandler } from '../../helpers/api.ts';

const sql = connect();
const { handle } = await sessionsHandler();
let client: OperatorClient;

beforeAll(async () => {
  const account = await signUp(sql, 'sdk-free-rounds');
  const { key } = await issueKey(sql, account, 'Sandbox', false);
  client = createOperatorClient({
    baseUrl: 'http://api.test/functions/v1', apiKey: key, retries: 0,
    fetch: (url, init) => handle(new Request(url, init)),
  });
});

describe('freeRounds', () => {
  it('creates, repeats, grants, lists, reads, removes a player from and cancels a campaign', async () => {
    const input = {
      externalId: `sdk-${randomUUID()}`, name: 'SDK spins', gameIds: ['cgs-sandbox:lucky-sevens'], currency: 'EUR', betAmount: '0.5',
      rounds: 5, validUntil: new Date(Date.now() + 3 * 86_400_000).toISOString(), playerIds: ['sdk-1'],
    };
    const campaign = await client.freeRounds.campaigns.create(input);
    expect(campaign).toMatchObject({ external_id: input.externalId, bet_amount: '0.5000', livemode: false, grants: { pending: 1 } });
    expect((await client.freeRounds.campaigns.create(input)).id).toBe(campaign.id);
    expect(await client.freeRounds.campaigns.addPlayers(campaign.id, ['sdk-1', 'sdk-2'])).toEqual({
      campaign_id: campaign.id, created: 1, unchanged: 1,
    });
    const grants = [];
    for await (const grant of client.freeRounds.grants.iterate({ campaignId: campaign.id, limit: 1 })) grants.push(grant);
    expect(grants.map((g) => g.player_id).sort()).toEqual(['sdk-1', 'sdk-2']);
    expect(await client.freeRounds.grants.get(grants[0].id)).toEqual(grants[0]);
    expect((await client.freeRounds.campaigns.list({ status: 'active' })).data.map((c) => c.id)).toContain(campaign.id);
    expect(await client.freeRounds.campaigns.get(campaign.id)).toMatchObject({ id: campaign.id, grants: { pending: 2 } });
    // A player removed: the grant cancelled, again harmless; a player without a grant is a 404.
    const removed = await client.freeRounds.campaigns.removePlayer(campaign.id, 'sdk-2');
    expect(removed).toMatchObject({ player_id: 'sdk-2', status: 'cancelled', rounds_left: 0 });
    expect(await client.freeRounds.campaigns.removePlayer(campaign.id, 'sdk-2')).toEqual(removed);
    expect(await client.freeRounds.campaigns.removePlayer(campaign.id, 'nobody').catch((e: unknown) => e)).toMatchObject({ status: 404, code: 'not_found' });
    expect(await client.freeRounds.campaigns.get(campaign.id)).toMatchObject({ grants: { pending: 1, cancelled: 1 } });
    expect(await client.freeRounds.campaigns.cancel(campaign.id)).toMatchObject({ status: 'cancelled', grants: { cancelled: 2 } });
  });

  it('answers a refusal as an ApiError with its code and each reason', async () => {
    const error = await client.freeRounds.campaigns.create({
      externalId: `sdk-${randomUUID()}`, name: 'Too dear', gameIds: ['cgs-sandbox:lucky-sevens'], currency: 'EUR', betAmount: '3',
      rounds: 5, validUntil: new Date(Date.now() + 86_400_000).toISOString(),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 422, code: 'stake_not_allowed' });
    expect((error as ApiError).problem?.errors?.[0]).toMatchObject({ pointer: '#/bet_amount', code: 'stake_not_allowed' });
  });
});
