// The SDK's public types, all derived from the types openapi-typescript generates from the OpenAPI
// description (api.types.ts): nothing here restates a field by hand.
import type { components, operations } from './api.types.ts';

type Schemas = components['schemas'];

/** A session as `GET /v3/sessions/{id}` returns it: `launch_url` only while it can be launched. */
export type GameSession = Schemas['GameSession'];
/** A session as `POST /v3/sessions` returns it: always with its `launch_url`. */
export type CreatedSession = operations['createSession']['responses'][201]['content']['application/json'];
/** RFC 9457 problem details, as every error response carries them. */
export type Problem = Schemas['Problem'];
export type ProblemCode = Schemas['ProblemCode'];
export type FieldError = Schemas['FieldError'];
export type Jwks = Schemas['Jwks'];

type CamelCase<S extends string> = S extends `${infer Head}_${infer Tail}` ? `${Head}${Capitalize<CamelCase<Tail>>}`
  : S;
type CamelCased<T> = { [K in keyof T as CamelCase<K & string>]: T[K] };

/** The POST /v3/sessions body on the wire. */
export type SessionRequest = Schemas['SessionRequest'];

/** What `sessions.create` takes: the request body's fields, camelCased (`playerId`, `gameId`, `currency`, `country`). */
export type SessionInput = CamelCased<SessionRequest>;
