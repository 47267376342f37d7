// Type-level proof that the SDK's types come from the OpenAPI description (sdks/typescript/src/api.types.ts).
// Compiled by tests/client/type-tests.test.ts (each @ts-expect-error must stay an error).
import { expectTypeOf } from 'vitest';
import {
  ApiError,
  type components,
  type CreatedSession,
  createOperatorClient,
  type GameSession,
  type ProblemCode,
} from '../../../sdks/typescript/src/index.ts';

type Schemas = components['schemas'];
const client = createOperatorClient({ baseUrl: 'http://127.0.0.1:54321/functions/v1', apiKey: 'cgs_live_x' });

// Answers are the documented schemas; a 201 always has its launch URL, a read may not.
expectTypeOf(client.sessions.create).returns.resolves.toEqualTypeOf<CreatedSession>();
expectTypeOf<CreatedSession['launch_url']>().toEqualTypeOf<string>();
expectTypeOf(client.sessions.get).returns.resolves.toEqualTypeOf<GameSession>();
expectTypeOf<GameSession>().toEqualTypeOf<Schemas['GameSession']>();
expectTypeOf<GameSession['launch_url']>().toEqualTypeOf<string | undefined>();
expectTypeOf<GameSession['status']>().toEqualTypeOf<'created' | 'active' | 'closed' | 'expired'>();

// The input is the request schema, camelCased.
expectTypeOf(client.sessions.create).parameter(0).toEqualTypeOf<
  {
    playerId: string; gameId: string; currency: string; country?: string; jurisdiction?: string;
    kycStatus?: 'unverified' | 'pending' | 'verified' | 'rejected'; realityCheckMinutes?: number;
  }
>();
// @ts-expect-error the wire names are not the SDK's input names
client.sessions.create({ player_id: 'p', game_id: 'g:x', currency: 'EUR' });
// @ts-expect-error every field is required, as in the schema
client.sessions.create({ playerId: 'p', gameId: 'g:x' });
// @ts-expect-error the Idempotency-Key is a string
client.sessions.create({ playerId: 'p', gameId: 'g:x', currency: 'EUR' }, { idempotencyKey: 42 });

// Errors carry the documented problem body and its code.
expectTypeOf<ApiError['problem']>().toEqualTypeOf<Schemas['Problem'] | null>();
expectTypeOf<ApiError['code']>().toEqualTypeOf<ProblemCode | undefined>();
declare const error: ApiError;
// @ts-expect-error not a documented problem code
if (error.code === 'validation_error') throw error;
